import type { FieldDefinition, FieldValue } from "../../schema/model-definition";
import { mediaIds } from "./validate-fields";

/** One media file a version references (docs/media.md, "Usage"). */
export interface MediaReference {
  field_id: string;
  media_id: string;
  source: "field" | "rich_text";
}

/** An `<img …>` tag of canonical rich text: attributes are double-quoted with `"` escaped (parse5's serialiser). */
const IMG_TAG = /<img((?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*)\s*\/?>/gi;
const SRC_ATTRIBUTE = /\ssrc="([^"]*)"/i;
/** This site's media address, relative to the site: `/media/{id}/{file name}`. */
const MEDIA_PATH = /^\/media\/(med_[0-9A-Za-z]+)\//;

/**
 * The media ids a rich-text value's images point at: `<img src="/media/{id}/…">`, the relative
 * address a media item's `url` gives. Absolute URLs (another host, or this one spelled out) are not
 * this site's media references. Reads the canonical (sanitised) value a version stores.
 */
export function richTextMediaIds(value: unknown): string[] {
  if (typeof value !== "string" || !value.includes("/media/")) return [];
  const ids = new Set<string>();
  for (const tag of value.matchAll(IMG_TAG)) {
    const src = SRC_ATTRIBUTE.exec(tag[1] ?? "")?.[1];
    const id = src ? MEDIA_PATH.exec(src)?.[1] : undefined;
    if (id) ids.add(id);
  }
  return [...ids];
}

/**
 * Every media file stored values (keyed by field id) reference: media field values and rich-text
 * images, each (field, id) once.
 */
export function mediaReferences(fields: readonly FieldDefinition[], stored: Readonly<Record<string, FieldValue>>): MediaReference[] {
  const refs = new Map<string, MediaReference>();
  for (const field of fields) {
    const value = stored[field.id] ?? null;
    const found =
      field.type === "media"
        ? mediaIds(field, value).map((id) => ({ id, source: "field" as const }))
        : field.type === "rich_text"
          ? richTextMediaIds(value).map((id) => ({ id, source: "rich_text" as const }))
          : [];
    for (const { id, source } of found) refs.set(`${field.id}|${id}`, { field_id: field.id, media_id: id, source });
  }
  return [...refs.values()];
}
