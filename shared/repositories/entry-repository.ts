import { sql, type Kysely } from "kysely";
import type { Database, EntryRow, NewEntryRow, VersionRow } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

/** Entries (language instances) and their immutable versions, always within one site. */
export function entryRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    siteId,
    find(instanceId: string): Promise<EntryRow | undefined> {
      return db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("instance_id", "=", instanceId).executeTakeFirst();
    },
    findGroup(groupId: string): Promise<EntryRow[]> {
      return db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("translation_group_id", "=", groupId).execute();
    },
    findMany(instanceIds: readonly string[]): Promise<EntryRow[]> {
      if (instanceIds.length === 0) return Promise.resolve([]);
      return db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("instance_id", "in", [...instanceIds]).execute();
    },
    findBySlug(modelId: string, lang: string, slug: string): Promise<EntryRow | undefined> {
      return db
        .selectFrom("entries")
        .selectAll()
        .where("site_id", "=", siteId)
        .where("model_id", "=", modelId)
        .where("lang", "=", lang)
        .where("slug", "=", slug)
        .where("trashed_at", "is", null)
        .executeTakeFirst();
    },
    countByModel(modelId: string): Promise<number> {
      return db
        .selectFrom("entries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("site_id", "=", siteId)
        .where("model_id", "=", modelId)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    findVersion(versionId: string): Promise<VersionRow | undefined> {
      return db.selectFrom("versions").selectAll().where("site_id", "=", siteId).where("id", "=", versionId).executeTakeFirst();
    },
    listVersions(instanceId: string): Promise<VersionRow[]> {
      return db
        .selectFrom("versions")
        .selectAll()
        .where("site_id", "=", siteId)
        .where("instance_id", "=", instanceId)
        .orderBy("number", "desc")
        .execute();
    },
    insert(row: Omit<NewEntryRow, "site_id">) {
      return db.insertInto("entries").values({ ...row, site_id: siteId }).compile();
    },
    /**
     * A new version numbered one past the instance's last, counted inside the write's batch: no
     * read before the batch, and the number is right even when an earlier statement of the same
     * batch wrote a version.
     */
    insertVersion(row: Omit<VersionRow, "site_id" | "number">) {
      const number = sql<number>`(SELECT coalesce(max(number), 0) + 1 FROM versions WHERE site_id = ${siteId} AND instance_id = ${row.instance_id})`;
      return db.insertInto("versions").values({ ...row, number, site_id: siteId }).compile();
    },
  };
}

export type EntryRepository = ReturnType<typeof entryRepository>;
