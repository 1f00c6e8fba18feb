import { env, type D1Migration } from "cloudflare:test";

/**
 * Every migration in one D1 batch per database, recorded in `d1_migrations` like wrangler and the
 * pool's `applyD1Migrations` do (same table, same rows), but one batch instead of one per
 * migration: a fresh runtime has none applied, and ≈ 50 batches per database were most of a
 * group's set-up time (docs/testing.md). Each migration was already one batch (a transaction);
 * here the whole list is one.
 */
async function applyMigrations(db: D1Database, migrations: D1Migration[]): Promise<void> {
  await db.prepare("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)").run();
  const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((row) => row.name));
  const record = db.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
  const statements = migrations.filter((m) => !applied.has(m.name)).flatMap((m) => [...m.queries.map((query) => db.prepare(query)), record.bind(m.name)]);
  if (statements.length > 0) await db.batch(statements);
}

// Every site database gets every migration (docs/scale.md, "More than one database"). This file
// runs before every test file, and the files of a group share one runtime and its databases
// (vitest.config.ts, `isolate: false`): the first file of a runtime applies them, the others find
// the promise on the runtime's global and ask nothing.
const runtime = globalThis as { driftwoodMigrationsApplied?: Promise<void> };
runtime.driftwoodMigrationsApplied ??= (async () => {
  await applyMigrations(env.DB, env.TEST_MIGRATIONS);
  await applyMigrations(env.DB_2, env.TEST_MIGRATIONS);
})();
await runtime.driftwoodMigrationsApplied;
