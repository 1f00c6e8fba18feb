import type { Kysely } from "kysely";
import { localeChain, type SiteSettings } from "../../content/site-settings";
import type { Database } from "../../db/database";
import type { SiteScope } from "../../db/site-scope";
import { mediaOriginalsRepository, type MediaOriginalRow } from "../../repositories/media-originals-repository";
import { objectFacts, type FileFacts, type ObjectFacts } from "./media-permission";
import { objectIdOf } from "./object-keys";

/**
 * One original of a media item (spec 2 rule 7): the item's own file (the default original, `lang`
 * null) or a language's override. Plain data: what the management answer, the public snapshot and
 * delivery need to name and serve it.
 */
export interface OriginalFile extends FileFacts {
  /** null for the default original (the item's own file). */
  lang: string | null;
  object_key: string;
}

/** An original as the management API shows it (spec 2, Resources: "Originals by language"). */
export interface OriginalView extends FileFacts {
  /** The object id (the R2 key's last segment): what `expected_object_id` names. */
  id: string;
  lang: string | null;
  /** The public delivery address, or null while the object is private (not served). */
  url: string | null;
}

/** Which original a language resolves to: the original, and the language of the override used (null: the default). */
export interface ResolvedOriginal<T> {
  original: T;
  from_lang: string | null;
}

/**
 * The original for a language (spec 2 rule 7), pure: the first language of `languageChain` (the
 * language itself, then the site's fallback order — `localeChain`) that has an override, else the
 * default original.
 */
export function originalFor<T>(languageChain: readonly string[], overrides: ReadonlyMap<string, T>, defaultOriginal: T): ResolvedOriginal<T> {
  for (const lang of languageChain) {
    const found = overrides.get(lang);
    if (found !== undefined) return { original: found, from_lang: lang };
  }
  return { original: defaultOriginal, from_lang: null };
}

/** A file as the original of `lang` (null: the default). */
function originalFile(lang: string | null, row: ObjectFacts): OriginalFile {
  return { lang, ...objectFacts(row) };
}

/** The item's own file as its default original. */
export function defaultOriginalOf(row: ObjectFacts): OriginalFile {
  return originalFile(null, row);
}

/** A language's override row as an original. */
export function overrideOriginal(row: MediaOriginalRow): OriginalFile {
  return originalFile(row.lang, row);
}

/**
 * The public delivery address of one object of an item: `/media/{media id}/{object id}/{file name}`
 * (versioned by object, so a pinned object keeps its address after a replace).
 */
export function originalUrl(mediaId: string, file: Pick<OriginalFile, "object_key" | "file_name">): string {
  return `/media/${mediaId}/${objectIdOf(file.object_key)}/${encodeURIComponent(file.file_name)}`;
}

/**
 * An original as the management API shows it. `publicKeys` are the objects publicly served (pinned by
 * published content, `published_media`); any other object is private and has no `url`.
 */
export function originalView(mediaId: string, file: OriginalFile, publicKeys: ReadonlySet<string>): OriginalView {
  return {
    id: objectIdOf(file.object_key),
    lang: file.lang,
    url: publicKeys.has(file.object_key) ? originalUrl(mediaId, file) : null,
    file_name: file.file_name,
    mime_type: file.mime_type,
    byte_length: file.byte_length,
    sha256: file.sha256,
    width: file.width,
    height: file.height,
  };
}

/**
 * The overrides of these items, by media id then language (one read, chunked; another site's ids
 * give nothing). For the public snapshot: with the item's row as the default,
 * `originalFor(localeChain(site, lang), originalsOf(…).get(id) ?? new Map(), defaultOriginalOf(row))`.
 */
export async function originalsOf(ctx: { db: Kysely<Database>; scope: SiteScope }, mediaIds: readonly string[]): Promise<Map<string, Map<string, OriginalFile>>> {
  const out = new Map<string, Map<string, OriginalFile>>();
  if (mediaIds.length === 0) return out;
  for (const row of await mediaOriginalsRepository(ctx.db, ctx.scope).ofMedia(mediaIds)) {
    let byLang = out.get(row.media_id);
    if (!byLang) out.set(row.media_id, (byLang = new Map()));
    byLang.set(row.lang, overrideOriginal(row));
  }
  return out;
}

/** Per language of the site, in the site's order: the original it resolves to (object id) and the override's language used. */
export function originalsByLanguage(
  site: { default_lang: string; languages: readonly string[]; settings: SiteSettings },
  overrides: ReadonlyMap<string, OriginalFile>,
  defaultOriginal: OriginalFile,
): { lang: string; id: string; from_lang: string | null }[] {
  return site.languages.map((lang) => {
    const resolved = originalFor(localeChain(site, lang), overrides, defaultOriginal);
    return { lang, id: objectIdOf(resolved.original.object_key), from_lang: resolved.from_lang };
  });
}
