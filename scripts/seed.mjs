#!/usr/bin/env node
/**
 * npm run seed [-- --json]
 *
 * Seeds the LOCAL database that `wrangler dev` uses (.wrangler/state/v3), idempotently:
 *   1. applies the local D1 migrations to every D1 binding (wrangler d1 migrations apply DB / DB_2 --local);
 *   2. bundles scripts/seed/seed-worker.ts with esbuild and runs it on Miniflare, with D1 and R2
 *      bindings persisted exactly where `wrangler dev` keeps them (same ids, same folders);
 *   3. prints a short summary, or with --json exactly one JSON object on stdout (all else on stderr).
 *
 * When site `demo` already exists nothing is written; the same ids are read back and printed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorker, readBindings } from "./lib/worker-build.mjs";
import { localOpsToken } from "./lib/local-ops-token.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const json = process.argv.includes("--json");
/** `--persist-to DIR` and `--port N`: seed another dev state (end-to-end tests run their own). */
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const PORT = Number(option("--port") ?? 8787);
/** Where `wrangler dev` persists local state by default (its --persist-to is .wrangler/state). */
const persistTo = path.resolve(root, option("--persist-to") ?? path.join(".wrangler", "state"));
const persistRoot = path.join(persistTo, "v3");
/** The demo's shown-once secrets, kept beside the local state so every run prints the same ones. */
const secretsFile = path.join(persistTo, "driftwood-demo-credentials.json");

/** Everything but the --json answer goes to stderr. */
const say = (line = "") => process.stderr.write(`${line}\n`);

const require = createRequire(import.meta.url);
const wranglerBin = path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/**
 * Every D1 binding gets every migration: the control database and each site database (docs/scale.md).
 * wrangler prints a table of every migration for each one it applies (about 1 MB for two databases
 * at 48 migrations, growing with each new one), so its output is kept and shown only when it fails;
 * a line per database says what was done. (Passed through, it once outgrew the 1 MiB a parent's
 * `spawnSync` buffers by default and the seed was killed mid-migration: scripts/lib/dev-server.mjs.)
 */
function applyMigrations(bindings) {
  for (const binding of Object.keys(bindings.d1Databases)) {
    say(`Applying local D1 migrations to ${binding}…`);
    const result = spawnSync(process.execPath, [wranglerBin, "d1", "migrations", "apply", binding, "--local", "--persist-to", persistTo], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      // stdin closed and CI set: wrangler answers its confirmation prompt itself ("fallback value: yes").
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: process.env.NO_COLOR ?? "1" },
    });
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
    if (result.status !== 0) {
      say(output.split("\n").filter((line) => !/^[│├└┌]/.test(line)).slice(-60).join("\n"));
      throw new Error(`wrangler d1 migrations apply ${binding} failed (exit ${result.status ?? result.signal})`);
    }
    const applied = (output.match(/commands executed successfully/g) ?? []).length;
    say(`  ${binding}: ${applied === 0 ? "already up to date" : `${applied} migration(s) applied`}.`);
  }
}

async function runSeed(script, bindings) {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: bindings.compatibilityDate,
    compatibilityFlags: bindings.compatibilityFlags,
    d1Databases: bindings.d1Databases,
    d1Persist: path.join(persistRoot, "d1"),
    ...(bindings.r2Bucket ? { r2Buckets: { MEDIA: bindings.r2Bucket }, r2Persist: path.join(persistRoot, "r2") } : {}),
    // Keep stdout for the --json answer: whatever workerd prints goes to stderr.
    handleRuntimeStdio(stdout, stderr) {
      stdout.pipe(process.stderr);
      stderr.pipe(process.stderr);
    },
  });
  try {
    const known = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, "utf8")) : {};
    const response = await mf.dispatchFetch("http://seed.internal/", { method: "POST", body: JSON.stringify(known) });
    const body = await response.json();
    if (!response.ok) {
      const error = new Error(body.error ?? `seed worker answered ${response.status}`);
      error.details = body;
      throw error;
    }
    return body;
  } finally {
    await mf.dispose();
  }
}

function summary(result, bindings) {
  const demo = result.sites.find((s) => s.slug === "demo");
  return {
    base_url: `http://${demo?.host ?? "demo.localhost"}:${PORT}`,
    admin_url: `http://${bindings.adminHost}:${PORT}`,
    sites: result.sites.map(({ id, slug, host, default_lang, languages }) => ({ id, slug, host, default_lang, languages })),
    admin: { email: result.admin.email, password: result.admin.password },
    // A second person (Editor on demo only), for two-person work such as editing leases.
    editor: { email: result.editor.email, password: result.editor.password },
    // A person flagged superadmin and member of no site: the admin's Sites screens (operators).
    superadmin: { email: result.superadmin.email, password: result.superadmin.password },
    ...result.credentials,
    // The local operators' token (`npm start` passes it as OPS_TOKEN): Bearer for /api/ops on the admin host.
    ops_token: localOpsToken(persistTo),
  };
}

async function main() {
  if (!existsSync(path.join(root, "wrangler.jsonc"))) throw new Error(`no wrangler.jsonc in ${root}`);
  const bindings = await readBindings();
  applyMigrations(bindings);
  say("Seeding the demo…");
  const result = await runSeed(await bundleWorker("scripts/seed/seed-worker.ts"), bindings);
  for (const line of result.log) say(`  ${line}`);
  mkdirSync(persistTo, { recursive: true });
  writeFileSync(secretsFile, `${JSON.stringify(result.credentials, null, 2)}\n`, { mode: 0o600 });
  const out = summary(result, bindings);
  if (json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const c = result.counts;
  const print = (line = "") => process.stdout.write(`${line}\n`);
  print(result.created ? "Demo seeded." : "Demo already seeded (nothing written).");
  for (const site of out.sites) print(`  ${site.slug.padEnd(6)} http://${site.host}:${PORT}  ${site.id}  languages ${site.languages.join(", ")} (default ${site.default_lang})`);
  print(`  admin  ${out.admin_url}  ${out.admin.email} / ${out.admin.password}`);
  print(`  editor (demo only)  ${out.editor.email} / ${out.editor.password}`);
  print(`  superadmin (Sites)  ${out.superadmin.email} / ${out.superadmin.password}`);
  print(
    `  demo:  ${Object.entries(c.published_articles).map(([l, n]) => `${n} published ${l}`).join(", ")} articles, ` +
      `${c.drafts} drafts, ${c.unpublished} unpublished, ${c.trashed} in Trash; ` +
      `${c.authors} authors, ${c.categories.en ?? 0} categories, ${c.notes} private notes, ${c.media} media files`,
  );
  print(`  other: ${c.other_published_articles} published articles`);
}

main().catch((error) => {
  say(`seed failed: ${error.message}`);
  if (error.details?.stack) say(error.details.stack);
  if (error.details?.details) say(JSON.stringify(error.details.details, null, 2));
  process.exit(1);
});
