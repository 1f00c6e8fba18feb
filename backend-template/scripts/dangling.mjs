// The relation_ids_dangling check (spec 3, "Generation and deployment refusals"): every id a link
// column of data/ names must be a row of its target table. Used by `npm run check`, `db:init` and
// `deploy` before anything is written.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Dangling links of data/: [{ model, table, column, row, missing }]. */
export function danglingIds(root) {
  const schema = JSON.parse(readFileSync(path.join(root, "schema.json"), "utf8"));
  const rowsOf = (table) => {
    const file = path.join(root, "data", `${table}.json`);
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
  };
  const ids = new Map();
  const idsOf = (table) => {
    if (!ids.has(table)) ids.set(table, new Set(rowsOf(table).map((row) => row.id)));
    return ids.get(table);
  };
  const found = [];
  for (const link of schema.links) {
    for (const row of rowsOf(link.table)) {
      const value = row[link.column];
      if (value === null || value === undefined) continue;
      if (!idsOf(link.references).has(value)) {
        found.push({ model: link.model, table: link.table, column: link.column, row: row.id ?? `${row.owner_id}#${row.position}`, missing: `${link.references}:${value}` });
      }
    }
  }
  return found;
}

/** Prints the dangling ids and exits 1 when there are some. */
export function refuseDangling(root) {
  const found = danglingIds(root);
  if (found.length === 0) return;
  process.stderr.write(`relation_ids_dangling: ${found.length} link(s) name rows that do not exist\n`);
  for (const item of found) process.stdout.write(`${item.model}\t${item.column}\t${item.row}\t${item.missing}\n`);
  process.exit(1);
}
