#!/usr/bin/env node
// The private files the generator copied into private-files/ (a file per key, <key>.meta.json with its
// content type and file name), put into the PRIVATE_FILES bucket: `npm run deploy` (before the
// worker) and `npm run private-files:upload` (the files alone) for the deployed bucket (one
// `wrangler r2 object put --remote` each); `npm run dev:worker` calls
// putLocalPrivateFiles for the local one (one local runtime for all of them). The local
// server reads the folder itself: PRIVATE_FILES_DIRECTORY="$PWD/private-files".
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Every stored file under private-files/: its key, path and meta. */
export function listPrivateFiles(root) {
  const folder = path.join(root, "private-files");
  if (!existsSync(folder)) return [];
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (!name.endsWith(".meta.json")) {
        const meta = existsSync(`${file}.meta.json`) ? JSON.parse(readFileSync(`${file}.meta.json`, "utf8")) : {};
        out.push({ key: path.relative(folder, file).split(path.sep).join("/"), file, contentType: meta.content_type ?? "application/octet-stream", fileName: meta.file_name });
      }
    }
  };
  walk(folder);
  return out;
}

/** The bucket wrangler.jsonc binds as PRIVATE_FILES. */
export function bucketName(root) {
  const config = readFileSync(path.join(root, "wrangler.jsonc"), "utf8");
  const match = /"binding":\s*"PRIVATE_FILES",\s*"bucket_name":\s*"([^"]+)"/.exec(config);
  if (!match) throw new Error("wrangler.jsonc binds no PRIVATE_FILES bucket");
  return match[1];
}

/** Puts each file with wrangler (`where`: ["--local", "--persist-to", dir] or ["--remote"]); exits on a failure. */
export function putPrivateFiles(root, where) {
  const bucket = bucketName(root);
  for (const item of listPrivateFiles(root)) {
    const disposition = item.fileName ? [`--content-disposition`, `attachment; filename="${String(item.fileName).replace(/["\\\r\n]/g, "_")}"`] : [];
    const run = spawnSync("npx", ["wrangler", "r2", "object", "put", `${bucket}/${item.key}`, "--file", item.file, "--content-type", item.contentType, ...disposition, ...where], { cwd: root, stdio: "inherit" });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}

/** Puts every file into the local PRIVATE_FILES bucket `wrangler dev --persist-to <state>` reads. */
export async function putLocalPrivateFiles(root, state) {
  const files = listPrivateFiles(root);
  if (files.length === 0) return;
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy({ configPath: path.join(root, "wrangler.jsonc"), persist: { path: path.join(state, "v3") }, remoteBindings: false });
  try {
    for (const item of files) {
      const contentDisposition = item.fileName ? `attachment; filename="${String(item.fileName).replace(/["\\\r\n]/g, "_")}"` : undefined;
      const bytes = readFileSync(item.file);
      // An ArrayBuffer of its own: the proxy refuses a view into Node's shared buffer pool.
      await proxy.env.PRIVATE_FILES.put(item.key, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { httpMetadata: { contentType: item.contentType, ...(contentDisposition ? { contentDisposition } : {}) } });
    }
  } finally {
    await proxy.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  putPrivateFiles(root, process.argv.includes("--local") ? ["--local"] : ["--remote"]);
}
