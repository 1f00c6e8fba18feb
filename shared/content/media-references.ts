import type { FieldDefinition, FieldValue } from "../../schema/model-definition";
import { mediaIds } from "./validate-fields";
import { componentLeaves } from "./components";

/** One media file a version references (docs/media.md, "Usage"). */
export interface MediaReference {
  field_id: string;
  media_id: string;
  source: "field" | "rich_text";
}

/** An `<img …>` tag of canonical rich text: attributes are double-quoted with `"` escaped (parse5's serialiser). */
const IMG_TAG = /<img((?:\s+[^\s"'<>/=]+(?:="[^"]*")?)*)\s*\/?>/gi;
const SRC_ATTRIBUTE = /\ssrc="([^"]*)"/i;
/** A library image's id (galleries, docs/rich-text.md): `data-media="med_…"`. */
const DATA_MEDIA_ATTRIBUTE = /\sdata-media="([^"]*)"/i;
const MEDIA_ID = /^med_[0-9A-Za-z_-]{1,64}$/;
const OBJECT_ID = /^obj_[0-9A-Za-z_-]{1,64}$/;

/** What a relative media address names: `/media/{media id}/{object id}/{file name}` (older `/media/{id}/{file}`). */
export interface MediaAddress {
  mediaId: string;
  /** Present when the address names an object (the current form). */
  objectId?: string;
  fileName?: string;
}

/**
 * The media a `src` names on this site, read the way public delivery reads a request path: relative
 * to the site (`/…`, not `//host/…`), dot segments resolved, each segment percent-decoded — so the
 * usage index and the pins agree with what a browser would load (`/media/%6Ded_…/…` and
 * `/media/./med_…/…` name the same file as `/media/med_…/…`). Absolute URLs are not this site's.
 */
export function mediaAddress(src: string): MediaAddress | null {
  const raw = src.replace(/&amp;/g, "&").replace(/&quot;/g, '"').trim();
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return null;
  let segments: string[];
  try {
    segments = new URL(raw, "http://site.invalid").pathname.split("/").slice(1).map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
  const [root, mediaId, second, third, ...rest] = segments;
  if (root !== "media" || !mediaId || !MEDIA_ID.test(mediaId) || second === undefined) return null;
  if (third !== undefined && rest.length === 0 && OBJECT_ID.test(second) && third.length > 0) return { mediaId, objectId: second, fileName: third };
  return { mediaId };
}

/** The `src` of each `<img>` of canonical rich text. */
function imageSources(value: string): string[] {
  const sources: string[] = [];
  for (const tag of value.matchAll(IMG_TAG)) {
    const src = SRC_ATTRIBUTE.exec(tag[1] ?? "")?.[1];
    if (src) sources.push(src);
  }
  return sources;
}

/** The `data-media` id of each library `<img>` of canonical rich text. */
function libraryImageIds(value: string): string[] {
  const ids: string[] = [];
  for (const tag of value.matchAll(IMG_TAG)) {
    const id = DATA_MEDIA_ATTRIBUTE.exec(tag[1] ?? "")?.[1];
    if (id && MEDIA_ID.test(id)) ids.push(id);
  }
  return ids;
}

/** The objects a rich-text value's images name by their full address (what public delivery serves). */
export function richTextMediaObjects(value: unknown): Required<MediaAddress>[] {
  if (typeof value !== "string" || !value.includes("/media")) return [];
  const found: Required<MediaAddress>[] = [];
  for (const src of imageSources(value)) {
    const address = mediaAddress(src);
    if (address?.objectId && address.fileName) found.push({ mediaId: address.mediaId, objectId: address.objectId, fileName: address.fileName });
  }
  return found;
}

/**
 * The media ids a rich-text value's images point at: `<img src="/media/{id}/…">`, the relative
 * address a media item's `url` gives. Absolute URLs (another host, or this one spelled out) are not
 * this site's media references. Reads the canonical (sanitised) value a version stores.
 */
export function richTextMediaIds(value: unknown): string[] {
  if (typeof value !== "string" || (!value.includes("/media") && !value.includes("data-media"))) return [];
  const ids = new Set<string>(libraryImageIds(value));
  for (const src of imageSources(value)) {
    const id = mediaAddress(src)?.mediaId;
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
  // Media and rich-text images inside components count for the top-level component field.
  for (const leaf of componentLeaves(fields, stored, "id")) {
    const found =
      leaf.field.type === "media"
        ? mediaIds(leaf.field, leaf.value).map((id) => ({ id, source: "field" as const }))
        : leaf.field.type === "rich_text"
          ? richTextMediaIds(leaf.value).map((id) => ({ id, source: "rich_text" as const }))
          : [];
    for (const { id, source } of found) if (!refs.has(`${leaf.component.id}|${id}`)) refs.set(`${leaf.component.id}|${id}`, { field_id: leaf.component.id, media_id: id, source });
  }
  return [...refs.values()];
}
