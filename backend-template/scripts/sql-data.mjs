// data/*.json as rows to insert, tables in the order of schema.json (targets before their links).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export function dataTables(root) {
  const schema = JSON.parse(readFileSync(path.join(root, "schema.json"), "utf8"));
  return schema.tables.map((table) => {
    const file = path.join(root, "data", `${table}.json`);
    return { table, rows: existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [] };
  });
}

const literal = (value) => (value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`);
const ident = (name) => `"${name.replace(/"/g, '""')}"`;

/** INSERT statements of data/ (for wrangler d1 execute --file, which takes no parameters). */
export function dataSql(root) {
  // Parents may come after their children in id order: foreign keys are checked at the end.
  const lines = ["PRAGMA defer_foreign_keys = ON;"];
  for (const { table, rows } of dataTables(root)) {
    for (const row of rows) {
      const columns = Object.keys(row);
      lines.push(`INSERT INTO ${ident(table)} (${columns.map(ident).join(", ")}) VALUES (${columns.map((c) => literal(row[c])).join(", ")});`);
    }
  }
  return lines.join("\n") + "\n";
}
