/**
 * scripts/move-site.mjs (docs/scale.md, "Moving a site") against a local HTTP listener standing in
 * for the admin host: what it sends (path, Host, token from the environment, body), what it prints
 * and its exit codes. The move itself runs in workerd: test/integration/site-move.test.ts.
 * Run: node --test test/node/move-site.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { root } from "../../scripts/lib/load-ts.mjs";

const SCRIPT = path.join(root, "scripts", "move-site.mjs");

function run(args, env = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** Requests the listener got, and what it answers next. */
const seen = [];
let answer = { status: 200, body: {} };
let server;
let port;

before(async () => {
  server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
});

after(() => new Promise((resolve) => server.close(resolve)));

describe("scripts/move-site.mjs", () => {
  it("posts the binding to the site's ops route on the admin host, with OPS_TOKEN, and prints the answer", async () => {
    seen.length = 0;
    answer = { status: 200, body: { site_id: "site_abc", from: "DB", to: "DB_2", moved: true, rows: { entries: 3 } } };
    const result = await run(["--site", "site_abc", "--to", "DB_2", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(seen.length, 1);
    const [request] = seen;
    assert.equal(request.method, "POST");
    assert.equal(request.url, "/api/ops/sites/site_abc/database");
    // *.localhost is reached on 127.0.0.1 with its own Host header.
    assert.equal(request.headers.host, `admin.localhost:${port}`);
    assert.equal(request.headers.authorization, "Bearer s3cret");
    assert.equal(request.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(request.body), { binding: "DB_2" });
    assert.deepEqual(JSON.parse(result.stdout), answer.body);
    assert.match(result.stderr, /Moved site_abc from DB to DB_2/);
    assert.ok(!result.stdout.includes("s3cret") && !result.stderr.includes("s3cret"));
  });

  it("says so when the site already lives there", async () => {
    answer = { status: 200, body: { site_id: "site_abc", from: "DB_2", to: "DB_2", moved: false, rows: {} } };
    const result = await run(["--site", "site_abc", "--to", "DB_2", "--url", `http://127.0.0.1:${port}/`], { OPS_TOKEN: "s3cret" });
    assert.equal(result.code, 0);
    assert.match(result.stderr, /already lives in DB_2/);
  });

  it("exits 1 with the service's code when it refuses, and on an answer that is not JSON", async () => {
    answer = { status: 422, body: { error: { code: "unknown_database", message: 'No site database is bound as "DB_9".' } } };
    const refused = await run(["--site", "site_abc", "--to", "DB_9", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /422 unknown_database/);
    answer = { status: 502, body: "<html>bad gateway</html>" };
    const garbage = await run(["--site", "site_abc", "--to", "DB_2", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" });
    assert.equal(garbage.code, 1);
    assert.match(garbage.stderr, /502 not_json/);
  });

  it("escapes a hostile site id into one path segment", async () => {
    seen.length = 0;
    answer = { status: 404, body: { error: { code: "not_found", message: "No such site." } } };
    const result = await run(["--site", "../../session?x=1#y", "--to", "DB_2", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" });
    assert.equal(result.code, 1);
    assert.equal(seen[0]?.url, "/api/ops/sites/..%2F..%2Fsession%3Fx%3D1%23y/database");
  });

  it("exits 2 without sending anything on usage errors: no OPS_TOKEN, no --site, no --to, a bad --url, an unknown flag", async () => {
    seen.length = 0;
    const cases = [
      [["--site", "site_abc", "--to", "DB_2", "--url", `http://admin.localhost:${port}`], {}],
      [["--to", "DB_2", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" }],
      [["--site", "site_abc", "--url", `http://admin.localhost:${port}`], { OPS_TOKEN: "s3cret" }],
      [["--site", "site_abc", "--to", "DB_2", "--url", "not a url"], { OPS_TOKEN: "s3cret" }],
      [["--site", "site_abc", "--to", "DB_2", "--url", "file:///etc/passwd"], { OPS_TOKEN: "s3cret" }],
      [["--site", "site_abc", "--to", "DB_2", "--token", "x"], { OPS_TOKEN: "s3cret" }],
    ];
    for (const [args, env] of cases) {
      const result = await run(args, env);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, /usage:/);
    }
    assert.equal(seen.length, 0);
  });
});
