/** One schema step of a Durable Object's SQLite storage. */
export interface Migration {
  /** Positive integer; steps are applied in ascending order, each at most once. */
  readonly version: number;
  /** One or more SQL statements, run as one `exec`. */
  readonly sql: string;
}

/** What {@link migrate} found and did. */
export interface MigrationReport {
  /** Highest version recorded before this call (0 for a new object). */
  from: number;
  /** Highest version recorded after this call. */
  to: number;
  /** Versions applied by this call, in order; empty when the storage was already current. */
  applied: number[];
}

/**
 * Brings `sql` up to the last of `migrations`, recording each applied version in
 * `schema_version`. Idempotent: versions already recorded are skipped, so it is safe to run in
 * every constructor.
 *
 * Durable Object SQLite refuses BEGIN/SAVEPOINT statements, so this function cannot open its own
 * transaction. Call it inside `storage.transactionSync` (or use {@link migrateStorage}) so that a
 * failing step rolls back together with its version row, instead of leaving a half-applied step
 * that the next start would try to apply again.
 *
 * A storage already ahead of the newest known version (code rolled back) is left alone rather
 * than refused: refusing would make the object unusable, and our migrations are additive.
 */
export function migrate(sql: SqlStorage, migrations: readonly Migration[]): MigrationReport {
  assertOrdered(migrations);
  sql.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL)",
  );
  const from = currentVersion(sql);
  // Each step is skipped only when its own version is recorded, not when a higher one is: numbers
  // are handed out per slice, so step 3 may ship after step 4 and must still run where 4 already did.
  const recorded = new Set(sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray().map((r) => r.version));
  const applied: number[] = [];
  for (const migration of migrations) {
    if (recorded.has(migration.version)) continue;
    sql.exec(migration.sql);
    // Wall time is only informational here; nothing reads applied_at back.
    sql.exec("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", migration.version, Date.now());
    applied.push(migration.version);
  }
  return { from, to: Math.max(from, applied.at(-1) ?? 0), applied };
}

/**
 * {@link migrate} inside `storage.transactionSync`, so the whole run commits or none of it does.
 * This is what a Durable Object constructor should call (within `blockConcurrencyWhile`).
 */
export function migrateStorage(storage: DurableObjectStorage, migrations: readonly Migration[]): MigrationReport {
  return storage.transactionSync(() => migrate(storage.sql, migrations));
}

/** Highest applied version, 0 when none (or before `schema_version` exists). */
export function schemaVersion(sql: SqlStorage): number {
  const exists = sql
    .exec<{ n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    .one().n;
  return exists === 0 ? 0 : currentVersion(sql);
}

function currentVersion(sql: SqlStorage): number {
  return sql.exec<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_version").one().v ?? 0;
}

// A mis-numbered list would silently skip steps on some objects and not others; fail loudly.
function assertOrdered(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const { version } of migrations) {
    if (!Number.isSafeInteger(version) || version <= previous) {
      throw new RangeError(`migration versions must be positive integers in ascending order; got ${version} after ${previous}`);
    }
    previous = version;
  }
}
