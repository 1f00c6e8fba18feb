/**
 * The worker built once for a whole end-to-end run, and a `wrangler dev` configuration that serves
 * it without building or watching anything in the repository (docs/testing.md, "One build per run").
 *
 * `wrangler dev` on wrangler.jsonc bundles the worker with esbuild at every start and then watches
 * its inputs: every imported source file (esbuild's watch mode), wrangler.jsonc and the assets
 * directory admin/dist. Any of those written while a test's server runs reloads the worker, and a
 * request in flight at that moment fails with "Your worker restarted mid-request" — a test of
 * another lane (test/node/deploy.test.mjs rebuilds admin/dist, for one) was enough. The prepared
 * directory holds the bundle (`wrangler deploy --dry-run --outdir`), a copy of admin/dist and a
 * configuration with `no_bundle`, so a server started on it reads only files no one writes; and the
 * bundling is paid once per run instead of once per server start. The bundle is the deploy build
 * (what production runs) under the one wrapper of `wrangler dev`'s local build that changes what a
 * client sees: a request body the worker left unread is read to its end before the answer goes
 * (templates/middleware/middleware-ensure-req-body-drained.ts) — without it the local proxy's
 * connection is left half-read and the next request on it waits about a minute (workers-sdk 15709).
 * The other wrapper only dresses an uncaught exception's page.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { root } from "./load-ts.mjs";

const require = createRequire(import.meta.url);
const wranglerBin = path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");

/** The environment variable naming a prepared worker directory (scripts/test-e2e.mjs sets it). */
export const PREBUILT_WORKER_VARIABLE = "DRIFTWOOD_E2E_WORKER";
/** The configuration file inside a prepared directory. */
export const PREBUILT_CONFIG = "wrangler.json";

/** The entry `wrangler dev` starts: the bundle's exports, its fetch wrapped as a local build wraps it. */
const DEV_ENTRY = "dev-entry.js";
const DEV_ENTRY_SOURCE = `// Written by scripts/lib/prebuilt-worker.mjs: the deploy bundle with wrangler dev's body draining.
import worker from "./index.js";
export * from "./index.js";
export default {
  ...worker,
  async fetch(request, env, ctx) {
    try {
      return await worker.fetch(request, env, ctx);
    } finally {
      try {
        if (request.body !== null && !request.bodyUsed) {
          const reader = request.body.getReader();
          while (!(await reader.read()).done) {}
        }
      } catch (error) {
        console.error("Failed to drain the unused request body.", error);
      }
    }
  },
};
`;

/** Whether `dir` holds a prepared worker (its configuration is written last). */
export const isPrebuiltWorker = (dir) => Boolean(dir) && existsSync(path.join(dir, PREBUILT_CONFIG));

/**
 * Builds the worker into `dir` and writes the configuration to serve it. The admin UI must be built
 * (admin/dist): its files are copied as they are now. Returns the configuration's path.
 */
export async function prepareWorker(dir) {
  mkdirSync(dir, { recursive: true });
  const bundle = path.join(dir, "bundle");
  // wrangler's own bundling (the same as `wrangler dev` does at every start: rules, nodejs_compat).
  const built = spawnSync(process.execPath, [wranglerBin, "deploy", "--dry-run", "--outdir", bundle, "--config", path.join(root, "wrangler.jsonc")], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CLOUDFLARE_API_TOKEN: "" },
  });
  if (built.status !== 0) throw new Error(`bundling the worker failed (exit ${built.status ?? built.signal}): ${(built.stderr + built.stdout).slice(-8000)}`);
  writeFileSync(path.join(bundle, DEV_ENTRY), DEV_ENTRY_SOURCE);
  cpSync(path.join(root, "admin", "dist"), path.join(dir, "assets"), { recursive: true });
  const { experimental_readRawConfig } = await import("wrangler");
  const { $schema: _schema, main: _main, rules: _rules, ...raw } = experimental_readRawConfig({ config: path.join(root, "wrangler.jsonc") }).rawConfig;
  const config = {
    ...raw,
    main: `bundle/${DEV_ENTRY}`,
    no_bundle: true,
    // The bundle imports the text modules wrangler's rules made of the .sql files and the generated
    // command line under content-hashed names (`<hash>-manage.mjs`): text again, not JavaScript.
    rules: [
      { type: "Text", globs: ["**/*.sql", "**/*-manage.mjs"], fallthrough: false },
      { type: "ESModule", globs: ["**/*.js"] },
    ],
    assets: { ...raw.assets, directory: "assets" },
    d1_databases: raw.d1_databases.map((d) => ({ ...d, migrations_dir: path.join(root, d.migrations_dir) })),
  };
  const configPath = path.join(dir, PREBUILT_CONFIG);
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  return configPath;
}
