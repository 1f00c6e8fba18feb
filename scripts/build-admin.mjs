#!/usr/bin/env node
/**
 * Builds the admin UI (admin/src → admin/dist) with esbuild: one ES-module entry with code
 * splitting (the rich-text editor and other heavy screens load on demand), one CSS file, hashed
 * names, and an index.html naming them. Served as Workers static assets from the admin host
 * (wrangler.jsonc `assets`, workers/admin/static-assets.ts).
 *
 * Prints the initial JavaScript — the entry and every chunk it imports statically, i.e. what a
 * browser must fetch before the first screen — gzipped, and fails past ADMIN_JS_BUDGET_BYTES
 * (150 KB, issue #15). `--json` prints the figures as JSON for the bench. `--watch` rebuilds.
 */
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

export const ADMIN_JS_BUDGET_BYTES = 150 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const finalDir = path.join(root, "admin", "dist");

export async function buildAdmin({ quiet = false } = {}) {
  // Built beside admin/dist and moved in file by file (swapIn): a reader of admin/dist (the workerd
  // suite's asset binding, a running `wrangler dev`) never sees it empty or re-created while another
  // process of the same test run builds it (the deploy test).
  const outdir = path.join(root, "admin", `.dist-build-${process.pid}-${Date.now()}`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(path.join(outdir, "assets"), { recursive: true });
  try {
    return await buildInto(outdir, quiet);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

async function buildInto(outdir, quiet) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: "admin/src/main.tsx" },
    bundle: true,
    splitting: true,
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: false,
    metafile: true,
    outdir: path.join(outdir, "assets"),
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    logLevel: quiet ? "silent" : "warning",
    // DRIFTWOOD_VERSION: package.json's version, shown in the admin footer (admin/src/shell/layout.tsx).
    define: { "process.env.NODE_ENV": '"production"', DRIFTWOOD_VERSION: JSON.stringify(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version) },
  });
  const outputs = result.metafile.outputs;
  const rel = (file) => "/" + path.relative(outdir, path.join(root, file)).split(path.sep).join("/");
  const entry = Object.keys(outputs).find((file) => outputs[file].entryPoint === "admin/src/main.tsx" && file.endsWith(".js"));
  if (!entry) throw new Error("esbuild produced no entry");
  const css = outputs[entry].cssBundle;
  // The initial JavaScript: the entry and, transitively, its static imports (not dynamic ones).
  const initial = new Set();
  const visit = (file) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imported of outputs[file].imports) if (imported.kind === "import-statement" && outputs[imported.path]) visit(imported.path);
  };
  visit(entry);
  const gz = (file) => gzipSync(readFileSync(path.join(root, file)), { level: 9 }).length;
  const initialGzip = [...initial].reduce((sum, file) => sum + gz(file), 0);
  const allJs = Object.keys(outputs).filter((f) => f.endsWith(".js"));
  const totalGzip = allJs.reduce((sum, file) => sum + gz(file), 0);
  const preloads = [...initial].filter((f) => f !== entry).map((f) => `<link rel="modulepreload" href="${rel(f)}">`).join("\n    ");
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Driftwood admin</title>
    ${css ? `<link rel="stylesheet" href="${rel(css)}">` : ""}
    ${preloads}
    <script type="module" src="${rel(entry)}"></script>
  </head>
  <body>
    <div id="app"><noscript>The Driftwood admin needs JavaScript.</noscript></div>
  </body>
</html>
`;
  writeFileSync(path.join(outdir, "index.html"), html);
  const figures = { initial_js_gzip_bytes: initialGzip, budget_bytes: ADMIN_JS_BUDGET_BYTES, initial_files: initial.size, all_js_gzip_bytes: totalGzip, js_files: allJs.length };
  if (!quiet) {
    console.log(`admin: initial JavaScript ${(initialGzip / 1024).toFixed(1)} KB gzipped in ${initial.size} file(s) (budget ${ADMIN_JS_BUDGET_BYTES / 1024} KB); all JavaScript ${(totalGzip / 1024).toFixed(1)} KB in ${allJs.length} file(s)`);
  }
  if (initialGzip > ADMIN_JS_BUDGET_BYTES) throw new Error(`admin initial JavaScript is ${initialGzip} bytes gzipped, over the ${ADMIN_JS_BUDGET_BYTES}-byte budget`);
  swapIn(outdir);
  return figures;
}

/**
 * Moves the built files into admin/dist file by file (a rename over a file is atomic) and then
 * removes files the new build does not have. admin/dist itself is never removed: a runtime serving
 * it (workerd's disk service, the workerd suite's asset binding) holds the directory it opened, so
 * a removed and re-created admin/dist answered 404 for every asset for the rest of that runtime —
 * two admin-host tests failed that way when the deploy test rebuilt the admin during a run.
 */
function swapIn(built) {
  const walk = (dir, prefix = "") =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]));
  const fresh = walk(built);
  // Assets first, index.html last: the page never names a file that is not there yet.
  fresh.sort((a, b) => (a === "index.html" ? 1 : b === "index.html" ? -1 : a.localeCompare(b)));
  for (const file of fresh) {
    mkdirSync(path.dirname(path.join(finalDir, file)), { recursive: true });
    renameSync(path.join(built, file), path.join(finalDir, file));
  }
  const keep = new Set(fresh);
  for (const file of walk(finalDir)) if (!keep.has(file)) rmSync(path.join(finalDir, file), { force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const json = process.argv.includes("--json");
  buildAdmin({ quiet: json })
    .then((figures) => {
      if (json) console.log(JSON.stringify(figures));
    })
    .catch((error) => {
      console.error(error.message);
      process.exit(1);
    });
}
