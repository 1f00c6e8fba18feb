import { isoAt, type Clock } from "../../clock";
import { ANCHOR_CONDITION } from "../../db/site-anchor";
import { controlDatabase, DEFAULT_SITE_DATABASE, forgetSiteDatabases, SITE_DATABASE_BINDINGS, type DatabaseBindings } from "../../db/site-databases";
import { RECORD_TABLES, SITE_TABLES } from "../../db/tables";
import { primaryKey } from "./site-move";

type Env = DatabaseBindings & { MEDIA: R2Bucket; OPS_DELETE_STEP_ROWS?: string };

/** Rows (and R2 objects) one delete request removes by default. */
export const DELETE_STEP_ROWS = 2000;
const CHUNK_ROWS = 500;

/** What a finished deletion removed (the receipt), or what a running one removed so far. */
export interface DeleteProgress {
  site_id: string;
  slug: string;
  state: "running" | "done";
  /** Rows removed per table, every database summed; `sites` counts the directory row and any anchor. */
  rows: Record<string, number>;
  objects: number;
  bytes: number;
  started_at: string;
  finished_at: string | null;
}

interface DeletionRow {
  site_id: string;
  slug: string;
  state: "running" | "done";
  rows: string;
  objects: number;
  bytes: number;
  started_at: string;
  finished_at: string | null;
}

/**
 * Children before parents, for the tables whose order matters (foreign keys); any other table with a
 * `site_id` column (a future one) comes first. `site_databases` is not here: it says where the
 * site's content is, so it goes in the last batch with the site's row.
 */
const ORDER = [
  ...RECORD_TABLES,
  ...[...SITE_TABLES].reverse(),
  "oauth_codes",
  "oauth_connections",
  "plugin_launch_codes",
  "plugin_delegations",
  "plugin_installations",
  "invitations",
  "memberships",
  "management_credentials",
  "site_api_tokens",
  "roles",
  "site_hosts",
];
const LAST = new Set(["site_databases"]);
/** The deletion's own row: the receipt, kept after the site is gone. */
const KEPT = new Set(["site_deletions"]);

function stepRows(env: Env): number {
  const n = Number(env.OPS_DELETE_STEP_ROWS);
  return Number.isInteger(n) && n > 0 ? n : DELETE_STEP_ROWS;
}

export function progressOf(row: DeletionRow): DeleteProgress {
  return { site_id: row.site_id, slug: row.slug, state: row.state, rows: JSON.parse(row.rows) as Record<string, number>, objects: row.objects, bytes: row.bytes, started_at: row.started_at, finished_at: row.finished_at };
}

export async function readDeletion(control: D1Database, ref: string): Promise<DeletionRow | null> {
  return control.prepare(`SELECT * FROM site_deletions WHERE ${ref.startsWith("site_") ? "site_id" : "slug"} = ? ORDER BY state = 'running' DESC, started_at DESC LIMIT 1`).bind(ref).first<DeletionRow>();
}

/** Starts (or finds) the deletion row of a site. */
export async function beginDeletion(control: D1Database, clock: Clock, site: { id: string; slug: string }): Promise<void> {
  await control
    .prepare("INSERT INTO site_deletions (site_id, slug, state, rows, objects, bytes, started_at, finished_at) VALUES (?, ?, 'running', '{}', 0, 0, ?, NULL) ON CONFLICT (site_id) DO NOTHING")
    .bind(site.id, site.slug, isoAt(clock.now()))
    .run();
}

/** A column definition named `site_id` in a table's CREATE statement (SQLite keeps it rewritten with every ALTER). */
const SITE_ID_COLUMN = /[(,]\s*site_id\s/;

/**
 * Every table with a `site_id` column, in deletion order, read from the schema (one query; D1 does
 * not allow pragma functions in a SELECT), so a table added later is not forgotten.
 */
async function siteTables(db: D1Database): Promise<string[]> {
  const found = (await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY name").all<{ name: string; sql: string }>()).results
    .filter((t) => SITE_ID_COLUMN.test(t.sql))
    .map((t) => t.name);
  const rank = (t: string) => (ORDER.includes(t) ? ORDER.indexOf(t) : -1);
  return found.filter((t) => !LAST.has(t) && !KEPT.has(t)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * One bounded share of a site's deletion (docs/site-delete.md), run by the site's object in its
 * write queue. In order, as far as `OPS_DELETE_STEP_ROWS` allows:
 *
 * 1. every database the deployment binds (a site's rows may sit in several: records of directory
 *    changes in the control database, leftovers of a move): each table with a `site_id` column,
 *    children first, in chunks by primary key; OAuth tokens (no `site_id`) through their connections;
 *    the search indexes follow `search_documents` by trigger; the site's copy rows (`site_copies`);
 * 2. its R2 objects, listed by the key prefix `<site id>/` (every object key starts so);
 * 3. `clearStorage` (the object's own storage), then one control batch: the map row, the site row,
 *    and the receipt. A site on another database loses its anchor row there first.
 *
 * Counts are added to the deletion row after each chunk, so an interrupted share loses none.
 */
export async function runDeleteStep(env: Env, clock: Clock, siteId: string, clearStorage: () => Promise<void>): Promise<DeleteProgress | null> {
  const control = controlDatabase(env);
  let row = await control.prepare("SELECT * FROM site_deletions WHERE site_id = ?").bind(siteId).first<DeletionRow>();
  if (!row) return null;
  if (row.state === "done") return progressOf(row);
  let budget = stepRows(env);
  const add = async (table: string, n: number, objects = 0, bytes = 0) => {
    if (n === 0 && objects === 0) return;
    await control
      .prepare("UPDATE site_deletions SET rows = json_set(rows, ?, COALESCE(json_extract(rows, ?), 0) + ?), objects = objects + ?, bytes = bytes + ? WHERE site_id = ?")
      .bind(`$.${table}`, `$.${table}`, n, objects, bytes, siteId)
      .run();
  };

  // 1. Rows, database by database (the control database last: its directory rows are parents).
  const databases = [...new Set(SITE_DATABASE_BINDINGS.filter((b) => b !== DEFAULT_SITE_DATABASE).map((b) => env[b]).filter((d): d is D1Database => d !== undefined)), control];
  for (const db of databases) {
    for (const table of await nonEmpty(db, await siteTables(db), siteId)) {
      if (table === "oauth_connections") {
        budget -= await deleteChunks(db, "oauth_tokens", "connection_id IN (SELECT id FROM oauth_connections WHERE site_id = ?)", [siteId], budget, add);
        if (budget <= 0) return progressNow(control, siteId);
      }
      budget -= await deleteChunks(db, table, "site_id = ?", [siteId], budget, add);
      if (budget <= 0) return progressNow(control, siteId);
    }
  }
  budget -= await deleteChunks(control, "site_copies", "template_id = ? OR target_id = ?", [siteId, siteId], budget, add);
  if (budget <= 0) return progressNow(control, siteId);

  // 2. R2 objects.
  for (;;) {
    const listed = await env.MEDIA.list({ prefix: `${siteId}/`, limit: Math.min(1000, budget) });
    if (listed.objects.length === 0) break;
    await env.MEDIA.delete(listed.objects.map((o) => o.key));
    await add("r2", 0, listed.objects.length, listed.objects.reduce((sum, o) => sum + o.size, 0));
    budget -= listed.objects.length;
    if (budget <= 0) return progressNow(control, siteId);
  }

  // 3. The object's storage, the anchors, the map and the site's row.
  await clearStorage();
  let anchors = 0;
  for (const db of databases) {
    if (db === control) continue;
    anchors += (await db.prepare(`DELETE FROM sites WHERE id = ? AND ${ANCHOR_CONDITION}`).bind(siteId).run()).meta.changes ?? 0;
  }
  const at = isoAt(clock.now());
  const maps = await control.prepare("SELECT COUNT(*) AS n FROM site_databases WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  const sites = await control.prepare("SELECT COUNT(*) AS n FROM sites WHERE id = ?").bind(siteId).first<{ n: number }>();
  row = (await control.prepare("SELECT * FROM site_deletions WHERE site_id = ?").bind(siteId).first<DeletionRow>()) as DeletionRow;
  const rows = JSON.parse(row.rows) as Record<string, number>;
  rows.site_databases = (rows.site_databases ?? 0) + (maps?.n ?? 0);
  rows.sites = (rows.sites ?? 0) + (sites?.n ?? 0) + anchors;
  delete rows.r2;
  await control.batch([
    control.prepare("DELETE FROM site_databases WHERE site_id = ?").bind(siteId),
    control.prepare("DELETE FROM sites WHERE id = ?").bind(siteId),
    control.prepare("UPDATE site_deletions SET state = 'done', rows = ?, finished_at = ? WHERE site_id = ?").bind(JSON.stringify(rows), at, siteId),
  ]);
  forgetSiteDatabases();
  return progressNow(control, siteId);
}

/** The tables holding rows of the site, in order: one counting query per database rather than a delete per table. */
async function nonEmpty(db: D1Database, tables: string[], siteId: string): Promise<string[]> {
  if (tables.length === 0) return [];
  // One row, a column per table (D1 caps the terms of a compound SELECT, not the columns of one).
  const found = await db
    .prepare(`SELECT ${tables.map((t) => `EXISTS (SELECT 1 FROM ${t} WHERE site_id = ?1) AS "${t}"`).join(", ")}`)
    .bind(siteId)
    .first<Record<string, number>>();
  const held = new Set(tables.filter((t) => (found?.[t] ?? 0) > 0));
  return tables.filter((t) => held.has(t));
}

async function progressNow(control: D1Database, siteId: string): Promise<DeleteProgress> {
  const row = await control.prepare("SELECT * FROM site_deletions WHERE site_id = ?").bind(siteId).first<DeletionRow>();
  if (!row) throw new Error("site deletion row vanished");
  const progress = progressOf(row);
  delete progress.rows.r2;
  return progress;
}

/** Deletes the rows of `table` matching `where` in chunks by primary key; answers how many. */
async function deleteChunks(db: D1Database, table: string, where: string, params: unknown[], budget: number, add: (table: string, n: number) => Promise<void>): Promise<number> {
  const key = await primaryKey(db, table).catch(() => ["rowid"]);
  const rowKey = key.length === 1 ? key[0] : `(${key.join(", ")})`;
  let removed = 0;
  while (removed < budget) {
    const limit = Math.min(CHUNK_ROWS, budget - removed);
    // RETURNING counts this table's rows only (meta.changes also counts what triggers removed: the search indexes).
    const done = await db.prepare(`DELETE FROM ${table} WHERE ${rowKey} IN (SELECT ${key.join(", ")} FROM ${table} WHERE ${where} LIMIT ?) RETURNING 1 AS gone`).bind(...params, limit).all();
    const n = done.results.length;
    removed += n;
    await add(table, n);
    if (n < limit) break;
  }
  return removed;
}
