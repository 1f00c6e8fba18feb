import { AppError } from "../../shared/errors";
import type { Env } from "../../shared/env";
import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import { siteDatabaseBinding, siteScopedDatabase } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import { signingSecret } from "../../shared/public/signing-keys";
import { tokenModelIds } from "../../shared/public/site-tokens";
import { modelRepository } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { SYNC_RETENTION_DAYS } from "../../shared/services/sync/change-log";
import { decodeSyncCursor, encodeSyncCursor, type SyncCursor } from "../../shared/services/sync/sync-cursor";
import { checkNames, parseLimit } from "./params";
import type { PublicAnswer } from "./respond";

/**
 * GET /v1/_sync (docs/sync.md): a paged snapshot of every permitted published item language and
 * public media item, then the ordered changes since, from the change log written in the batch of
 * each write (migration 0043). Permitted: public models, plus the private models a site API token
 * names. Never cached: every answer is read fresh.
 */

export const SYNC_DEFAULT_PAGE = 100;
export const SYNC_MAX_PAGE = 200;

const RESET_BODY = '{"data":[],"reset":true,"next_cursor":null,"next_sync_cursor":null}';

/** The retention window in ms: SYNC_RETENTION_SECONDS (tests) or the documented 30 days. */
function retentionMs(env: Env): number {
  const seconds = Number(env.SYNC_RETENTION_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : SYNC_RETENTION_DAYS * 86_400_000;
}

interface Reader {
  /** Model ids whose items this reader gets, as a JSON array for `json_each`. */
  models: string;
  /** Digest of the token's private models ("" anonymous). */
  digest: string;
}

async function reader(d1: D1Database, site: Site, request: Request): Promise<Reader> {
  const models = await modelRepository(createDb(d1), siteScope(site.id)).list();
  const granted = new Set(await tokenModelIds(d1, site.id, request));
  const privateGranted = models.filter((m) => !m.is_public && granted.has(m.id)).map((m) => m.id).sort();
  const permitted = models.filter((m) => m.is_public || granted.has(m.id)).map((m) => m.id);
  return { models: JSON.stringify(permitted), digest: privateGranted.length === 0 ? "" : (await sha256Hex(privateGranted.join(","))).slice(0, 32) };
}

/** One record of a page, as JSON text (item bodies are served as stored, never re-parsed). */
type Record = string;

const entryRecord = (body: string) => `{"type":"entry","item":${body}}`;
const deletedRecord = (id: string, model: string | null, locale: string | null) => JSON.stringify({ type: "deleted", id, model, locale });

/** Media records of these ids as the reader may see them now: pinned by a permitted item, else deleted. */
async function mediaRecords(d1: D1Database, site: Site, who: Reader, ids: readonly string[]): Promise<Map<string, Record>> {
  const out = new Map<string, Record>();
  if (ids.length === 0) return out;
  const rows = await d1
    .prepare(
      `SELECT DISTINCT pm.media_id, pm.object_key, pm.file_name, m.kind, m.mime_type, m.width, m.height
       FROM published_media pm
       JOIN published_items pi ON pi.site_id = pm.site_id AND pi.instance_id = pm.instance_id
       LEFT JOIN media m ON m.site_id = pm.site_id AND m.id = pm.media_id
       WHERE pm.site_id = ? AND pm.media_id IN (SELECT value FROM json_each(?)) AND pi.model_id IN (SELECT value FROM json_each(?))
       ORDER BY pm.media_id, pm.object_key`,
    )
    .bind(site.id, JSON.stringify(ids), who.models)
    .all<{ media_id: string; object_key: string; file_name: string; kind: string | null; mime_type: string | null; width: number | null; height: number | null }>();
  const byId = new Map<string, { kind: string | null; mime_type: string | null; width: number | null; height: number | null; files: string[] }>();
  for (const row of rows.results) {
    const entry = byId.get(row.media_id) ?? { kind: row.kind, mime_type: row.mime_type, width: row.width, height: row.height, files: [] };
    const objectId = row.object_key.split("/").pop() ?? "";
    entry.files.push(`/media/${row.media_id}/${objectId}/${encodeURIComponent(row.file_name)}`);
    byId.set(row.media_id, entry);
  }
  for (const id of ids) {
    const found = byId.get(id);
    out.set(id, found ? JSON.stringify({ type: "media", id, kind: found.kind, mime_type: found.mime_type, width: found.width, height: found.height, files: found.files }) : JSON.stringify({ type: "media_deleted", id }));
  }
  return out;
}

/** The site's newest log position (0 before its first change). */
async function head(d1: D1Database, siteId: string): Promise<number> {
  const row = await d1.prepare("SELECT max(seq) AS seq FROM sync_changes WHERE site_id = ?").bind(siteId).first<{ seq: number | null }>();
  return row?.seq ?? 0;
}

interface Page {
  records: Record[];
  /** Where the next page starts; undefined when this page reached the end (of the snapshot or the log). */
  next?: SyncCursor;
  /** The cursor a caught-up client keeps. */
  end?: SyncCursor;
  reset?: true;
}

/** Snapshot pages: entries by instance id, then media by id; the last page hands over to the changes. */
async function snapshotPage(d1: D1Database, site: Site, who: Reader, from: SyncCursor, limit: number, now: number): Promise<Page> {
  const records: Record[] = [];
  let cursor = from;
  if (cursor.ph === "e") {
    const rows = await d1
      .prepare("SELECT instance_id, body FROM published_items WHERE site_id = ? AND model_id IN (SELECT value FROM json_each(?)) AND instance_id > ? ORDER BY instance_id LIMIT ?")
      .bind(site.id, who.models, cursor.a ?? "", limit + 1)
      .all<{ instance_id: string; body: string }>();
    const served = rows.results.slice(0, limit);
    records.push(...served.map((r) => entryRecord(r.body)));
    if (rows.results.length > limit) return { records, next: { ...cursor, a: served[served.length - 1]?.instance_id ?? "" } };
    cursor = { ...cursor, ph: "m" };
    delete cursor.a;
  }
  const room = limit - records.length;
  if (room > 0) {
    const rows = await d1
      .prepare(
        `SELECT DISTINCT pm.media_id FROM published_media pm JOIN published_items pi ON pi.site_id = pm.site_id AND pi.instance_id = pm.instance_id
         WHERE pm.site_id = ? AND pi.model_id IN (SELECT value FROM json_each(?)) AND pm.media_id > ? ORDER BY pm.media_id LIMIT ?`,
      )
      .bind(site.id, who.models, cursor.a ?? "", room + 1)
      .all<{ media_id: string }>();
    const ids = rows.results.slice(0, room).map((r) => r.media_id);
    const rendered = await mediaRecords(d1, site, who, ids);
    records.push(...ids.map((id) => rendered.get(id) ?? ""));
    if (rows.results.length > room) return { records, next: { ...cursor, a: ids[ids.length - 1] ?? "" } };
  } else {
    return { records, next: cursor };
  }
  // The snapshot is complete: changes continue after the position read before it started.
  const changes: SyncCursor = { ...cursor, ph: "c" };
  delete changes.a;
  return { records, end: { ...changes, t: Math.min(changes.t, now) } };
}

/** Change pages: the log after the cursor's position, in order. */
async function changesPage(d1: D1Database, site: Site, who: Reader, from: SyncCursor, limit: number, now: number): Promise<Page> {
  const reset = await d1.prepare("SELECT 1 AS r FROM sync_changes WHERE site_id = ? AND seq > ? AND kind = 'reset' LIMIT 1").bind(site.id, from.h).first();
  if (reset) return { records: [], reset: true };
  const permitted = new Set(JSON.parse(who.models) as string[]);
  const rows = await d1
    .prepare("SELECT seq, kind, ref_id, model_id, model_slug, lang, body FROM sync_changes WHERE site_id = ? AND seq > ? ORDER BY seq LIMIT ?")
    .bind(site.id, from.h, limit + 1)
    .all<{ seq: number; kind: string; ref_id: string; model_id: string | null; model_slug: string | null; lang: string | null; body: string | null }>();
  const page = rows.results.slice(0, limit);
  const mediaIds = [...new Set(page.filter((r) => r.kind === "media").map((r) => r.ref_id))];
  const media = await mediaRecords(d1, site, who, mediaIds);
  const records: Record[] = [];
  const mediaServed = new Set<string>();
  for (const row of page) {
    if (row.kind === "media") {
      // A media item's record is its state now: once per page is enough.
      if (mediaServed.has(row.ref_id)) continue;
      mediaServed.add(row.ref_id);
      records.push(media.get(row.ref_id) ?? "");
      continue;
    }
    if (row.model_id === null || !permitted.has(row.model_id)) continue;
    if (row.kind === "entry" && row.body !== null) records.push(entryRecord(row.body));
    else if (row.kind === "deleted") records.push(deletedRecord(row.ref_id, row.model_slug, row.lang));
  }
  const last = page[page.length - 1]?.seq ?? from.h;
  // A page with more behind it keeps the cursor's age (the rows after it are as old as they are);
  // a caught-up cursor is complete as of now.
  if (rows.results.length > limit) return { records, next: { ...from, h: last } };
  return { records, end: { ...from, h: last, t: now } };
}

function bad(message: string): AppError {
  return new AppError("invalid_request", message, { parameter: "cursor" });
}

/** GET /v1/_sync[?cursor=…][&limit=…] */
export async function readSync(env: Env, site: Site, request: Request, url: URL): Promise<PublicAnswer> {
  checkNames(url, ["cursor", "limit"]);
  const limitText = url.searchParams.get("limit");
  const limit = limitText === null ? SYNC_DEFAULT_PAGE : parseLimit(limitText, SYNC_MAX_PAGE);
  const cursorText = url.searchParams.get("cursor");
  const d1 = await siteScopedDatabase(env, site.id);
  const [who, binding, secret] = await Promise.all([reader(d1, site, request), siteDatabaseBinding(env, site.id), signingSecret(d1, "sync")]);
  const now = Date.now();
  const answer = (body: string): PublicAnswer => ({ body, tags: [], cacheable: false });

  let from: SyncCursor;
  if (cursorText === null) {
    // The position before the snapshot's first read: everything after it comes as changes.
    from = { v: 1, s: site.id, d: binding, p: who.digest, t: now, ph: "e", h: await head(d1, site.id) };
  } else {
    const decoded = cursorText.length > 0 && cursorText.length <= 4096 ? await decodeSyncCursor(secret, cursorText) : undefined;
    if (!decoded || decoded.s !== site.id) throw bad("This cursor is not a sync cursor of this site.");
    // Never a silent gap: another database, another reader, or a position older than the log keeps.
    if (decoded.d !== binding || decoded.p !== who.digest || now - decoded.t > retentionMs(env)) return answer(RESET_BODY);
    from = decoded;
  }
  const page = from.ph === "c" ? await changesPage(d1, site, who, from, limit, now) : await snapshotPage(d1, site, who, from, limit, now);
  if (page.reset) return answer(RESET_BODY);
  const next = page.next ? await encodeSyncCursor(secret, page.next) : null;
  const end = page.end ? await encodeSyncCursor(secret, page.end) : null;
  return answer(`{"data":[${page.records.join(",")}],"reset":false,"next_cursor":${JSON.stringify(next)},"next_sync_cursor":${JSON.stringify(end)}}`);
}
