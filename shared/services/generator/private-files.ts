/**
 * Private files in the emitted project (docs/generated-backend.md, "Private files"): the media a
 * published value holds in a private media field or a private rich text (library images) never get a
 * public address; their rows carry `private-file:<object key>` markers and the generator copies the
 * bytes into the project's `private-files/` folder (a file per key and `<key>.meta.json` with its
 * content type and file name), from which `npm run dev:worker` and `npm run deploy` fill the
 * PRIVATE_FILES bucket and the local server reads through PRIVATE_FILES_DIRECTORY.
 */
import type { FieldDefinition } from "../../../schema/model-definition";
import type { ArchiveFile } from "./archive";
import { isPrivateField, type ModelPlan } from "./plan";
import type { PublishedItem } from "./types";

/** A private media item as the emitted project stores it. */
export interface PrivateMedia {
  object_key: string;
  mime_type: string;
  file_name: string;
}

export const PRIVATE_FILE_MARKER = "private-file:";
export const PRIVATE_FILES_FOLDER = "private-files";

const DATA_MEDIA = /<img\b[^>]*\sdata-media="(med_[A-Za-z0-9_-]+)"[^>]*>/gi;

/** Media ids a private field's value holds: the media field's ids, or the library images of a rich text. */
export function privateMediaIds(field: FieldDefinition, value: unknown): string[] {
  if (!isPrivateField(field) || value === null || value === undefined) return [];
  if (field.type === "media") return (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === "string");
  if (field.type === "rich_text" && typeof value === "string") return [...value.matchAll(DATA_MEDIA)].map((match) => match[1] as string);
  return [];
}

/** Every media id of the published items held by private media and rich text fields, sorted. */
export function collectPrivateMediaIds(plans: readonly ModelPlan[], items: readonly PublishedItem[]): string[] {
  const ids = new Set<string>();
  for (const item of items) {
    const plan = plans.find((p) => p.model.id === item.model_id);
    if (plan === undefined) continue;
    for (const language of item.languages) for (const field of plan.fields) for (const id of privateMediaIds(field, language.values[field.id])) ids.add(id);
  }
  return [...ids].sort();
}

/** A private rich text with each library image's `src` replaced by its marker (or emptied when its media is gone). */
export function markPrivateRichText(html: string, media: ReadonlyMap<string, PrivateMedia>): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const id = /\sdata-media="([^"]*)"/i.exec(tag)?.[1];
    if (id === undefined) return tag;
    const known = media.get(id);
    const src = known === undefined ? "" : `${PRIVATE_FILE_MARKER}${known.object_key}`;
    return /\ssrc="[^"]*"/i.test(tag) ? tag.replace(/(\ssrc=")[^"]*(")/i, `$1${src}$2`) : tag.replace(/^<img\b/i, `<img src="${src}"`);
  });
}

/** The archive entries of the private files: bytes read through `read` (the CMS's media bucket), sorted by key. */
export async function privateFileEntries(media: ReadonlyMap<string, PrivateMedia>, read: (key: string) => Promise<Uint8Array | null>): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  for (const item of [...media.values()].sort((a, b) => (a.object_key < b.object_key ? -1 : 1))) {
    const bytes = await read(item.object_key);
    if (bytes === null) continue; // the object is gone from storage: the route answers 404 for it
    files.push({ path: `${PRIVATE_FILES_FOLDER}/${item.object_key}`, content: bytes });
    files.push({ path: `${PRIVATE_FILES_FOLDER}/${item.object_key}.meta.json`, content: `${JSON.stringify({ content_type: item.mime_type, file_name: item.file_name })}\n` });
  }
  return files;
}
