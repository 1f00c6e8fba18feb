#!/usr/bin/env node
// npm run db:init: the dangling check, then the embedded database at DATABASE_FILE (default
// ./data/site.db) with every migration applied and data/ loaded, in one transaction.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "libsql";
import { refuseDangling } from "./dangling.mjs";
import { dataTables } from "./sql-data.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = path.resolve(process.env.DATABASE_FILE ?? path.join(root, "data", "site.db"));
refuseDangling(root);
if (existsSync(file)) {
  if (!process.argv.includes("--force")) {
    process.stderr.write(`${file} exists: run with --force to replace it.\n`);
    process.exit(1);
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
}
mkdirSync(path.dirname(file), { recursive: true });
const db = new Database(file);
db.exec("PRAGMA foreign_keys = ON;");
const migrations = readdirSync(path.join(root, "migrations")).filter((name) => name.endsWith(".sql")).sort();
db.exec("BEGIN");
try {
  // Parents may come after their children in id order: foreign keys are checked at COMMIT.
  db.exec("PRAGMA defer_foreign_keys = ON;");
  for (const name of migrations) db.exec(readFileSync(path.join(root, "migrations", name), "utf8"));
  let count = 0;
  for (const { table, rows } of dataTables(root)) {
    for (const row of rows) {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...columns.map((c) => row[c]));
      count += 1;
    }
  }
  db.exec("COMMIT");
  process.stdout.write(`db:init: ${file} with ${migrations.length} migration(s) and ${count} row(s)\n`);
} catch (error) {
  db.exec("ROLLBACK");
  process.stderr.write(`db:init failed, nothing kept: ${error instanceof Error ? error.message : String(error)}\n`);
  rmSync(file, { force: true });
  process.exit(1);
}
