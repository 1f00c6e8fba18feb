/**
 * Private files (spec 3 "Rules of private files", docs/generated-backend.md "Private files"):
 * `GET /api/<model>/files/<field>/<row id>[?media=<id>][&variant=thumb|preview]`. A private media
 * field's `<field>_url` (and the `src` of a library image in a private rich text) holds a
 * `private-file:<key>` marker; the bytes live in the worker's `PRIVATE_FILES` bucket or in the local
 * server's `PRIVATE_FILES_DIRECTORY`. The route inherits `<Model>.findUnique` and re-reads the row
 * with the caller's visibility on every request: nothing is cached, nothing falls back to public storage.
 */
import { authorize, type AccessConfig, type Caller } from "./access.js";
import { HttpError, invalid } from "./errors.js";
import type { AnyDb } from "./rows.js";
import { operationSettings, type ModelSchema, type OperationsConfig } from "./schema-types.js";
import { seesPrivate } from "./visibility.js";

export const PRIVATE_FILE_MARKER = "private-file:";

/** One stored object: its bytes and what the store knows of them. */
export interface PrivateFile {
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
  contentType: string;
  fileName?: string;
  size?: number;
}

/** Where private files are read from: an R2 bucket (worker) or a directory (local server). */
export interface PrivateFileStore {
  get(key: string): Promise<PrivateFile | null>;
}

/** A key as the CMS writes them (`<site id>/<media id>/<object id>`, variants `.thumb` / `.preview`): never `..`, never absolute. */
export function isSafeKey(key: string): boolean {
  return key.length <= 512 && /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(key) && !key.split("/").some((part) => part === "." || part === "..");
}

/** The subset of an R2 bucket the store needs (the worker's `PRIVATE_FILES` binding). */
export interface R2Like {
  get(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number; httpMetadata?: { contentType?: string; contentDisposition?: string } } | null>;
}

export function r2Store(bucket: R2Like): PrivateFileStore {
  return {
    async get(key) {
      const object = await bucket.get(key);
      if (object === null) return null;
      // scripts/private-files.mjs stores the file name as `attachment; filename="…"`.
      const fileName = /filename="([^"]*)"/.exec(object.httpMetadata?.contentDisposition ?? "")?.[1];
      return { body: object.body, size: object.size, contentType: object.httpMetadata?.contentType ?? "application/octet-stream", ...(fileName !== undefined ? { fileName } : {}) };
    },
  };
}

const FILES_PATH = /^\/api\/([a-z0-9]+)\/files\/([A-Za-z0-9_]+)\/([^/]+)\/?$/;

/** Whether a path is a file route (router.ts hands those over). */
export const filesRouteMatch = (pathname: string): RegExpExecArray | null => FILES_PATH.exec(pathname);

/** `src="private-file:…"` of the library image `data-media="<id>"` in a rich text, if the row holds one. */
export function richTextMarker(html: string, mediaId: string): string | undefined {
  for (const tag of html.match(/<img\b[^>]*>/gi) ?? []) {
    const media = /\sdata-media="([^"]*)"/i.exec(tag)?.[1];
    const src = /\ssrc="([^"]*)"/i.exec(tag)?.[1];
    if (media === mediaId && src?.startsWith(PRIVATE_FILE_MARKER)) return src.slice(PRIVATE_FILE_MARKER.length);
  }
  return undefined;
}

/** The marker of a media column: one value, or the entry of `mediaId` in a multiple field's arrays. */
function mediaMarker(row: Record<string, unknown>, field: string, mediaId: string | null): string | undefined {
  const parse = (value: unknown): unknown => (typeof value === "string" && value.startsWith("[") ? (JSON.parse(value) as unknown) : value);
  const ids = parse(row[`${field}_id`]);
  const urls = parse(row[`${field}_url`]);
  let url: unknown;
  if (Array.isArray(ids) && Array.isArray(urls)) url = mediaId === null ? urls[0] : urls[ids.indexOf(mediaId)];
  else if (mediaId === null || ids === mediaId) url = urls;
  return typeof url === "string" && url.startsWith(PRIVATE_FILE_MARKER) ? url.slice(PRIVATE_FILE_MARKER.length) : undefined;
}

/** Images and PDFs display inline; anything else (SVG included: it can carry script) downloads. */
export function displaysInline(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return (type.startsWith("image/") && type !== "image/svg+xml") || type === "application/pdf";
}

const notFound = (): HttpError => new HttpError(404, "not_found", "No such file.");

export interface FilesCall {
  match: RegExpExecArray;
  url: URL;
  method: string;
  caller: Caller;
  db: AnyDb;
  models: readonly ModelSchema[];
  operations: OperationsConfig;
  access: AccessConfig;
  serviceToken: string | undefined;
  store: PrivateFileStore | undefined;
}

/** Answers `GET /api/<model>/files/<field>/<row id>`. */
export async function filesRoute(call: FilesCall): Promise<Response> {
  const [, api, field, rawId] = call.match;
  const model = call.models.find((m) => m.api === api);
  const file = model?.files?.find((f) => f.field === field);
  if (model === undefined || file === undefined) throw notFound();
  const settings = operationSettings(call.operations, model.api, "findUnique");
  if (!settings.enabled) throw notFound();
  if (call.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET.", {}, { allow: "GET" });
  authorize(call.caller, "findUnique", model.api, settings.access, call.serviceToken);
  for (const name of call.url.searchParams.keys()) if (name !== "media" && name !== "variant") throw invalid(`${name} is not an argument (media, variant).`, name);
  const variant = call.url.searchParams.get("variant");
  if (variant !== null && variant !== "thumb" && variant !== "preview") throw invalid("variant is thumb or preview.", "variant");
  const mediaId = call.url.searchParams.get("media");
  if (call.store === undefined) throw new HttpError(503, "private_files_unavailable", "This backend has no private file storage (PRIVATE_FILES binding or PRIVATE_FILES_DIRECTORY).");
  let rowId: string;
  try {
    rowId = decodeURIComponent(rawId ?? "");
  } catch {
    throw notFound();
  }
  const columns = file.kind === "media" ? [`${field}_id`, `${field}_url`] : [field as string];
  // The caller's guarded read: a column the caller may not read is a row it cannot read here.
  const readable = model.columns.filter((column) => columns.includes(column.name) && (!column.private || seesPrivate(call.caller, model.api)));
  if (readable.length !== columns.length) throw notFound();
  const row = (await call.db.selectFrom(model.api).select(columns).where("id", "=", rowId).executeTakeFirst()) as Record<string, unknown> | undefined;
  if (row === undefined) throw notFound();
  const markerOf = (held: Record<string, unknown>): string | undefined =>
    file.kind === "media" ? mediaMarker(held, field as string, mediaId) : mediaId === null ? undefined : richTextMarker(String(held[field as string] ?? ""), mediaId);
  let key = markerOf(row);
  // A file a locale row holds (a translated media field or rich text) is named by ?media= too.
  const table = model.translation;
  if (key === undefined && mediaId !== null && table !== undefined && columns.every((name) => table.columns.some((column) => column.name === name))) {
    const locales = (await call.db.selectFrom(table.api).select(columns).where(`${model.api}_id`, "=", rowId).orderBy("lang").execute()) as Record<string, unknown>[];
    key = locales.map(markerOf).find((found) => found !== undefined);
  }
  if (key === undefined || !isSafeKey(key)) throw notFound();
  let stored = variant === null ? await call.store.get(key) : await call.store.get(`${key}.${variant}`);
  // A missing preview falls back to the original (a thumbnail does not: it is asked for its size).
  if (stored === null && variant === "preview") stored = await call.store.get(key);
  if (stored === null) throw notFound();
  const name = (stored.fileName ?? key.slice(key.lastIndexOf("/") + 1)).replace(/["\\\r\n]/g, "_");
  return new Response(stored.body as BodyInit, {
    status: 200,
    headers: {
      "content-type": stored.contentType,
      ...(stored.size !== undefined ? { "content-length": String(stored.size) } : {}),
      "cache-control": "private, no-store",
      "content-disposition": displaysInline(stored.contentType) ? "inline" : `attachment; filename="${name}"`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
}
