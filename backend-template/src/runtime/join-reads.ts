/**
 * The join tables' three reads (spec 3: "Join tables expose only the three reads";
 * docs/generated-backend.md, "Relations"): `GET /api/<owner>_<field>[_<target>]` (findMany),
 * `/paginated` and `/unique`, with the row routes' query language over `owner_id`, `target_id`,
 * `position` and, for a per-language list, `lang`. Rows come in list order: owner, language, position.
 */
import { invalid } from "./errors.js";
import { count, MAX_TAKE, selectedColumns, whereExpr } from "./query.js";
import type { JoinTable } from "./join-tables.js";
import type { AnyDb } from "./rows.js";
import type { ColumnSchema, Operation } from "./schema-types.js";
import { isPlainObject, presentRow, toDb } from "./values.js";

/** The columns naming one join row: the owner, the language of a per-language list, the target. */
const keyColumns = (join: JoinTable): string[] => (join.rel.localized ? ["owner_id", "lang", "target_id"] : ["owner_id", "target_id"]);

function orderOf(join: JoinTable, orderBy: unknown): { column: string; direction: "asc" | "desc" }[] {
  const list = orderBy === undefined ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  const terms = list.map((item, index) => {
    const at = Array.isArray(orderBy) ? `orderBy[${index}]` : "orderBy";
    if (!isPlainObject(item) || Object.keys(item).length !== 1) throw invalid(`${at} must be an object with one column.`, at);
    const [name, direction] = Object.entries(item)[0] as [string, unknown];
    if (!join.model.columns.some((c) => c.name === name)) throw invalid(`${at}.${name}: "${name}" is not a column of ${join.table}.`, `${at}.${name}`);
    if (direction !== "asc" && direction !== "desc") throw invalid(`${at}.${name} must be "asc" or "desc".`, `${at}.${name}`);
    return { column: name, direction: direction as "asc" | "desc" };
  });
  // List order last, so pages are stable: owner, language, position (then target: one row each).
  for (const column of ["owner_id", ...(join.rel.localized ? ["lang"] : []), "position", "target_id"]) if (!terms.some((t) => t.column === column)) terms.push({ column, direction: "asc" });
  return terms;
}

/** Query parameters as arguments, as the row routes read them: URL-encoded JSON, each at most once. */
function joinArgs(url: URL, allowed: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    if (!allowed.includes(name)) throw invalid(`${name} is not an argument here (${allowed.join(", ")}).`, name);
    const values = url.searchParams.getAll(name);
    if (values.length > 1) throw invalid(`${name} is given more than once.`, name);
    try {
      args[name] = JSON.parse(values[0] ?? "") as unknown;
    } catch {
      throw invalid(`${name} must be URL-encoded JSON.`, name);
    }
  }
  return args;
}

/** Runs one of the three reads on a join table. */
export async function joinRead(db: AnyDb, join: JoinTable, operation: Operation, url: URL): Promise<unknown> {
  const args = joinArgs(url, operation === "findUnique" ? ["where", "select"] : ["where", "orderBy", "take", "skip", "select"]);
  const columns = selectedColumns(join.model, args.select, true);
  if (operation === "findUnique") {
    const where = args.where;
    const keys = keyColumns(join);
    if (!isPlainObject(where) || Object.keys(where).length !== keys.length || !keys.every((k) => k in where)) throw invalid(`where must name ${keys.join(", ")}: one join row.`, "where");
    let query = db.selectFrom(join.table).select(columns.map((c) => c.name));
    for (const name of keys) query = query.where(name, "=", toDb(join.model.columns.find((c) => c.name === name) as ColumnSchema, where[name], `where.${name}`));
    const row = (await query.executeTakeFirst()) as Record<string, unknown> | undefined;
    return row === undefined ? null : presentRow(columns, row, true);
  }
  const take = count(args.take, "take", MAX_TAKE) ?? MAX_TAKE;
  const skip = count(args.skip, "skip", Number.MAX_SAFE_INTEGER) ?? 0;
  let query = db.selectFrom(join.table).select(columns.map((c) => c.name));
  if (args.where !== undefined) query = query.where((eb) => whereExpr(eb, join.model, args.where));
  for (const term of orderOf(join, args.orderBy)) query = query.orderBy(term.column, term.direction);
  const data = ((await query.limit(take).offset(skip).execute()) as Record<string, unknown>[]).map((row) => presentRow(columns, row, true));
  if (operation === "findMany") return data;
  let counted = db.selectFrom(join.table).select((eb) => eb.fn.countAll().as("total"));
  if (args.where !== undefined) counted = counted.where((eb) => whereExpr(eb, join.model, args.where));
  const total = Number(((await counted.executeTakeFirst()) as { total?: unknown } | undefined)?.total ?? 0);
  return { data, total, hasMore: skip + data.length < total };
}
