import { sql, type CompiledQuery, type Insertable, type Kysely, type Selectable } from "kysely";
import { guard } from "../db/batch";
import type { Database, MediaObjectsTable, MediaTable } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;

/** The media library's rows of one site: reads execute, writes return compiled statements for a batch. */
export function mediaRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    findById: (id: string): Promise<MediaRow | undefined> =>
      db.selectFrom("media").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst(),

    /** Items holding exactly these bytes, oldest first (spec 2 rule 3 names the oldest). */
    findBySha256: (sha256: string): Promise<MediaRow[]> =>
      db.selectFrom("media").selectAll().where("site_id", "=", siteId).where("sha256", "=", sha256).orderBy("created_at", "asc").orderBy("id", "asc").execute(),

    /**
     * Whether a committed write recorded this R2 key in the object ledger (an upload that failed must
     * delete only an object no row knows; the ledger also knows superseded files and originals).
     */
    objectKeyInUse: async (objectKey: string): Promise<boolean> =>
      (await db.selectFrom("media_objects").select("object_key").where("site_id", "=", siteId).where("object_key", "=", objectKey).executeTakeFirst()) !==
      undefined,

    /** Whether a published item pins this R2 key (published_media): a removal's cleanup leaves it. */
    objectKeyPinned: async (objectKey: string): Promise<boolean> =>
      (await db.selectFrom("published_media").select("object_key").where("site_id", "=", siteId).where("object_key", "=", objectKey).executeTakeFirst()) !==
      undefined,

    /**
     * A removal's statements, guarded on the revision read (else the batch is `media_changed`): the
     * row and its object ledger rows. Folder counts are counted from rows, so they drop with it.
     */
    removeStatements: (mediaId: string, revision: number): CompiledQuery[] => [
      guard(db, "media_changed", "EXISTS (SELECT 1 FROM media WHERE site_id = ? AND id = ? AND revision = ?)", [siteId, mediaId, revision]),
      db.deleteFrom("media").where("site_id", "=", siteId).where("id", "=", mediaId).compile(),
      db.deleteFrom("media_objects").where("site_id", "=", siteId).where("media_id", "=", mediaId).compile(),
      // Its originals by language go with it (their objects are in the ledger, deleted after the commit).
      db.deleteFrom("media_originals").where("site_id", "=", siteId).where("media_id", "=", mediaId).compile(),
    ],

    /** Every object this item has had (its file now and before replaces, its originals): what a removal deletes. */
    objectKeysOf: async (mediaId: string): Promise<string[]> =>
      (await db.selectFrom("media_objects").select("object_key").where("site_id", "=", siteId).where("media_id", "=", mediaId).execute()).map(
        (r) => r.object_key,
      ),

    /**
     * Records the item's current file in the ledger, placed after the statement that writes the row:
     * it copies the row as committed, so a guarded update that wrote nothing records nothing.
     */
    recordCurrentFile: (mediaId: string): CompiledQuery =>
      db
        .insertInto("media_objects")
        .columns(["object_key", "site_id", "media_id", "role", "lang", "byte_length", "mime_type", "created_at", "file_name"])
        .expression(
          db
            .selectFrom("media")
            .select(["object_key", "site_id", "id", sql.lit("file").as("role"), sql.lit(null).as("lang"), "byte_length", "mime_type", "updated_at", "file_name"])
            .where("site_id", "=", siteId)
            .where("id", "=", mediaId),
        )
        .onConflict((oc) => oc.column("object_key").doNothing())
        .compile(),

    /** Records an object that no media row names (an original by language) in the write's batch. */
    recordObject: (row: Omit<Insertable<MediaObjectsTable>, "site_id">): CompiledQuery =>
      db.insertInto("media_objects").values({ ...row, site_id: siteId }).compile(),

    insert: (row: Omit<NewMediaRow, "site_id">): CompiledQuery => db.insertInto("media").values({ ...row, site_id: siteId }).compile(),
  };
}
