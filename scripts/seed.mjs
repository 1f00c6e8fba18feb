#!/usr/bin/env node
/**
 * npm run seed [-- --json]
 *
 * Seeds the LOCAL database that `wrangler dev` uses (.wrangler/state/v3), idempotently:
 *   1. applies the local D1 migrations to every D1 binding (as `wrangler d1 migrations apply DB / DB_2
 *      --local` would, in one Miniflare: applyMigrations);
 *   2. bundles scripts/seed/seed-worker.ts with esbuild and runs it on Miniflare, with D1 and R2
 *      bindings persisted exactly where `wrangler dev` keeps them (same ids, same folders);
 *   3. prints a short summary, or with --json exactly one JSON object on stdout (all else on stderr).
 *
 * When site `demo` already exists nothing is written; the same ids are read back and printed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * Every D1 binding gets every migration: the control database and each site database (docs/scale.md).
 * What `wrangler d1 migrations apply <binding> --local` does, in one Miniflare for all of them: the
 * same `d1_migrations` table, the migrations not in it in name order, each one's statements (split
 * by wrangler's own splitter) and its row in the table in one batch — so `wrangler d1 migrations
 * list/apply` later sees them applied. wrangler itself starts a new Miniflare (a workerd process)
 * for every migration: at 48 migrations × 2 databases that was about a minute of CPU per seed on a
 * 2-core machine, paid by every `npm test` (docs/testing.md).
 */
async function applyMigrations(bindings) {
  const [{ Miniflare }, { unstable_splitSqlQuery: splitSqlQuery }] = await Promise.all([import("miniflare"), import("wrangler")]);
  const dir = path.join(root, bindings.d1MigrationsDir);
  const names = readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const mf = new Miniflare({ modules: true, script: "", d1Persist: path.join(persistRoot, "d1"), d1Databases: bindings.d1Databases });
  try {
    for (const binding of Object.keys(bindings.d1Databases)) {
      const db = await mf.getD1Database(binding);
      // wrangler's own statement, to the character (its text is what sqlite_master keeps).
      await db.prepare("CREATE TABLE IF NOT EXISTS d1_migrations(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);").run();
      const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((row) => row.name));
      const missing = names.filter((name) => !applied.has(name));
      for (const name of missing) {
        const sql = `${readFileSync(path.join(dir, name), "utf8")}\nINSERT INTO d1_migrations (name) values ('${name.replaceAll("'", "''")}');\n`;
        try {
          await db.batch(splitSqlQuery(sql).map((query) => db.prepare(query)));
        } catch (error) {
          throw new Error(`migration ${name} failed on ${binding}: ${error?.cause?.message ?? error?.message ?? error}`);
        }
      }
      say(`  ${binding}: ${missing.length === 0 ? "already up to date" : `${missing.length} migration(s) applied`}.`);
    }
  } finally {
    await mf.dispose();
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
  say("Applying local D1 migrations…");
  await applyMigrations(bindings);
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
