#!/usr/bin/env node
/**
 * npm start: seed the local database (migrations first; idempotent), print the addresses, the
 * admin login and a few curl examples, then run `wrangler dev` on 127.0.0.1:8787 in the foreground.
 * SIGINT and SIGTERM are passed on to wrangler; its exit status becomes ours.
 *
 * wrangler dev spawns workerd and esbuild children: to stop everything from a script, start this
 * in its own process group (setsid) and signal the group.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildAdmin } from "./build-admin.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HOST = "127.0.0.1";
const PORT = 8787;
const require = createRequire(import.meta.url);
const wranglerBin = path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/** Runs the seed with --json: its progress streams to our stderr, its answer is parsed. */
function seed() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "scripts", "seed.mjs"), "--json"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code !== 0) return reject(new Error(`seed failed (${signal ?? `exit ${code}`})`));
      try {
        resolve(JSON.parse(out));
      } catch (error) {
        reject(new Error(`seed printed no JSON: ${error.message}`));
      }
    });
  });
}

function banner(info) {
  const demo = info.sites.find((s) => s.slug === "demo");
  const url = (host) => `http://${host}:${PORT}`;
  const lines = [
    "",
    "Driftwood is starting on " + `http://${HOST}:${PORT}`,
    "",
    ...info.sites.map((s) => `  ${s.slug.padEnd(7)}${url(s.host).padEnd(32)}${s.id}  (${s.languages.join(", ")})`),
    `  ${"admin".padEnd(7)}${info.admin_url}`,
    "",
    `  Admin login: ${info.admin.email} / ${info.admin.password}`,
    `  Operators:   curl -s -H 'Authorization: Bearer ${info.ops_token}' ${info.admin_url}/api/ops/sites`,
    "",
    "  Try:",
    `    curl -s ${info.base_url}/health`,
    `    curl -s ${info.base_url}/v1/article`,
    `    curl -s '${info.base_url}/v1/article/reading-the-tide-tables?locale=fr'`,
    `    curl -s ${url(info.sites.find((s) => s.slug === "other")?.host ?? "other.localhost")}/v1/article/reading-the-tide-tables`,
    `    curl -s -H 'Host: ${demo?.host ?? "demo.localhost"}' http://${HOST}:${PORT}/health   # when *.localhost does not resolve`,
    "",
    "  (*.localhost resolves to loopback in curl and Chromium; Node's resolver does not.)",
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

async function main() {
  // The admin UI is served from admin/dist (wrangler.jsonc assets): build it before wrangler starts.
  await buildAdmin();
  const info = await seed();
  banner(info);
  // Local development only: the seeded demo plugin runs on 127.0.0.1 (docs/outbound-addresses.md).
  // wrangler.jsonc never sets this, so a deployment refuses loopback. OPS_TOKEN: the local
  // operators' token the seed printed (scripts/lib/local-ops-token.mjs); a deployment sets a secret.
  const vars = ["--var", "OUTBOUND_ALLOW_LOOPBACK:true", "--var", "UNREAD_BODY_DRAIN_BYTES:134217728", "--var", `OPS_TOKEN:${info.ops_token}`];
  const child = spawn(process.execPath, [wranglerBin, "dev", "--ip", HOST, "--port", String(PORT), ...vars], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? "false" },
  });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on("SIGINT", () => forward("SIGINT"));
  process.on("SIGTERM", () => forward("SIGTERM"));
  child.on("error", (error) => {
    process.stderr.write(`could not start wrangler dev: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    process.exit(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
  });
}

main().catch((error) => {
  process.stderr.write(`npm start failed: ${error.message}\n`);
  process.exit(1);
});
