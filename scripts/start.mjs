#!/usr/bin/env node
/**
 * npm start: seed the local database (migrations first; idempotent), print the addresses, the
 * admin login and a few curl examples, start the demo plugin (examples/plugin/server.mjs on
 * 127.0.0.1:8789) as a child, then run `wrangler dev` on 127.0.0.1:8787 in the foreground.
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

/** Where the seeded demo plugin's endpoint points (scripts/seed/plugin.ts DEMO_PLUGIN_PORT). */
const DEMO_PLUGIN_PORT = 8789;

/**
 * Starts the example plugin with the seed's token and event secret; it stops with us (we signal
 * it on every way out). Its log lines go to our stderr, prefixed.
 */
function startDemoPlugin(info) {
  const plugin = spawn(process.execPath, [path.join(root, "examples", "plugin", "server.mjs")], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DRIFTWOOD_URL: `http://${HOST}:${PORT}`, PLUGIN_TOKEN: info.plugin_token, PLUGIN_EVENT_SECRET: info.plugin_event_secret, PORT: String(DEMO_PLUGIN_PORT) },
  });
  plugin.on("error", (error) => process.stderr.write(`could not start the demo plugin: ${error.message}\n`));
  plugin.on("exit", (code, signal) => {
    if (code !== 0 && signal !== "SIGTERM") process.stderr.write(`the demo plugin stopped (${signal ?? `exit ${code}`}); the demo's saves are refused until it runs again\n`);
  });
  process.on("exit", () => {
    if (plugin.exitCode === null && plugin.signalCode === null) plugin.kill("SIGTERM");
  });
  return plugin;
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
  // The demo plugin (examples/plugin/server.mjs) as our child: its content policies are asked before
  // every write of the demo's content, so without it the demo's saves would be refused (503).
  const plugin = startDemoPlugin(info);
  const child = spawn(process.execPath, [wranglerBin, "dev", "--ip", HOST, "--port", String(PORT), ...vars], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? "false" },
  });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    if (plugin.exitCode === null && plugin.signalCode === null) plugin.kill("SIGTERM");
  };
  process.on("SIGINT", () => forward("SIGINT"));
  process.on("SIGTERM", () => forward("SIGTERM"));
  child.on("error", (error) => {
    process.stderr.write(`could not start wrangler dev: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (plugin.exitCode === null && plugin.signalCode === null) plugin.kill("SIGTERM");
    process.exit(code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1));
  });
}

main().catch((error) => {
  process.stderr.write(`npm start failed: ${error.message}\n`);
  process.exit(1);
});
