/**
 * Moving a site between databases on the real service (docs/scale.md, "Moving a site"): `wrangler
 * dev` on a fresh seeded state whose two local D1 databases got every migration from the seed,
 * with OPS_TOKEN set; scripts/move-site.mjs moves the demo's `other` site to DB_2 and back, and its
 * public API answers the same throughout.
 * Run: node --test test/e2e/move-site.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const PORT = 8801;
const OPS_TOKEN = "e2e-ops-token";
let server;

function moveScript(args, env) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "scripts", "move-site.mjs"), ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

async function articles(host) {
  const res = await request(PORT, { host, path: "/v1/article?limit=50" });
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text).data.map((a) => `${a.slug}:${a.fields.title}`).sort();
}

before(async () => {
  server = await startDevServer({ port: PORT, vars: { OPS_TOKEN } });
});

after(() => server?.stop());

describe("scripts/move-site.mjs against wrangler dev", () => {
  it("moves the other site to DB_2 and back; its public answers stay the same", async () => {
    const other = server.info.sites.find((s) => s.slug === "other");
    const url = `http://admin.localhost:${PORT}`;
    const before = await articles(other.host);
    assert.ok(before.length >= 5);

    const there = await moveScript(["--site", other.id, "--to", "DB_2", "--url", url], { OPS_TOKEN });
    assert.equal(there.code, 0, there.stderr);
    const answer = JSON.parse(there.stdout);
    assert.deepEqual([answer.from, answer.to, answer.moved], ["DB", "DB_2", true]);
    assert.ok(answer.rows.published_items >= 5);
    assert.deepEqual(await articles(other.host), before);
    // The demo site stayed where it was.
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/health" })).status, 200);

    const refused = await moveScript(["--site", other.id, "--to", "DB_9", "--url", url], { OPS_TOKEN });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /422 unknown_database/);
    const wrongToken = await moveScript(["--site", other.id, "--to", "DB", "--url", url], { OPS_TOKEN: "nope" });
    assert.equal(wrongToken.code, 1);
    assert.match(wrongToken.stderr, /401 unauthorized/);

    const back = await moveScript(["--site", other.id, "--to", "DB", "--url", url], { OPS_TOKEN });
    assert.equal(back.code, 0, back.stderr);
    assert.deepEqual(JSON.parse(back.stdout).to, "DB");
    assert.deepEqual(await articles(other.host), before);
  });
});
