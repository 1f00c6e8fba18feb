/**
 * Prisma's client arguments (`where`, `orderBy`, `take`, `skip`, `select`) as kysely expressions:
 * every column a reference kysely quotes, every value a bound parameter — no SQL built from strings
 * (docs/generated-backend.md, "The query language").
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import { invalid } from "./errors.js";
import { isPlainObject, toDb } from "./values.js";
import type { ColumnSchema, ModelSchema } from "./schema-types.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are known only at run time
type Eb = ExpressionBuilder<any, any>;

const FILTER_OPERATORS = ["equals", "not", "in", "notIn", "lt", "lte", "gt", "gte", "contains", "startsWith", "endsWith", "mode"] as const;
export const MAX_TAKE = 1000;

function columnOf(model: ModelSchema, name: string, path: string): ColumnSchema {
  const column = model.columns.find((c) => c.name === name);
  if (column === undefined) throw invalid(`${path}: "${name}" is not a column of ${model.api}.`, path);
  return column;
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function comparable(column: ColumnSchema, value: unknown, path: string): string | number | null {
  if (column.type === "json") {
    if (value !== null) throw invalid(`${path}: a JSON column is compared with null only.`, path);
    return null;
  }
  return toDb(column, value, path);
}

function equalsExpr(eb: Eb, column: ColumnSchema, value: unknown, path: string): Expression<SqlBool> {
  const bound = comparable(column, value, path);
  return bound === null ? eb(eb.ref(column.name), "is", null) : eb(eb.ref(column.name), "=", bound);
}

function filterExpr(eb: Eb, column: ColumnSchema, filter: unknown, path: string): Expression<SqlBool> {
  if (!isPlainObject(filter)) return equalsExpr(eb, column, filter, path);
  const insensitive = filter.mode === "insensitive";
  if (filter.mode !== undefined && filter.mode !== "insensitive" && filter.mode !== "default") throw invalid(`${path}.mode must be "default" or "insensitive".`, `${path}.mode`);
  const ref = eb.ref(column.name);
  const parts: Expression<SqlBool>[] = [];
  for (const [op, value] of Object.entries(filter)) {
    const at = `${path}.${op}`;
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) throw invalid(`${at}: unknown operator (${FILTER_OPERATORS.join(", ")}).`, at);
    switch (op) {
      case "mode":
        break;
      case "equals":
        parts.push(equalsExpr(eb, column, value, at));
        break;
      case "not":
        parts.push(eb.not(isPlainObject(value) ? filterExpr(eb, column, value, at) : equalsExpr(eb, column, value, at)));
        break;
      case "in":
      case "notIn": {
        if (!Array.isArray(value) || value.length > 1000) throw invalid(`${at} must be an array of at most 1000 values.`, at);
        const values = value.map((item, index) => comparable(column, item, `${at}[${index}]`)).filter((item): item is string | number => item !== null);
        if (values.length === 0) parts.push(op === "in" ? sql<SqlBool>`0 = 1` : sql<SqlBool>`1 = 1`);
        else parts.push(eb(ref, op === "in" ? "in" : "not in", values));
        break;
      }
      case "lt":
      case "lte":
      case "gt":
      case "gte": {
        const bound = comparable(column, value, at);
        if (bound === null) throw invalid(`${at} needs a value.`, at);
        parts.push(eb(ref, op === "lt" ? "<" : op === "lte" ? "<=" : op === "gt" ? ">" : ">=", bound));
        break;
      }
      default: {
        if (column.type !== "text" || typeof value !== "string") throw invalid(`${at} takes a string on a text column.`, at);
        const pattern = op === "contains" ? `%${escapeLike(value)}%` : op === "startsWith" ? `${escapeLike(value)}%` : `%${escapeLike(value)}`;
        // SQLite's LIKE ignores ASCII case; GLOB-free exactness: compare with instr/substr for the sensitive default.
        if (insensitive) parts.push(sql<SqlBool>`lower(${ref}) like lower(${pattern}) escape '\\'`);
        else if (op === "contains") parts.push(sql<SqlBool>`instr(${ref}, ${value}) > 0`);
        else if (op === "startsWith") parts.push(sql<SqlBool>`substr(${ref}, 1, length(${value})) = ${value}`);
        else parts.push(sql<SqlBool>`length(${ref}) >= length(${value}) and substr(${ref}, -length(${value})) = ${value}`);
      }
    }
  }
  return eb.and(parts);
}

/** A `where` object (Prisma syntax) as one boolean expression. */
export function whereExpr(eb: Eb, model: ModelSchema, where: unknown, path = "where"): Expression<SqlBool> {
  if (!isPlainObject(where)) throw invalid(`${path} must be an object.`, path);
  const parts: Expression<SqlBool>[] = [];
  for (const [key, value] of Object.entries(where)) {
    const at = `${path}.${key}`;
    if (key === "AND" || key === "OR" || key === "NOT") {
      const list = Array.isArray(value) ? value : [value];
      const nested = list.map((item, index) => whereExpr(eb, model, item, Array.isArray(value) ? `${at}[${index}]` : at));
      if (key === "AND") parts.push(eb.and(nested));
      else if (key === "OR") parts.push(nested.length === 0 ? sql<SqlBool>`0 = 1` : eb.or(nested));
      else parts.push(eb.not(eb.and(nested)));
      continue;
    }
    parts.push(filterExpr(eb, columnOf(model, key, at), value, at));
  }
  return eb.and(parts);
}

export interface OrderTerm {
  column: string;
  direction: "asc" | "desc";
}

/** `orderBy`: `{ column: "asc" | "desc" }` or an array of those; `id` is appended for stable pages. */
export function orderTerms(model: ModelSchema, orderBy: unknown): OrderTerm[] {
  const list = orderBy === undefined ? [] : Array.isArray(orderBy) ? orderBy : [orderBy];
  const terms: OrderTerm[] = [];
  list.forEach((item, index) => {
    const at = Array.isArray(orderBy) ? `orderBy[${index}]` : "orderBy";
    if (!isPlainObject(item) || Object.keys(item).length !== 1) throw invalid(`${at} must be an object with one column.`, at);
    const [name, direction] = Object.entries(item)[0] as [string, unknown];
    columnOf(model, name, `${at}.${name}`);
    if (direction !== "asc" && direction !== "desc") throw invalid(`${at}.${name} must be "asc" or "desc".`, `${at}.${name}`);
    terms.push({ column: name, direction });
  });
  if (!terms.some((term) => term.column === "id")) terms.push({ column: "id", direction: "asc" });
  return terms;
}

/** `select: { column: true }` → the column names (all when absent). */
export function selectedColumns(model: ModelSchema, select: unknown, withPrivate: boolean): ColumnSchema[] {
  const visible = model.columns.filter((column) => withPrivate || !column.private);
  if (select === undefined) return visible;
  if (!isPlainObject(select)) throw invalid("select must be an object.", "select");
  const chosen: ColumnSchema[] = [];
  for (const [name, value] of Object.entries(select)) {
    const column = columnOf(model, name, `select.${name}`);
    if (value !== true && value !== false) throw invalid(`select.${name} must be true or false.`, `select.${name}`);
    if (value && visible.includes(column)) chosen.push(column);
  }
  if (chosen.length === 0) throw invalid("select must choose at least one readable column.", "select");
  return chosen;
}

/** A non-negative whole number from `take` / `skip`. */
export function count(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0 || value > max) throw invalid(`${name} must be a whole number from 0 to ${max}.`, name);
  return value;
}

/** The unique `where` of findUnique, update and delete: one unique column with a value. */
export function uniqueWhere(model: ModelSchema, where: unknown): { column: ColumnSchema; value: string | number } {
  if (!isPlainObject(where) || Object.keys(where).length !== 1) throw invalid("where must name exactly one unique column, such as { id } or { slug }.", "where");
  const [name, raw] = Object.entries(where)[0] as [string, unknown];
  const column = columnOf(model, name, `where.${name}`);
  if (!column.unique) throw invalid(`where.${name}: "${name}" is not a unique column.`, `where.${name}`);
  const value = isPlainObject(raw) && Object.keys(raw).length === 1 && "equals" in raw ? raw.equals : raw;
  const bound = toDb(column, value, `where.${name}`);
  if (bound === null) throw invalid(`where.${name} needs a value.`, `where.${name}`);
  return { column, value: bound };
}
