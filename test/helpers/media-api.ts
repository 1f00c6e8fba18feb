import { env } from "cloudflare:test";
import { newKey, type ManageResult } from "./manage-api";
import { workerFetch } from "./worker";

/** A media item as the management API answers it (spec 2, "Media item"). */
export interface MediaItemBody {
  id: string;
  kind: string;
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt_texts: Record<string, string>;
  default_focal: { x: number; y: number } | null;
  loading: string;
  fetch_priority: string;
  folder_id: string | null;
  tags: string[];
  edited_from: string | null;
  object_id: string;
  url: string;
}
export type MediaAnswer = { media: MediaItemBody; reused?: true; replayed?: true };
export type ErrBody = { error: { code: string; [detail: string]: unknown } };

/** A file part for a multipart media request: bytes, file name, part type. */
export type FilePart = { bytes: Uint8Array; name: string; type?: string };

/** A multipart/form-data management call (`file` and text fields) with an Idempotency-Key. */
async function multipartCall<T>(token: string, path: string, file: FilePart | null, fields: Record<string, string>, options: { key?: string | null; method?: "POST" | "PUT" }): Promise<ManageResult<T>> {
  const form = new FormData();
  if (file) form.append("file", new File([file.bytes], file.name, file.type === undefined ? {} : { type: file.type }));
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const key = options.key === undefined ? newKey() : options.key;
  if (key !== null) headers["idempotency-key"] = key;
  const response = await workerFetch(`http://api.example.test/api/manage/v1${path}`, { method: options.method ?? "POST", headers, body: form });
  const body = await response.text();
  return { status: response.status, body: (body ? JSON.parse(body) : null) as T, headers: response.headers };
}

/** POST /media as multipart/form-data: `file` (bytes, file name, part type) and text fields. */
export function uploadMedia<T = MediaAnswer>(token: string, file: FilePart | null, fields: Record<string, string> = {}, options: { key?: string | null } = {}): Promise<ManageResult<T>> {
  return multipartCall<T>(token, "/media", file, fields, options);
}

/** R2 object keys stored for a site (tests only: the service never lists R2). */
export async function storedKeys(siteId: string): Promise<string[]> {
  const listed = await env.MEDIA.list({ prefix: `${siteId}/` });
  return listed.objects.map((o) => o.key);
}

export async function mediaRows(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}

/** POST /media/{id}/replace as multipart/form-data: `file` and text fields (docs/media.md, "Replace"). */
export function replaceMedia<T = MediaAnswer & { unchanged?: true }>(
  token: string,
  id: string,
  file: FilePart | null,
  fields: Record<string, string> = {},
  options: { key?: string | null } = {},
): Promise<ManageResult<T>> {
  return multipartCall<T>(token, `/media/${id}/replace`, file, fields, options);
}

/** PUT /media/{id}/originals/{lang} as multipart/form-data: `file` and text fields (docs/media.md, "Originals by language"). */
export function setOriginal<T = unknown>(
  token: string,
  id: string,
  lang: string,
  file: FilePart | null,
  fields: Record<string, string>,
  options: { key?: string | null } = {},
): Promise<ManageResult<T>> {
  return multipartCall<T>(token, `/media/${id}/originals/${lang}`, file, fields, { ...options, method: "PUT" });
}

/**
 * A body of `total` bytes for the admin streamed upload, produced chunk by chunk and never held
 * whole: `head` first, then a cheap repeating filler without `<` (so no page tag appears by chance),
 * with `inject` written over the filler at its offset. `sha256()` hashes the same bytes again.
 */
export class GeneratedBody {
  static readonly CHUNK = 1024 * 1024;
  readonly #filler: Uint8Array;

  constructor(
    readonly total: number,
    readonly head: Uint8Array,
    readonly inject?: { at: number; bytes: Uint8Array },
  ) {
    this.#filler = new Uint8Array(GeneratedBody.CHUNK);
    for (let i = 0; i < this.#filler.length; i++) this.#filler[i] = (i * 7 + 13) % 256 === 0x3c ? 0x3d : (i * 7 + 13) % 256;
  }

  /** The bytes from `at`, at most one chunk long. */
  chunkAt(at: number): Uint8Array {
    const size = Math.min(GeneratedBody.CHUNK, this.total - at);
    const chunk = this.#filler.slice(0, size);
    for (const piece of [{ at: 0, bytes: this.head }, ...(this.inject ? [this.inject] : [])]) {
      const from = Math.max(piece.at, at);
      const to = Math.min(piece.at + piece.bytes.length, at + size);
      if (from < to) chunk.set(piece.bytes.subarray(from - piece.at, to - piece.at), from - at);
    }
    return chunk;
  }

  /** The body as a stream (sent without Content-Length); `pulled()` says how far it was read. */
  stream(): ReadableStream<Uint8Array> & { pulled: () => number } {
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (at >= this.total) return controller.close();
        const chunk = this.chunkAt(at);
        at += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return Object.assign(stream, { pulled: () => at });
  }

  async sha256(): Promise<string> {
    return digestOf(this.stream());
  }
}

/** SHA-256 hex of a stream's bytes, read chunk by chunk. */
export async function digestOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const digest = new crypto.DigestStream("SHA-256");
  await stream.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** POST /api/media/uploads on the admin host: the raw file as the body, fields as query parameters. */
export async function streamUpload<T = MediaAnswer>(
  session: { cookie: string; csrf: string },
  siteId: string,
  body: BodyInit | null,
  options: { fields?: Record<string, string>; key?: string | null; csrf?: string | null; headers?: Record<string, string> } = {},
): Promise<ManageResult<T>> {
  const headers: Record<string, string> = { cookie: session.cookie, "x-site-id": siteId, ...(options.headers ?? {}) };
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  if (csrf !== null) headers["x-csrf-token"] = csrf;
  const key = options.key === undefined ? newKey() : options.key;
  if (key !== null) headers["idempotency-key"] = key;
  const query = new URLSearchParams(options.fields ?? {}).toString();
  const response = await workerFetch(`http://admin.localhost/api/media/uploads${query ? `?${query}` : ""}`, { method: "POST", headers, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}
