import { sql, type Kysely } from "kysely";
import type { Database, EntryRow, NewEntryRow, VersionRow } from "../db/database";
import { compiledOnce } from "../db/compiled-once";
import { assertScope, type SiteScope } from "../db/site-scope";

/** Entries (language instances) and their immutable versions, always within one site. */
type NewVersion = Omit<VersionRow, "site_id" | "number">;

/** Every column a new version is written with (the type check below keeps it complete). */
const VERSION_COLUMNS = ["id", "instance_id", "slug", "label", "fields", "model_revision", "created_by", "created_via", "restored_from", "created_at"] as const;
const versionColumnsComplete: Exclude<keyof NewVersion, (typeof VERSION_COLUMNS)[number]> extends never ? true : false = true;
void versionColumnsComplete;

/**
 * A new version's INSERT, compiled once per isolate (db/compiled-once.ts; every create and save
 * writes one): numbered one past the instance's last, counted inside the write's batch.
 */
const versionInsert = compiledOnce([...VERSION_COLUMNS, "site_id"], (db, p) => {
  const values = Object.fromEntries(VERSION_COLUMNS.map((column) => [column, p(column)])) as unknown as NewVersion;
  const number = sql<number>`(SELECT coalesce(max(number), 0) + 1 FROM versions WHERE site_id = ${p("site_id")} AND instance_id = ${p("instance_id")})`;
  return [db.insertInto("versions").values({ ...values, number, site_id: p("site_id") }).compile()] as const;
});

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
    insertVersion(row: NewVersion) {
      return versionInsert(db, { ...row, site_id: siteId })[0];
    },
  };
}

export type EntryRepository = ReturnType<typeof entryRepository>;
