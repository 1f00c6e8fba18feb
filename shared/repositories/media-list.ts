import { sql, type CompiledQuery, type Kysely } from "kysely";
import type { Database } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";
import type { MediaRow } from "./media-repository";

/** Filters of GET /media (docs/media.md, "GET /api/manage/v1/media"). */
export interface MediaListFilter {
  kind?: string;
  /** A folder id, or null for Unfiled (no folder). */
  folderId?: string | null;
  /** Case-insensitive substring of the file name; `%`, `_` and `\` match themselves. */
  q?: string;
}

/** A LIKE pattern matching `text` literally anywhere (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of a site's media, newest first (`created_at`, then id, both descending), starting at
 * `from` (inclusive, the row a cursor names); `limit + 1` rows so the caller knows whether more follow.
 * SQLite's LIKE ignores case for ASCII letters only, as every name search of the service does.
 */
export function listMediaPage(
  db: Kysely<Database>,
  scope: SiteScope,
  filter: MediaListFilter,
  from: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<MediaRow[]> {
  const siteId = assertScope(scope);
  let query = db.selectFrom("media").selectAll().where("site_id", "=", siteId);
  if (filter.kind !== undefined) query = query.where("kind", "=", filter.kind as MediaRow["kind"]);
  if (filter.folderId === null) query = query.where("folder_id", "is", null);
  else if (filter.folderId !== undefined) query = query.where("folder_id", "=", filter.folderId);
  if (filter.q !== undefined) query = query.where(sql<boolean>`file_name LIKE ${containsPattern(filter.q)} ESCAPE '\\'`);
  if (from) query = query.where((eb) => eb.or([eb("created_at", "<", from.createdAt), eb.and([eb("created_at", "=", from.createdAt), eb("id", "<=", from.id)])]));
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit + 1).execute();
}

/**
 * The edit of one media row (PUT /media/{id}): the editable fields, revision and updated_at, only
 * while the row still has the revision the plan read (writes are serialised by the site's object,
 * so this guards against a writer outside it).
 */
export function mediaEditStatement(
  db: Kysely<Database>,
  scope: SiteScope,
  readRevision: number,
  next: Pick<MediaRow, "id" | "alt_texts" | "default_focal" | "crop" | "loading" | "fetch_priority" | "revision" | "updated_at">,
): CompiledQuery {
  const siteId = assertScope(scope);
  return db
    .updateTable("media")
    .set({ alt_texts: next.alt_texts, default_focal: next.default_focal, crop: next.crop, loading: next.loading, fetch_priority: next.fetch_priority, revision: next.revision, updated_at: next.updated_at })
    .where("site_id", "=", siteId)
    .where("id", "=", next.id)
    .where("revision", "=", readRevision)
    .compile();
}

/**
 * The replace of one media row's file (POST /media/{id}/replace): the new object and what the bytes
 * are, revision and updated_at, only while the row still has the revision the plan read. Metadata
 * (alt texts, framing, folder, tags, credit) is not touched.
 */
export function mediaReplaceStatement(
  db: Kysely<Database>,
  scope: SiteScope,
  readRevision: number,
  next: Pick<MediaRow, "id" | "object_key" | "file_name" | "mime_type" | "byte_length" | "sha256" | "width" | "height" | "revision" | "updated_at">,
): CompiledQuery {
  const siteId = assertScope(scope);
  return db
    .updateTable("media")
    .set({
      object_key: next.object_key,
      file_name: next.file_name,
      mime_type: next.mime_type,
      byte_length: next.byte_length,
      sha256: next.sha256,
      width: next.width,
      height: next.height,
      revision: next.revision,
      updated_at: next.updated_at,
    })
    .where("site_id", "=", siteId)
    .where("id", "=", next.id)
    .where("revision", "=", readRevision)
    .compile();
}
