import type { MediaRow } from "../../repositories/media-repository";
import type { MediaKind } from "./formats";
import type { FileFacts } from "./media-permission";
import { objectIdOf } from "./object-keys";

/** A media item as every management answer shows it (spec 2, "Media item"; list shape). */
export interface MediaItem extends FileFacts {
  id: string;
  kind: MediaKind;
  alt_texts: Record<string, string>;
  default_focal: { x: number; y: number } | null;
  /** The kept rectangle as fractions of the picture (docs/media.md, "Crop"); null: the whole picture. */
  crop: MediaCrop | null;
  loading: "eager" | "lazy";
  fetch_priority: "high" | "low" | "auto";
  folder_id: string | null;
  tags: string[];
  credit: string | null;
  edited_from: string | null;
  revision: number;
  /** The current stored object: changes when the file is replaced, so read `url` again then. */
  object_id: string;
  url: string;
  created_at: string;
  updated_at: string;
}

function parsed<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * The delivery address of one stored object: `/media/{media id}/{object id}/{file name}` on the site's
 * host (docs/media.md, "Public delivery"). It names the object, so it is immutable: a replace gives a
 * new address. Public snapshots give the same address for the object they pin (lifecycle/snapshot.ts).
 */
export function deliveryUrl(mediaId: string, objectKey: string, fileName: string): string {
  return `/media/${mediaId}/${objectIdOf(objectKey)}/${encodeURIComponent(fileName)}`;
}

/** The delivery address of an item's current file. */
export function mediaUrl(row: Pick<MediaRow, "id" | "file_name" | "object_key">): string {
  return deliveryUrl(row.id, row.object_key, row.file_name);
}

/** A crop: the kept rectangle's top-left corner and size, fractions 0..1 of the picture. */
export interface MediaCrop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function mediaItem(row: MediaRow): MediaItem {
  return {
    id: row.id,
    kind: row.kind,
    file_name: row.file_name,
    mime_type: row.mime_type,
    byte_length: row.byte_length,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    alt_texts: parsed<Record<string, string>>(row.alt_texts, {}),
    default_focal: parsed<{ x: number; y: number } | null>(row.default_focal, null),
    crop: parsed<MediaCrop | null>(row.crop ?? null, null),
    loading: row.loading === "eager" ? "eager" : "lazy",
    fetch_priority: row.fetch_priority === "high" || row.fetch_priority === "low" ? row.fetch_priority : "auto",
    folder_id: row.folder_id,
    tags: parsed<string[]>(row.tags, []),
    credit: row.credit,
    edited_from: row.edited_from,
    revision: row.revision,
    object_id: objectIdOf(row.object_key),
    url: mediaUrl(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
