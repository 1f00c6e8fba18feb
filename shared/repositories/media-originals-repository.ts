import type { CompiledQuery, Insertable, Kysely, Selectable } from "kysely";
import { guard } from "../db/batch";
import type { Database, MediaOriginalsTable } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

export type MediaOriginalRow = Selectable<MediaOriginalsTable>;

/** D1 binds at most 100 parameters per statement: `IN` lists are read in chunks (site id + 90 ids). */
const IN_CHUNK = 90;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Originals by language of one site's media items (docs/media.md, "Originals by language"): reads
 * execute, writes return compiled statements for the write's one batch.
 */
export function mediaOriginalsRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** The override of one item in one language, if any. */
    find: (mediaId: string, lang: string): Promise<MediaOriginalRow | undefined> =>
      db.selectFrom("media_originals").selectAll().where("site_id", "=", siteId).where("media_id", "=", mediaId).where("lang", "=", lang).executeTakeFirst(),

    /** The overrides of these items, by language within each item (unknown or other sites' ids give nothing). */
    ofMedia: async (mediaIds: readonly string[]): Promise<MediaOriginalRow[]> => {
      const unique = [...new Set(mediaIds)];
      const rows: MediaOriginalRow[] = [];
      for (const part of chunks(unique, IN_CHUNK)) {
        rows.push(
          ...(await db.selectFrom("media_originals").selectAll().where("site_id", "=", siteId).where("media_id", "in", part).orderBy("media_id").orderBy("lang").execute()),
        );
      }
      return rows;
    },

    /** Object keys of these items that published content pins (published_media): the publicly served ones. */
    pinnedKeys: async (mediaIds: readonly string[]): Promise<Set<string>> => {
      const keys = new Set<string>();
      for (const part of chunks([...new Set(mediaIds)], IN_CHUNK)) {
        const rows = await db.selectFrom("published_media").select("object_key").distinct().where("site_id", "=", siteId).where("media_id", "in", part).execute();
        for (const r of rows) keys.add(r.object_key);
      }
      return keys;
    },

    /**
     * Travels first in the write's batch: the language's override is still the one read (its object
     * key, or none when `readKey` is null), else the whole batch aborts as `media_changed`.
     */
    guardCurrent: (mediaId: string, lang: string, readKey: string | null): CompiledQuery =>
      readKey === null
        ? guard(db, "media_changed", "NOT EXISTS (SELECT 1 FROM media_originals WHERE site_id = ? AND media_id = ? AND lang = ?)", [siteId, mediaId, lang])
        : guard(db, "media_changed", "EXISTS (SELECT 1 FROM media_originals WHERE site_id = ? AND media_id = ? AND lang = ? AND object_key = ?)", [siteId, mediaId, lang, readKey]),

    /** The language's override now names this object (inserted, or the row replaced whole). */
    put: (row: Omit<Insertable<MediaOriginalsTable>, "site_id">): CompiledQuery =>
      db
        .insertInto("media_originals")
        .values({ ...row, site_id: siteId })
        .onConflict((oc) =>
          oc.columns(["site_id", "media_id", "lang"]).doUpdateSet({
            object_key: row.object_key,
            file_name: row.file_name,
            mime_type: row.mime_type,
            byte_length: row.byte_length,
            sha256: row.sha256,
            width: row.width ?? null,
            height: row.height ?? null,
            created_by: row.created_by ?? null,
            created_at: row.created_at,
          }),
        )
        .compile(),

    /** Removes the language's override (its object stays in R2 and in the ledger). */
    remove: (mediaId: string, lang: string): CompiledQuery =>
      db.deleteFrom("media_originals").where("site_id", "=", siteId).where("media_id", "=", mediaId).where("lang", "=", lang).compile(),
  };
}
