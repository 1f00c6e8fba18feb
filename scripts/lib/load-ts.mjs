/**
 * Imports a TypeScript module from Node 20 (which cannot run TypeScript): bundles it with esbuild
 * into .tmp/ and imports the bundle. Used by scripts that reuse the project's own sources.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function loadTs(entry) {
  const esbuild = await import("esbuild");
  const outdir = path.join(root, ".tmp", "load-ts");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, `${path.basename(entry, ".ts")}-${process.pid}-${Date.now()}.mjs`);
  await esbuild.build({
    entryPoints: [path.resolve(root, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    // CommonJS dependencies bundled into ESM (debug, under file-type's tokenizer) call require() for
    // Node built-ins; give the bundle a real one.
    banner: { js: 'import { createRequire as __loadTsCreateRequire } from "node:module"; const require = __loadTsCreateRequire(import.meta.url);' },
    logLevel: "warning",
  });
  return import(pathToFileURL(outfile).href);
}
