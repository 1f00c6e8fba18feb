import { ApiError, apiErrorOf, requestHeaders } from "../api/client";
import type { MediaItem } from "./types";

/** What the streamed upload accepts besides the bytes (query fields, docs/media.md). */
export interface UploadFields {
  name: string;
  folder_id?: string | null;
  on_duplicate?: "ask" | "use_existing" | "copy";
}

export interface UploadAnswer {
  media: MediaItem;
  reused?: true;
  replayed?: boolean;
}

/** Where the admin host streams large files into storage (schema/admin-api.ts `streamMediaUpload`). */
export const STREAMED_UPLOAD_PATH = "/api/media/uploads";

/**
 * Sends one file through the admin's streamed upload (`POST /api/media/uploads`: the raw bytes,
 * the fields as query parameters) with XMLHttpRequest, because fetch cannot report upload progress.
 * Headers are the client's (site, CSRF, the action's Idempotency-Key). A refusal is an ApiError
 * (e.g. 409 `media_duplicate` with `existing` and `copies`), a network fault an Error.
 */
export function streamUpload(file: Blob, fields: UploadFields, key: string, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<UploadAnswer> {
  const query = new URLSearchParams({ name: fields.name });
  if (fields.folder_id) query.set("folder_id", fields.folder_id);
  if (fields.on_duplicate) query.set("on_duplicate", fields.on_duplicate);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${STREAMED_UPLOAD_PATH}?${query.toString()}`);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(requestHeaders("POST", key))) xhr.setRequestHeader(name, value);
    // The declared type; the bytes decide (a contradicting one is ignored by the service).
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve(parsed as UploadAnswer);
      } else reject(apiErrorOf(xhr.status, xhr.statusText, parsed));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted (network)."));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** The existing item and the number of copies a `media_duplicate` refusal names. */
export function duplicateOf(error: unknown): { existing: MediaItem; copies: number } | null {
  if (!(error instanceof ApiError) || error.code !== "media_duplicate") return null;
  const existing = error.details.existing as MediaItem | undefined;
  if (!existing || typeof existing.id !== "string") return null;
  return { existing, copies: typeof error.details.copies === "number" ? error.details.copies : 1 };
}
