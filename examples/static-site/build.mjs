#!/usr/bin/env node
/**
 * A static-site build that mirrors a Driftwood site with the generated public client's `sync()`
 * (docs/sync.md). The first run takes the full snapshot; every later run applies exactly the
 * changes since the last one, rewriting only the pages they touch.
 *
 *   1. Download the client: GET {admin}/api/models/public-client.ts (Content → Public client), and
 *      compile it to JavaScript (for example `npx esbuild client.ts --format=esm --outfile=client.mjs`).
 *   2. node examples/static-site/build.mjs ./client.mjs https://www.example.com ./public
 *
 * Output: one JSON file per published item language at `<out>/<model>/<locale>/<slug or id>.json`,
 * `<out>/index.json` listing them, and `<out>/.driftwood-sync.json` (the mirror and its cursor).
 * Set DRIFTWOOD_SITE_TOKEN to mirror the private models a site API token names as well.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const STATE_FILE = ".driftwood-sync.json";

/** Where an item's page goes (slug when it has one, else its id). */
function pagePath(outDir, item) {
  const name = (item.slug ?? item.id).replace(/[^A-Za-z0-9._-]/g, "_");
  return path.join(outDir, item.model, item.locale, `${name}.json`);
}

/**
 * One build: brings the mirror up to date with `api.sync()` and writes what changed.
 * Answers `{ reset, changes, written, removed }` (paths relative to `outDir`).
 */
export async function build({ api, outDir }) {
  mkdirSync(outDir, { recursive: true });
  const statePath = path.join(outDir, STATE_FILE);
  const previous = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : undefined;
  const { mirror, changes, reset } = await api.sync(previous);
  const written = [];
  const removed = [];
  const remove = (item) => {
    const file = pagePath(outDir, item);
    rmSync(file, { force: true });
    removed.push(path.relative(outDir, file));
  };
  // A reset or a first run rebuilds every page; otherwise only the pages the changes touch.
  if (reset && previous) for (const item of Object.values(previous.items)) remove(item);
  for (const record of changes) {
    if (record.type === "deleted" || record.type === "entry") {
      // The page of the item as the mirror had it before (its slug may have changed) goes first.
      const before = previous?.items[record.type === "entry" ? record.item.id : record.id];
      if (before && !reset) remove(before);
    }
    if (record.type === "entry") {
      const file = pagePath(outDir, record.item);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(record.item, null, 2)}\n`);
      written.push(path.relative(outDir, file));
    }
  }
  const index = Object.values(mirror.items)
    .map((item) => ({ id: item.id, model: item.model, locale: item.locale, slug: item.slug, page: path.relative(outDir, pagePath(outDir, item)) }))
    .sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
  writeFileSync(path.join(outDir, "index.json"), `${JSON.stringify({ items: index, media: Object.values(mirror.media) }, null, 2)}\n`);
  writeFileSync(statePath, JSON.stringify(mirror));
  return { reset, changes, written, removed };
}

async function main() {
  const [clientModule, baseUrl, outDir] = process.argv.slice(2);
  if (!clientModule || !baseUrl || !outDir) {
    process.stderr.write("usage: node build.mjs <compiled client.mjs> <site base URL> <output folder>\n");
    process.exit(2);
  }
  const { createClient } = await import(pathToFileURL(path.resolve(clientModule)).href);
  const token = process.env.DRIFTWOOD_SITE_TOKEN;
  const api = createClient({ baseUrl, ...(token ? { token } : {}) });
  const result = await build({ api, outDir });
  process.stdout.write(`${result.reset ? "full snapshot" : "changes"}: ${result.changes.length} records, ${result.written.length} pages written, ${result.removed.length} removed\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    process.stderr.write(`build failed: ${error.message}\n`);
    process.exit(1);
  });
}
