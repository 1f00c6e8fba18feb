#!/usr/bin/env node
// npm run dev:worker: the local D1 gets the migrations and data/ (once; --reset starts again), then
// `wrangler dev` serves the same routes on PORT (default 8788).
import { spawnSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { refuseDangling } from "./dangling.mjs";
import { putLocalPrivateFiles } from "./private-files.mjs";
import { dataSql } from "./sql-data.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const state = path.join(root, ".wrangler", "state");
const marker = path.join(root, ".wrangler", "data-loaded");
const port = process.env.PORT ?? "8788";
const wrangler = (args) => {
  const run = spawnSync("npx", ["wrangler", ...args], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
};
refuseDangling(root);
if (process.argv.includes("--reset")) rmSync(path.join(root, ".wrangler"), { recursive: true, force: true });
if (!existsSync(marker)) {
  wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
  mkdirSync(path.dirname(marker), { recursive: true });
  const file = path.join(root, ".wrangler", "data.sql");
  writeFileSync(file, dataSql(root));
  wrangler(["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file]);
  await putLocalPrivateFiles(root, state);
  writeFileSync(marker, new Date().toISOString());
}
const vars = ["ACCESS_CONFIG", "API_BEARER_TOKEN"].flatMap((name) => (process.env[name] !== undefined ? ["--var", `${name}:${process.env[name]}`] : []));
const child = spawn("npx", ["wrangler", "dev", "--ip", "127.0.0.1", "--port", port, "--persist-to", state, ...vars], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
