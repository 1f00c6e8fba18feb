/**
 * The local server's private file store (docs/generated-backend.md, "Private files"): the existing
 * absolute directory named by PRIVATE_FILES_DIRECTORY, a file per key, its content type (and file
 * name) in `<key>.meta.json` beside it. Keys are checked (isSafeKey) and resolved inside the directory.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isSafeKey, type PrivateFileStore } from "../runtime/private-files.js";

/** The directory, or an Error saying why the server refuses it; undefined when the variable is unset. */
export function privateFilesDirectory(value: string | undefined): string | Error | undefined {
  if (value === undefined || value === "") return undefined;
  if (!path.isAbsolute(value)) return new Error(`PRIVATE_FILES_DIRECTORY must be an absolute path (got ${value}).`);
  if (!existsSync(value) || !statSync(value).isDirectory()) return new Error(`PRIVATE_FILES_DIRECTORY ${value} is not an existing directory.`);
  return path.resolve(value);
}

export function directoryStore(directory: string): PrivateFileStore {
  return {
    async get(key) {
      if (!isSafeKey(key) || key.endsWith(".meta.json")) return null;
      const file = path.resolve(directory, key);
      if (!file.startsWith(directory + path.sep) || !existsSync(file) || !statSync(file).isFile()) return null;
      let meta: { content_type?: unknown; file_name?: unknown } = {};
      try {
        meta = JSON.parse(readFileSync(`${file}.meta.json`, "utf8")) as typeof meta;
      } catch {
        // no meta: served as bytes
      }
      const body = new Uint8Array(readFileSync(file));
      return {
        body,
        size: body.byteLength,
        contentType: typeof meta.content_type === "string" ? meta.content_type : "application/octet-stream",
        ...(typeof meta.file_name === "string" ? { fileName: meta.file_name } : {}),
      };
    },
  };
}
