import type { CompiledQuery, Kysely } from "kysely";
import { guard } from "../db/batch";
import type { Database } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

/** One live use: a field of an entry's current or published version naming the file. */
export interface MediaUseRow {
  instance_id: string;
  field_id: string;
  model_id: string;
  lang: string;
  label: string | null;
  trashed_at: string | null;
  in_current: number;
  in_published: number;
}

/**
 * The condition "an entry's current or published version references the file", in SQL over
 * `media_usage u` joined to `entries e` (Trash entries included: a restore brings them back).
 */
const LIVE_USE = "(u.version_id = e.current_version_id OR u.version_id = e.published_version_id)";

/** The media usage index of one site (docs/media.md, "Usage"); reads go through idx_media_usage_media. */
export function mediaUsageRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /**
     * Live uses of a file, in instance id order, at most `limit` rows (one per instance, field and
     * version kind): read from the index, never from version bodies.
     */
    liveUses: (mediaId: string, limit: number): Promise<MediaUseRow[]> =>
      db
        .selectFrom("media_usage as u")
        .innerJoin("entries as e", (join) => join.onRef("e.site_id", "=", "u.site_id").onRef("e.instance_id", "=", "u.instance_id"))
        .select((eb) => [
          "u.instance_id",
          "u.field_id",
          "e.model_id",
          "e.lang",
          "e.label",
          "e.trashed_at",
          eb(eb.ref("u.version_id"), "=", eb.ref("e.current_version_id")).$castTo<number>().as("in_current"),
          eb(eb.ref("u.version_id"), "=", eb.ref("e.published_version_id")).$castTo<number>().as("in_published"),
        ])
        .where("u.site_id", "=", siteId)
        .where("u.media_id", "=", mediaId)
        .where((eb) => eb.or([eb("u.version_id", "=", eb.ref("e.current_version_id")), eb("u.version_id", "=", eb.ref("e.published_version_id"))]))
        .orderBy("u.instance_id")
        .orderBy("u.field_id")
        .limit(limit)
        .execute(),

    /** A batch guard: refuses the batch (`media_in_use`) when any live use of the file exists. */
    guardUnused: (mediaId: string): CompiledQuery =>
      guard(
        db,
        "media_in_use",
        `NOT EXISTS (SELECT 1 FROM media_usage u JOIN entries e ON e.site_id = u.site_id AND e.instance_id = u.instance_id WHERE u.site_id = ? AND u.media_id = ? AND ${LIVE_USE})`,
        [siteId, mediaId],
      ),

    /** Deletes every usage row naming the file (history versions' included), in a removal's batch. */
    deleteOf: (mediaId: string): CompiledQuery => db.deleteFrom("media_usage").where("site_id", "=", siteId).where("media_id", "=", mediaId).compile(),
  };
}
