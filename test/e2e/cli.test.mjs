/**
 * End to end against `wrangler dev`: the generated `cli/manage.mjs`, spawned with Node as a user
 * runs it, with the seed's management token: read the site, create an entry, publish it (the
 * Idempotency-Key on stderr, `--key` replaying), a refusal's exit 1, a bad flag's exit 2, and the
 * admin host's `GET /manage.mjs` serving the same bytes as the repository's file.
 *
 * The origin is `http://127.0.0.1:8798`: the management API answers on any host and resolves the
 * site by credential (docs/routing.md), and `*.localhost` does not resolve on every machine.
 * Run: node --test test/e2e/cli.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8798;
const CLI = path.join(root, "cli", "manage.mjs");
let server;

function cli(args, env = {}) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${PORT}`, SERVICE_MANAGEMENT_TOKEN: server.info.management_token, ...env }, timeout: 60_000 },
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
  assert.match(server.info.management_token, /^dwm_/);
});

after(() => server?.stop());

describe("manage.mjs against wrangler dev", () => {
  it("the admin host serves the repository's file for download", async () => {
    const res = await request(PORT, { host: "admin.localhost", path: "/manage.mjs" });
    assert.equal(res.status, 200);
    assert.equal(res.headers["content-type"], "text/javascript; charset=utf-8");
    assert.equal(res.headers["content-disposition"], 'attachment; filename="manage.mjs"');
    assert.equal(res.headers["x-content-type-options"], "nosniff");
    assert.equal(res.text, readFileSync(CLI, "utf8"));
    const post = await request(PORT, { method: "POST", host: "admin.localhost", path: "/manage.mjs", body: "{}" });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, "GET, HEAD");
    // Only the admin host serves it: on a site host it is the public API's 404.
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/manage.mjs" })).status, 404);
  });

  it("get-site, create-entry, publish-entry (key on stderr, --key replays), refusal exit 1, bad flag exit 2", { timeout: 120_000 }, async () => {
    const site = json(await cli(["get-site"]));
    assert.ok(site.id ?? site.site?.id, JSON.stringify(site));

    const models = json(await cli(["list-models"]));
    const article = models.data.find((m) => m.slug === "article");
    assert.ok(article, "demo model article");

    const created = await cli(["create-entry", "--model-id", article.id, "--slug", "written-by-the-cli", "--body", JSON.stringify({ fields: { title: "Written by manage.mjs" } })]);
    const entry = json(created);
    assert.match(created.stderr, /^Idempotency-Key: \S+$/m);
    const id = entry.instance_id;
    assert.ok(id, created.stdout);

    const published = await cli(["publish-entry", "--id", id, "--key", "e2e-cli-publish-1"]);
    const first = json(published);
    assert.match(published.stderr, /^Idempotency-Key: e2e-cli-publish-1$/m);
    assert.equal(first.workflow?.state, "published", published.stdout);
    const again = json(await cli(["publish-entry", "--id", id, "--key", "e2e-cli-publish-1"]));
    assert.equal(again.replayed, true);
    assert.equal(again.workflow?.state, "published");

    const item = await request(PORT, { host: "demo.localhost", path: "/v1/article/written-by-the-cli" });
    assert.equal(item.status, 200, item.text);
    assert.equal(JSON.parse(item.text).data.fields.title, "Written by manage.mjs");

    const missing = await cli(["get-entry", "--id", "ent_missing"]);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stdout).error.code, "not_found");
    assert.match(missing.stderr, /refused: 404 not_found/);

    const badFlag = await cli(["publish-entry", "--id", id, "--no-such-flag", "x"]);
    assert.equal(badFlag.code, 2);
    assert.equal(badFlag.stdout, "");

    const wrongToken = await cli(["get-site"], { SERVICE_MANAGEMENT_TOKEN: "dwm_not_a_real_token" });
    assert.equal(wrongToken.code, 2);
  });
});
