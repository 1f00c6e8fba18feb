import type { Clock } from "../../clock";
import { isoAt } from "../../clock";
import { chunk } from "../../db/chunks";
import { ANCHOR_CONDITION, anchorStatement } from "../../db/site-anchor";
import { controlDatabase, databaseByBinding, forgetSiteDatabases, isSiteDatabaseBinding, type DatabaseBindings } from "../../db/site-databases";
import { configCacheMs } from "../../public/config-cache";
import { RECORD_TABLES, REASSIGNED_COLUMNS, SITE_TABLES, WRITTEN_OUTSIDE_OBJECT } from "../../db/tables";
import { AppError } from "../../errors";

/** Rows read and written per batch: far below D1's statement and batch limits for any row we hold. */
export const MOVE_CHUNK_ROWS = 100;

export interface MoveAnswer {
  site_id: string;
  from: string;
  to: string;
  /** false when the site already lived in `to` (nothing copied or deleted). */
  moved: boolean;
  /** Rows copied per table (the site's rows in the source, verified in the target). */
  rows: Record<string, number>;
}

type Row = Record<string, unknown>;
type Verb = "INSERT" | "INSERT OR IGNORE" | "INSERT OR REPLACE";

const isRecord = (table: string) => (RECORD_TABLES as readonly string[]).includes(table);

/**
 * Moves a site's content from its database to another (docs/scale.md, "Moving a site"). The
 * caller runs it inside the site's object, under its write queue, so no write of the site that
 * goes through the object runs meanwhile; reads go on against the source until the map flips.
 *
 * 1. Clear any rows of the site the target still holds from an earlier attempt; write the site's
 *    foreign-key anchor there (a database other than the control one).
 * 2. Copy every row of the site's tables (SITE_TABLES, then RECORD_TABLES), parents first, in
 *    chunks of MOVE_CHUNK_ROWS, each chunk one batch.
 * 3. Verify: per table, the target holds as many of the site's rows as the source (records: at
 *    least as many, the control database also holds directory changes' records). A mismatch stops
 *    the move before the map changes (503 temporary_failure; a retry starts from step 1).
 * 4. Flip the map row (control database).
 * 5. Wait CONFIG_CACHE_MS, so every isolate's cached map answer names the target; copy again what
 *    is written outside the object (WRITTEN_OUTSIDE_OBJECT, replacing; records, keeping); then
 *    delete the site's content rows from the source (children first), the record rows copied
 *    (by key: a directory change's record written since stays where it is), and the anchor there.
 */
export async function moveSite(env: DatabaseBindings, clock: Clock, siteId: string, to: string): Promise<MoveAnswer> {
  if (!isSiteDatabaseBinding(to) || env[to] === undefined) {
    throw new AppError("unknown_database", `No site database is bound as "${to}".`, { binding: to });
  }
  const control = controlDatabase(env);
  const site = await control.prepare("SELECT id, default_lang FROM sites WHERE id = ?").bind(siteId).first<{ id: string; default_lang: string }>();
  if (!site) throw new AppError("not_found", "No such site.");
  // The map row itself, not this isolate's cached answer: the move is the one writer of it.
  const mapped = await control.prepare("SELECT binding FROM site_databases WHERE site_id = ?").bind(siteId).first<{ binding: string }>();
  const from = mapped?.binding ?? "DB";
  const source = databaseByBinding(env, from, siteId);
  const target = databaseByBinding(env, to, siteId);
  if (source === target) return { site_id: siteId, from, to, moved: false, rows: {} };

  // 1. A clean target, and its anchor.
  for (const table of [...SITE_TABLES].reverse()) await deleteSiteRows(target, table, siteId);
  if (target !== control) await anchorStatement(target, site, isoAt(clock.now())).run();

  // 2. Copy, parents first; the record rows' keys are kept to delete exactly those in step 5.
  const rows: Record<string, number> = {};
  const copiedRecords = new Map<string, unknown[][]>();
  for (const table of [...SITE_TABLES, ...RECORD_TABLES]) {
    const copied = await copyTable(source, target, table, siteId, isRecord(table) ? "INSERT OR IGNORE" : "INSERT");
    rows[table] = copied.count;
    if (isRecord(table)) copiedRecords.set(table, copied.keys);
  }

  // 3. Verify by row counts before anything points at the target.
  for (const table of [...SITE_TABLES, ...RECORD_TABLES]) {
    const [inSource, inTarget] = [await countRows(source, table, siteId), await countRows(target, table, siteId)];
    if (isRecord(table) ? inTarget < inSource : inTarget !== inSource) {
      throw new AppError("temporary_failure", `The copy of ${table} does not match the source (${inSource} rows, ${inTarget} copied); the site was not moved.`, { table });
    }
  }

  // 4. Flip.
  const at = isoAt(clock.now());
  await control
    .prepare("INSERT INTO site_databases (site_id, binding, created_at, moved_at) VALUES (?, ?, ?, ?) ON CONFLICT (site_id) DO UPDATE SET binding = excluded.binding, moved_at = excluded.moved_at")
    .bind(siteId, to, at, at)
    .run();
  forgetSiteDatabases();

  // 5. Readers holding the old answer keep finding the rows until their cache entry expires.
  const wait = configCacheMs(env);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  for (const table of WRITTEN_OUTSIDE_OBJECT) await copyTable(source, target, table, siteId, "INSERT OR REPLACE");
  for (const table of RECORD_TABLES) {
    const again = await copyTable(source, target, table, siteId, "INSERT OR IGNORE");
    copiedRecords.set(table, [...(copiedRecords.get(table) ?? []), ...again.keys]);
  }
  for (const table of [...SITE_TABLES].reverse()) await deleteSiteRows(source, table, siteId);
  for (const table of RECORD_TABLES) await deleteKeys(source, table, copiedRecords.get(table) ?? []);
  if (source !== control) await source.prepare(`DELETE FROM sites WHERE id = ? AND ${ANCHOR_CONDITION}`).bind(siteId).run();
  return { site_id: siteId, from, to, moved: true, rows };
}

/** Copies a site's rows of one table; answers how many, and their primary keys. */
async function copyTable(source: D1Database, target: D1Database, table: string, siteId: string, verb: Verb): Promise<{ count: number; keys: unknown[][] }> {
  const key = await primaryKey(source, table);
  const skip = new Set(REASSIGNED_COLUMNS[table] ?? []);
  const keys: unknown[][] = [];
  for (let offset = 0; ; offset += MOVE_CHUNK_ROWS) {
    const page = await source
      .prepare(`SELECT * FROM ${table} WHERE site_id = ? ORDER BY ${key.join(", ")} LIMIT ? OFFSET ?`)
      .bind(siteId, MOVE_CHUNK_ROWS, offset)
      .all<Row>();
    const found = page.results;
    if (found.length === 0) break;
    await target.batch(
      found.map((row) => {
        const columns = Object.keys(row).filter((c) => !skip.has(c));
        return target.prepare(`${verb} INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).bind(...columns.map((c) => row[c] ?? null));
      }),
    );
    for (const row of found) keys.push(key.map((c) => row[c] ?? null));
    if (found.length < MOVE_CHUNK_ROWS) break;
  }
  return { count: keys.length, keys };
}

/** A table's primary key columns (every table a move copies has one). */
export async function primaryKey(db: D1Database, table: string): Promise<string[]> {
  const info = await db.prepare(`PRAGMA table_info(${table})`).all<{ name: string; pk: number }>();
  const pk = info.results.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  if (pk.length === 0) throw new Error(`table ${table} has no primary key`);
  return pk;
}

async function countRows(db: D1Database, table: string, siteId: string): Promise<number> {
  return (await db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`).bind(siteId).first<{ n: number }>())?.n ?? 0;
}

/** Deletes a site's rows of one table in chunks (search_documents' triggers clear the FTS indexes). */
async function deleteSiteRows(db: D1Database, table: string, siteId: string): Promise<void> {
  const key = await primaryKey(db, table);
  const rowKey = key.length === 1 ? key[0] : `(${key.join(", ")})`;
  for (;;) {
    const done = await db
      .prepare(`DELETE FROM ${table} WHERE site_id = ? AND ${rowKey} IN (SELECT ${key.join(", ")} FROM ${table} WHERE site_id = ? LIMIT ?)`)
      .bind(siteId, siteId, MOVE_CHUNK_ROWS * 5)
      .run();
    if ((done.meta.changes ?? 0) === 0) break;
  }
}

/** Deletes exactly these rows (primary key tuples) of one table, in chunks within D1's bound-parameter limit. */
async function deleteKeys(db: D1Database, table: string, keys: readonly unknown[][]): Promise<void> {
  const key = await primaryKey(db, table);
  const tuple = key.length === 1 ? key[0] : `(${key.join(", ")})`;
  const one = key.length === 1 ? "?" : `(${key.map(() => "?").join(", ")})`;
  for (const part of chunk(keys, Math.floor(90 / key.length))) {
    const list = key.length === 1 ? part.map(() => one).join(", ") : `VALUES ${part.map(() => one).join(", ")}`;
    await db.prepare(`DELETE FROM ${table} WHERE ${tuple} IN (${list})`).bind(...part.flat()).run();
  }
}
