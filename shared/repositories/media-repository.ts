import type { CompiledQuery, Insertable, Kysely, Selectable } from "kysely";
import type { Database, MediaTable } from "../db/database";
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

    /** Whether a committed row points at this R2 key (an upload that failed must delete only an unused object). */
    objectKeyInUse: async (objectKey: string): Promise<boolean> =>
      (await db.selectFrom("media").select("id").where("site_id", "=", siteId).where("object_key", "=", objectKey).executeTakeFirst()) !== undefined,

    insert: (row: Omit<NewMediaRow, "site_id">): CompiledQuery => db.insertInto("media").values({ ...row, site_id: siteId }).compile(),
  };
}
