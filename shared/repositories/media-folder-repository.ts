import { type CompiledQuery, type Insertable, type Kysely, type Selectable } from "kysely";
import type { Database, MediaFoldersTable } from "../db/database";
import { chunk, D1_MAX_PARAMETERS } from "../db/chunks";
import { assertScope, type SiteScope } from "../db/site-scope";
import type { MediaRow } from "./media-repository";

export type MediaFolderRow = Selectable<MediaFoldersTable>;
export type NewMediaFolderRow = Insertable<MediaFoldersTable>;

/**
 * The ids of a folder and every folder below it, as SQL (a recursive CTE), so a remove never binds
 * hundreds of ids. Parameters: site id, folder id, site id.
 */
const SUBTREE_IDS = `WITH RECURSIVE sub(id) AS (
  SELECT id FROM media_folders WHERE site_id = ? AND id = ?
  UNION ALL SELECT f.id FROM media_folders f JOIN sub ON f.parent_id = sub.id WHERE f.site_id = ?
) SELECT id FROM sub`;

/** Media folders of one site (docs/media.md, "Folders"): reads execute, writes return compiled statements. */
export function mediaFolderRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** Every folder of the site (at most 500). */
    all: (): Promise<MediaFolderRow[]> =>
      db.selectFrom("media_folders").selectAll().where("site_id", "=", siteId).orderBy("name_key", "asc").orderBy("id", "asc").execute(),

    findById: (id: string): Promise<MediaFolderRow | undefined> =>
      db.selectFrom("media_folders").selectAll().where("site_id", "=", siteId).where("id", "=", id).executeTakeFirst(),

    /** Media per folder id (null: Unfiled). */
    mediaCounts: async (): Promise<Map<string | null, number>> => {
      const rows = await db.selectFrom("media").select(["folder_id", db.fn.countAll<number>().as("n")]).where("site_id", "=", siteId).groupBy("folder_id").execute();
      return new Map(rows.map((r) => [r.folder_id, Number(r.n)]));
    },

    insert: (row: Omit<NewMediaFolderRow, "site_id">): CompiledQuery => db.insertInto("media_folders").values({ ...row, site_id: siteId }).compile(),

    /** Rename and/or move, only at the revision the caller saw (a later guard names the refusal). */
    update: (id: string, revision: number, set: { name: string; name_key: string; parent_id: string | null; updated_at: string }): CompiledQuery =>
      db.updateTable("media_folders").set({ ...set, revision: revision + 1 }).where("site_id", "=", siteId).where("id", "=", id).where("revision", "=", revision).compile(),

    /** Files of the folder and every folder below become Unfiled (spec 2 rule 4); run before {@link removeSubtree}. */
    unfileSubtree: (id: string, at: string): CompiledQuery =>
      subtreeStatement(db, `UPDATE media SET folder_id = NULL, updated_at = ? WHERE site_id = ? AND folder_id IN (${SUBTREE_IDS})`, [at, siteId, siteId, id, siteId]),

    removeSubtree: (id: string): CompiledQuery => subtreeStatement(db, `DELETE FROM media_folders WHERE site_id = ? AND id IN (${SUBTREE_IDS})`, [siteId, siteId, id, siteId]),

    /** The site's media rows among these ids (a move's files; another site's ids never match). */
    mediaByIds: async (ids: readonly string[]): Promise<MediaRow[]> => {
      const rows: MediaRow[] = [];
      for (const part of chunk(ids, D1_MAX_PARAMETERS - 1)) {
        rows.push(...(await db.selectFrom("media").selectAll().where("site_id", "=", siteId).where("id", "in", part).execute()));
      }
      return rows;
    },

    /** Moves files (logical: the row's folder only), in chunks that respect D1's parameter bound. */
    moveMedia: (ids: readonly string[], folderId: string | null, at: string): CompiledQuery[] =>
      chunk(ids, D1_MAX_PARAMETERS - 4).map((part) =>
        db.updateTable("media").set({ folder_id: folderId, updated_at: at }).where("site_id", "=", siteId).where("id", "in", part).compile(),
      ),
  };
}

function subtreeStatement(db: Kysely<Database>, text: string, parameters: unknown[]): CompiledQuery {
  const compiled = db.selectFrom("media_folders").select("id").compile();
  return { ...compiled, sql: text, parameters };
}
