/**
 * End to end against `wrangler dev`: a real WordPress export (the WordPress importer's
 * small-export.xml) imported through the generated `cli/manage.mjs` — create-import-source,
 * create-import, upload-import-part --file (5 MiB parts, keys from their bytes, then the completion
 * with the SHA-256), advance-import --follow (progress per step, stops at the review's decision, then
 * at the end), get-word-press-review --all, decide-word-press-review — its posts then served by the
 * public API; and a whole-site export saved by read-export-chunk --out --finish, its SHA-256 checked.
 * Run: unshare -n bash -c 'ip link set lo up && npm run test:e2e -- test/e2e/imports-cli.test.mjs'
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8811;
const CLI = path.join(root, "cli", "manage.mjs");
const WXR = path.join(root, "test", "fixtures", "wordpress", "small-export.xml");
let server;

function cli(args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${PORT}`, SERVICE_MANAGEMENT_TOKEN: server.info.management_token }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const json = (result) => {
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout);
};

before(async () => {
  server = await startDevServer({ port: PORT });
});

after(() => server?.stop());

describe("imports and exports through manage.mjs", () => {
  it("imports a WordPress export end to end and saves a whole-site export", async () => {
    const models = json(await cli(["list-models"])).data;
    const category = models.find((m) => m.definition?.model?.slug === "category" || m.slug === "category");
    assert.ok(category, "the demo has a category model");
    const categoryId = category.id ?? category.model_id;
    const created = json(
      await cli([
        "create-model",
        "--body",
        JSON.stringify({
          definition: {
            model: { name: "Post", slug: "post" },
            fields: [
              { key: "title", label: "Title", type: "text", required: true, title: true },
              { key: "body", label: "Body", type: "rich_text" },
              { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [categoryId] },
            ],
          },
        }),
      ]),
    );
    assert.equal(created.slug, "post");

    const source = json(await cli(["create-import-source", "--kind", "wordpress", "--name", "WordPress importer fixture"]));
    const job = json(await cli(["create-import", "--source-id", source.source.id, "--file-name", "small-export.xml"])).import;
    const uploaded = await cli(["upload-import-part", "--id", job.id, "--file", WXR]);
    const completed = json(uploaded);
    assert.match(uploaded.stderr, /part 1\/1: \d+ bytes/);
    assert.equal(completed.import.file.sha256, createHash("sha256").update(readFileSync(WXR)).digest("hex"));
    // Sent again (its answer lost, say): the job already holds this very file, so nothing is sent and the job is answered.
    const again = await cli(["upload-import-part", "--id", job.id, "--file", WXR]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /already holds this file/);
    assert.equal(json(again).import.file.sha256, completed.import.file.sha256);

    const toReview = await cli(["advance-import", "--id", job.id, "--follow"]);
    assert.equal(toReview.code, 0, toReview.stderr);
    assert.match(toReview.stderr, /review: 0\/\d+ items, 0 findings/);
    assert.match(toReview.stderr, /waits for a decision/);

    const review = json(await cli(["get-word-press-review", "--id", job.id, "--all"]));
    assert.equal(review.counts.post.total, 6);
    assert.equal(review.mapping.proposed.post, created.model_id);
    json(await cli(["decide-word-press-review", "--id", job.id, "--body", JSON.stringify({ approve: true })]));

    const followed = await cli(["advance-import", "--id", job.id, "--follow"]);
    const done = json(followed);
    assert.equal(done.import.state, "done");
    assert.match(followed.stderr, /^writing: \d+\/\d+ items, \d+ findings$/m);
    assert.match(followed.stderr, /^done: (\d+)\/\1 items/m);
    const findings = json(await cli(["get-import-findings", "--id", job.id, "--all"])).findings;
    assert.ok(findings.some((f) => f.code === "status_kept_as_draft"));

    const served = await request(PORT, { host: "demo.localhost", path: "/v1/post/top-level-foo" });
    assert.equal(served.status, 200, served.text);
    assert.match(served.text, /Post associated with the top-level Foo category/);

    const exported = json(await cli(["create-export", "--body", "{}"])).export;
    const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-export-"));
    const file = path.join(dir, "site.ndjson");
    const saved = await cli(["read-export-chunk", "--id", exported.id, "--out", file, "--finish"]);
    assert.equal(saved.code, 0, saved.stderr);
    const bytes = readFileSync(file);
    const finished = json(await cli(["get-export-job", "--id", exported.id])).export;
    assert.equal(createHash("sha256").update(bytes).digest("hex"), finished.sha256);
    assert.match(bytes.toString("utf8"), /"slug":"top-level-foo"/);

    // --page <n> saves one kept page: page 1 is the file's start (header, models, roles), page 2 follows it.
    const pageFile = path.join(dir, "page-1.ndjson");
    const pageOne = await cli(["read-export-chunk", "--id", exported.id, "--out", pageFile, "--page", "1"]);
    assert.equal(pageOne.code, 0, pageOne.stderr);
    const first = readFileSync(pageFile);
    assert.ok(first.length > 0 && first.length < bytes.length);
    assert.deepEqual(first, bytes.subarray(0, first.length));
    assert.match(first.toString("utf8"), /^\{"format":"driftwood-export"/);
    assert.doesNotMatch(first.toString("utf8"), /"type":"entry"/);
    const pastLast = await cli(["read-export-chunk", "--id", exported.id, "--out", path.join(dir, "none.ndjson"), "--page", String(finished.pages + 1)]);
    assert.equal(pastLast.code, 1, pastLast.stderr);
    assert.match(pastLast.stderr, /416 range_not_satisfiable/);
  });
});
