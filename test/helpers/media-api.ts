import { env, SELF } from "cloudflare:test";
import { newKey, type ManageResult } from "./manage-api";

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
  const response = await SELF.fetch(`http://api.example.test/api/manage/v1${path}`, { method: options.method ?? "POST", headers, body: form });
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
