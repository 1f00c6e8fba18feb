/**
 * Helpers for scripts that run project code inside workerd on Miniflare's API (npm run seed,
 * npm run bench): the bindings as wrangler reads them from wrangler.jsonc, and an esbuild bundle
 * of a worker entry that Miniflare can take as its `script`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { root } from "./load-ts.mjs";

/** The bindings as wrangler itself reads them, so scripts see the ids and vars `wrangler dev` uses. */
export async function readBindings() {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: path.join(root, "wrangler.jsonc") }, { hideWarnings: true });
  const d1 = config.d1_databases.find((d) => d.binding === "DB");
  if (!d1) throw new Error("wrangler.jsonc has no D1 binding DB");
  const r2 = config.r2_buckets.find((b) => b.binding === "MEDIA");
  return {
    // wrangler dev (d1DatabaseEntry) and `wrangler d1 execute --local` key local D1 by preview_database_id ?? database_id.
    d1Id: d1.preview_database_id ?? d1.database_id ?? d1.binding,
    /**
     * Every D1 binding (`DB` is the control database; each site database has its own binding,
     * docs/scale.md "More than one database"): binding → local id, for Miniflare's `d1Databases`.
     */
    d1Databases: Object.fromEntries(config.d1_databases.map((d) => [d.binding, d.preview_database_id ?? d.database_id ?? d.binding])),
    /** Where the D1 migrations live, relative to the repository root. */
    d1MigrationsDir: d1.migrations_dir ?? "migrations",
    r2Bucket: r2 ? (r2.bucket_name ?? r2.binding) : undefined,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    adminHost: String(config.vars?.ADMIN_HOST ?? "admin.localhost"),
    /** Plain-text vars, as strings. */
    vars: Object.fromEntries(Object.entries(config.vars ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
    durableObjects: config.durable_objects?.bindings ?? [],
    /** Class names the config's migrations declare with SQLite storage. */
    sqliteClasses: (config.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []),
    queueProducers: config.queues?.producers ?? [],
  };
}

/**
 * Bundles a worker entry (TypeScript) into one ES module for workerd: `cloudflare:*` and `node:*`
 * imports stay external (the runtime provides them); `.sql` files and the generated `cli/manage.mjs`
 * are text, as wrangler.jsonc's rules say.
 */
/** Files matching `filter` are imported as their text (wrangler's `Text` rule), whatever their extension. */
function textModules(filter) {
  return {
    name: "text-modules",
    setup(build) {
      build.onLoad({ filter }, async (args) => ({ contents: await readFile(args.path, "utf8"), loader: "text" }));
    },
  };
}

export async function bundleWorker(entry) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.resolve(root, entry)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    external: ["cloudflare:*", "node:*"],
    loader: { ".sql": "text" },
    plugins: [textModules(/[\\/]cli[\\/]manage\.mjs$/)],
    logLevel: "silent",
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no output");
  return file.text;
}
