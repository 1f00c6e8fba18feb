// npm test: the project's own smoke tests — a fresh database from data/, the local server on a
// free port, the OpenAPI description and every model's findMany with the service token.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schema = JSON.parse(readFileSync(path.join(root, "schema.json"), "utf8"));
const token = "smoke-test-service-token";
const port = String(20000 + Math.floor(Math.random() * 20000));
const env = {
  ...process.env,
  PORT: port,
  DATABASE_FILE: path.join(mkdtempSync(path.join(tmpdir(), "backend-smoke-")), "site.db"),
  API_BEARER_TOKEN: token,
  ACCESS_CONFIG: JSON.stringify({ version: 1, site: schema.site.id, tokens: [] }),
};

test("db:init, start, openapi.json and each model's rows", async (t) => {
  const init = spawnSync(process.execPath, ["scripts/db-init.mjs"], { cwd: root, env, encoding: "utf8" });
  assert.equal(init.status, 0, init.stderr);
  const server = spawn(process.execPath, ["dist/src/node/server.js"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  t.after(() => server.kill());
  await new Promise((resolve, reject) => {
    server.stdout.on("data", (chunk) => String(chunk).includes("listening") && resolve(undefined));
    server.on("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  const get = (p) => fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Bearer ${token}` } });
  const openapi = await get("/api/openapi.json");
  assert.equal(openapi.status, 200);
  assert.equal((await openapi.json()).openapi, "3.1.0");
  for (const model of schema.models) {
    const answer = await get(`/api/${model.api}?take=1`);
    assert.equal(answer.status, 200, model.api);
    assert.ok(Array.isArray(await answer.json()));
  }
});
