/**
 * The operators' command line against the real service (docs/ops-cli.md; issue 23 "Done when"):
 * `wrangler dev` with OPS_TOKEN, and only `cli/ops.mjs` (plus the site administrator's own API calls
 * and `cli/manage.mjs`) — no seed code for the new sites. Creates `shop` on shop.localhost with en+de,
 * invites its administrator, who accepts and writes a model and a published entry read through the
 * public API on shop.localhost; copies `demo` to a new site with a dry run first (several calls with
 * one key, progress on stderr); proposes a model to three sites; suspends and deletes a site. And
 * scripts/move-site.mjs (docs/scale.md, "Moving a site") on the same server: the seeded `other` site
 * moved to DB_2 and back, its public answers the same throughout (one `wrangler dev` with OPS_TOKEN
 * for both operator tools instead of one each: docs/testing.md, "Where the CPU goes").
 * Run: npm run test:e2e -- test/e2e/ops-cli.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8823;
const OPS_TOKEN = "e2e-ops-cli-token";
const URL_ADMIN = `http://admin.localhost:${PORT}`;
let server;

/** Runs a script of the repository (`cli/ops.mjs`, `cli/manage.mjs`, `scripts/move-site.mjs`) as a user would. */
function cli(script, args, env = {}, input) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [path.join(root, script), ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr, json: () => JSON.parse(stdout) });
    });
    if (input !== undefined) child.stdin.end(input);
  });
}
const moveScript = (args, env) => cli("scripts/move-site.mjs", args, env);
const ops = (args, env = { OPS_TOKEN }) => cli("cli/ops.mjs", [...args, "--url", URL_ADMIN, "--json"], env);

before(async () => {
  // Small shares, so the copy and the deletion of a seeded site take several calls (resumed by ops.mjs).
  server = await startDevServer({ port: PORT, vars: { OPS_TOKEN, OPS_COPY_STEP_ROWS: "120", OPS_DELETE_STEP_ROWS: "150" } });
});

after(() => server?.stop());

describe("ops.mjs against wrangler dev", () => {
  it("creates shop, invites its administrator who publishes an entry; copies demo after a dry run; proposes a model to three sites; suspends and deletes a site", async () => {
    const info = await ops(["get-service-info"]);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.json().version, /^\d+\.\d+\.\d+/);

    // Create shop (en+de) on shop.localhost; the same host again is host_taken (exit 1).
    const shopBody = JSON.stringify({ slug: "shop", name: "Shop", hosts: ["shop.localhost"], languages: ["en", "de"], default_lang: "en" });
    const created = await ops(["create-site", "--body", shopBody]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /Idempotency-Key: /);
    const shop = created.json();
    assert.deepEqual([shop.slug, shop.hosts, shop.languages], ["shop", ["shop.localhost"], ["en", "de"]]);
    const taken = await ops(["create-site", "--body", JSON.stringify({ slug: "shop-2", name: "Shop 2", hosts: ["shop.localhost"], languages: ["en"], default_lang: "en" })]);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /refused: 409 host_taken/);
    const noToken = await ops(["list-sites"], {});
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /set OPS_TOKEN/);

    // Invite the administrator; they accept (the People flow) and make a credential for the management API.
    const invited = await ops(["invite-site-administrator", "--id", "shop", "--email", "owner@shop.example"]);
    assert.equal(invited.code, 0, invited.stderr);
    const token = /#(dwi_[A-Za-z0-9_-]+)$/.exec(invited.json().link)?.[1];
    assert.ok(token, invited.stdout);
    const accepted = await request(PORT, { method: "POST", host: `admin.localhost:${PORT}`, path: "/api/invitations/accept", body: { token, name: "Shop Owner", password: "a long enough password" } });
    assert.equal(accepted.status, 200, accepted.text);
    const cookie = /dw_session=[^;]+/.exec(String(accepted.headers["set-cookie"]))?.[0];
    const csrf = JSON.parse(accepted.text).csrf_token;
    const made = await request(PORT, {
      method: "POST",
      host: `admin.localhost:${PORT}`,
      path: "/api/management-credentials",
      headers: { cookie, "x-csrf-token": csrf, "x-site-id": shop.id },
      body: { name: "setup", scopes: ["content:read", "content:write", "schema:write", "lifecycle:publish"] },
    });
    assert.equal(made.status, 201, made.text);
    const manageEnv = { SERVICE_MANAGEMENT_TOKEN: JSON.parse(made.text).token };
    const manage = (args) => cli("cli/manage.mjs", [...args, "--url", `http://127.0.0.1:${PORT}`, "--json"], manageEnv);
    const model = await manage(["create-model", "--body", JSON.stringify({ definition: { model: { name: "Page", slug: "page", enableI18n: true }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] } })]);
    assert.equal(model.code, 0, model.stderr + model.stdout);
    const modelId = model.json().model_id ?? model.json().id;
    const entry = await manage(["create-entry", "--body", JSON.stringify({ model_id: modelId, fields: { title: "Opening day" } })]);
    assert.equal(entry.code, 0, entry.stderr + entry.stdout);
    const published = await manage(["publish-entry", "--id", entry.json().instance_id]);
    assert.equal(published.code, 0, published.stderr + published.stdout);
    const read = await request(PORT, { host: "shop.localhost", path: "/v1/page?limit=5" });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(JSON.parse(read.text).data.map((p) => p.fields.title), ["Opening day"]);

    // Copy demo: a dry run first (nothing written), then the copy, resumed by ops.mjs with one key.
    const copyBody = JSON.stringify({ to: { slug: "demo-copy", name: "Demo copy", hosts: ["demo-copy.localhost"] }, content: true });
    const dry = await ops(["copy-site", "--id", "demo", "--body", copyBody, "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual(dry.json().blocked_by, []);
    assert.ok(dry.json().would_copy.rows.entries > 0);
    assert.equal((await ops(["get-site", "--id", "demo-copy"])).code, 1);
    const copied = await ops(["copy-site", "--id", "demo", "--body", copyBody]);
    assert.equal(copied.code, 0, copied.stderr);
    assert.match(copied.stderr, /copy-site: running: \d+ rows/);
    assert.equal(copied.json().state, "done");
    const demoArticles = JSON.parse((await request(PORT, { host: "demo.localhost", path: "/v1/article?limit=3" })).text).data.map((a) => a.slug);
    const copyArticles = await request(PORT, { host: "demo-copy.localhost", path: "/v1/article?limit=3" });
    assert.equal(copyArticles.status, 200, copyArticles.text);
    assert.deepEqual(JSON.parse(copyArticles.text).data.map((a) => a.slug), demoArticles);

    // One model proposed to three sites; shop's administrator could apply it as any proposal.
    const proposal = await ops(["propose-model-to-sites", "--body", JSON.stringify({ sites: ["shop", "demo", "demo-copy"], definition: { model: { name: "Notice", slug: "notice" }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } })]);
    assert.equal(proposal.code, 0, proposal.stderr);
    assert.deepEqual(proposal.json().data.map((r) => [r.slug, r.mode]), [["shop", "create"], ["demo", "create"], ["demo-copy", "create"]]);
    const report = await ops(["fleet-model-proposals", "--model", "notice"]);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(report.json().data.filter((r) => r.open === 1).length, 3);

    // Suspend and delete the copy: refusals first, then the deletion (several calls), then nothing left.
    const early = await ops(["delete-site", "--id", "demo-copy", "--confirm", "demo-copy"]);
    assert.equal(early.code, 1);
    assert.match(early.stderr, /409 site_not_suspended/);
    assert.equal((await ops(["suspend-site", "--id", "demo-copy"])).code, 0);
    const wrong = await ops(["delete-site", "--id", "demo-copy", "--confirm", "demo"]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /422 confirm_mismatch/);
    const deleted = await ops(["delete-site", "--id", "demo-copy", "--confirm", "demo-copy", "--key", "e2e-delete-demo-copy"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stderr, /delete-site: running: \d+ rows/);
    const receipt = deleted.json();
    assert.equal(receipt.state, "done");
    assert.ok(receipt.rows.entries > 0 && receipt.objects >= 0);
    const again = await ops(["delete-site", "--id", "demo-copy", "--confirm", "demo-copy", "--key", "e2e-delete-demo-copy"]);
    assert.equal(again.code, 0);
    assert.equal(again.json().replayed, true);
    // A host's site is cached by each isolate for CONFIG_CACHE_MS (5 s, shared/public/config-cache.ts): gone within it.
    let gone = 0;
    for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
      gone = (await request(PORT, { host: "demo-copy.localhost", path: "/health" })).status;
      if (gone === 404) break;
    }
    assert.equal(gone, 404);
    assert.equal((await ops(["get-site", "--id", "demo-copy"])).code, 1);
    // The template and the other sites are untouched.
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/health" })).status, 200);
    assert.equal((await request(PORT, { host: "shop.localhost", path: "/v1/page?limit=5" })).status, 200);
  });
});

describe("scripts/move-site.mjs against wrangler dev", () => {
  /** The `other` site's published articles, as its public API lists them. */
  async function articles(host) {
    const res = await request(PORT, { host, path: "/v1/article?limit=50" });
    assert.equal(res.status, 200, res.text);
    return JSON.parse(res.text).data.map((a) => `${a.slug}:${a.fields.title}`).sort();
  }

  it("moves the other site to DB_2 and back; its public answers stay the same", async () => {
    const other = server.info.sites.find((s) => s.slug === "other");
    const before = await articles(other.host);
    assert.ok(before.length >= 5);

    const there = await moveScript(["--site", other.id, "--to", "DB_2", "--url", URL_ADMIN], { OPS_TOKEN });
    assert.equal(there.code, 0, there.stderr);
    const answer = there.json();
    assert.deepEqual([answer.from, answer.to, answer.moved], ["DB", "DB_2", true]);
    assert.ok(answer.rows.published_items >= 5);
    assert.deepEqual(await articles(other.host), before);
    // The demo site stayed where it was.
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/health" })).status, 200);

    const refused = await moveScript(["--site", other.id, "--to", "DB_9", "--url", URL_ADMIN], { OPS_TOKEN });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /422 unknown_database/);
    const wrongToken = await moveScript(["--site", other.id, "--to", "DB", "--url", URL_ADMIN], { OPS_TOKEN: "nope" });
    assert.equal(wrongToken.code, 1);
    assert.match(wrongToken.stderr, /401 unauthorized/);

    const back = await moveScript(["--site", other.id, "--to", "DB", "--url", URL_ADMIN], { OPS_TOKEN });
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(back.json().to, "DB");
    assert.deepEqual(await articles(other.host), before);
  });
});
