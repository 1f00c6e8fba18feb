/**
 * The six row operations over kysely (docs/generated-backend.md, "The query language"): arguments
 * checked against the model's columns, values bound, answers without private columns where the
 * caller may not see them (never in a write's answer).
 */
import type { Kysely } from "kysely";
import { databaseError, HttpError, invalid } from "./errors.js";
import { checkRowLinks } from "./row-links.js";
import { count, MAX_TAKE, orderTerms, selectedColumns, uniqueWhere, whereExpr } from "./query.js";
import { applyPoints, type PointQuery } from "./points.js";
import { isPlainObject, presentRow, toDb, type DbValue } from "./values.js";
import type { ModelSchema, Operation } from "./schema-types.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are known only at run time
export type AnyDb = Kysely<any>;

export interface RowCall {
  db: AnyDb;
  model: ModelSchema;
  /** Read arguments: the query parameters, JSON-decoded. */
  args: Record<string, unknown>;
  body: unknown;
  withPrivate: boolean;
  /** Point filters and sort of a list read (points.ts). */
  points?: PointQuery | undefined;
  now: () => string;
  newId: () => string;
}

export function closed(value: unknown, allowed: readonly string[], path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw invalid(`${path} must be an object.`, path || "body");
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw invalid(`${path ? `${path}.` : ""}${key} is not allowed here (${allowed.join(", ")}).`, path ? `${path}.${key}` : key);
  return value;
}

/**
 * The model as a reader who may not see private columns knows it: a `where`, `orderBy`, `select` or
 * unique `where` naming a private column is refused like an unknown one, so filtering never reveals
 * a private value (the CMS's public API does the same).
 */
function readable(call: RowCall): RowCall {
  return call.withPrivate ? call : { ...call, model: { ...call.model, columns: call.model.columns.filter((c) => !c.private) } };
}

async function findMany(whole: RowCall, withTotal: boolean): Promise<unknown> {
  const call = readable(whole);
  const args = closed(call.args, ["where", "orderBy", "take", "skip", "select"], "");
  const columns = selectedColumns(call.model, args.select, call.withPrivate);
  const take = count(args.take, "take", MAX_TAKE) ?? MAX_TAKE;
  const skip = count(args.skip, "skip", Number.MAX_SAFE_INTEGER) ?? 0;
  const order = call.points?.sort !== undefined ? [] : orderTerms(call.model, args.orderBy);
  let query = call.db.selectFrom(call.model.api).select(columns.map((c) => c.name));
  if (args.where !== undefined) query = query.where((eb) => whereExpr(eb, call.model, args.where));
  query = await applyPoints(call.db, query, call.points);
  for (const term of order) query = query.orderBy(term.column, term.direction);
  const rows = (await query.limit(take).offset(skip).execute()) as Record<string, unknown>[];
  const data = rows.map((row) => presentRow(columns, row, call.withPrivate));
  if (!withTotal) return data;
  let counted = call.db.selectFrom(call.model.api).select((eb) => eb.fn.countAll().as("total"));
  if (args.where !== undefined) counted = counted.where((eb) => whereExpr(eb, call.model, args.where));
  if (call.points !== undefined && call.points.filters.length > 0) counted = await applyPoints(call.db, counted, { ...call.points, sort: undefined });
  const total = Number(((await counted.executeTakeFirst()) as { total?: unknown } | undefined)?.total ?? 0);
  return { data, total, hasMore: skip + data.length < total };
}

async function findUnique(whole: RowCall): Promise<unknown> {
  const call = readable(whole);
  const args = closed(call.args, ["where", "select"], "");
  const { column, value } = uniqueWhere(call.model, args.where);
  const columns = selectedColumns(call.model, args.select, call.withPrivate);
  const row = (await call.db.selectFrom(call.model.api).select(columns.map((c) => c.name)).where(column.name, "=", value).executeTakeFirst()) as Record<string, unknown> | undefined;
  return row === undefined ? null : presentRow(columns, row, call.withPrivate);
}

/** A write's `data`: known, writable columns with values of their type. */
export function writeValues(model: ModelSchema, data: unknown, creating: boolean): Record<string, DbValue> {
  const writable = model.columns.filter((c) => !c.system && (creating || c.name !== "id"));
  const input = closed(data, writable.map((c) => c.name), "data");
  const values: Record<string, DbValue> = {};
  for (const [name, value] of Object.entries(input)) {
    const column = model.columns.find((c) => c.name === name);
    if (column === undefined || value === undefined) continue;
    if (value === null && !column.nullable) throw invalid(`data.${name} cannot be null.`, `data.${name}`);
    values[name] = toDb(column, value, `data.${name}`);
  }
  if (creating) {
    for (const column of writable) {
      if (!column.nullable && column.name !== "id" && values[column.name] === undefined) throw invalid(`data.${column.name} is required.`, `data.${column.name}`);
    }
  }
  return values;
}

export async function guarded<T>(operation: "create" | "update" | "delete", run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw databaseError(error, operation) ?? error;
  }
}

async function create(call: RowCall): Promise<unknown> {
  const body = closed(call.body, ["data"], "");
  if (body.data === undefined) throw invalid("data is required.", "data");
  const values = writeValues(call.model, body.data, true);
  const id = rowId(values, call.newId);
  await checkRowLinks(call.db, call.model, values, id);
  const now = call.now();
  const columns = call.model.columns;
  const row = (await guarded("create", () =>
    call.db.insertInto(call.model.api).values({ ...values, id, created_at: now, updated_at: now }).returning(columns.map((c) => c.name)).executeTakeFirstOrThrow(),
  )) as Record<string, unknown>;
  return presentRow(columns, row, false);
}

async function update(call: RowCall): Promise<unknown> {
  const body = closed(call.body, ["where", "data"], "");
  const { column, value } = uniqueWhere(call.model, body.where);
  if (body.data === undefined) throw invalid("data is required.", "data");
  const values = writeValues(call.model, body.data, false);
  if ((call.model.relations ?? []).some((rel) => rel.column !== undefined && typeof values[rel.column] === "string")) {
    const existing = (await call.db.selectFrom(call.model.api).select("id").where(column.name, "=", value).executeTakeFirst()) as { id: string } | undefined;
    if (existing !== undefined) await checkRowLinks(call.db, call.model, values, existing.id);
  }
  const columns = call.model.columns;
  const row = (await guarded("update", () =>
    call.db.updateTable(call.model.api).set({ ...values, updated_at: call.now() }).where(column.name, "=", value).returning(columns.map((c) => c.name)).executeTakeFirst(),
  )) as Record<string, unknown> | undefined;
  if (row === undefined) throw new HttpError(404, "not_found", "No row matches where.");
  return presentRow(columns, row, false);
}

async function remove(call: RowCall): Promise<unknown> {
  const body = closed(call.body, ["where"], "");
  const { column, value } = uniqueWhere(call.model, body.where);
  const columns = call.model.columns;
  const row = (await guarded("delete", () =>
    call.db.deleteFrom(call.model.api).where(column.name, "=", value).returning(columns.map((c) => c.name)).executeTakeFirst(),
  )) as Record<string, unknown> | undefined;
  if (row === undefined) throw new HttpError(404, "not_found", "No row matches where.");
  return presentRow(columns, row, false);
}

/** Runs one operation; the answer's body (the router sets the status). */
export function runOperation(operation: Operation, call: RowCall): Promise<unknown> {
  switch (operation) {
    case "findMany":
      return findMany(call, false);
    case "findManyPaginated":
      return findMany(call, true);
    case "findUnique":
      return findUnique(call);
    case "create":
      return create(call);
    case "update":
      return update(call);
    case "delete":
      return remove(call);
  }
}

/** The id of a row being created: the one `data` names, else a generated one. */
export function rowId(values: Record<string, DbValue>, newId: () => string): string {
  const id = values.id ?? newId();
  if (typeof id !== "string" || !/^[A-Za-z0-9_.:-]{1,128}$/.test(id)) throw invalid("data.id must be 1 to 128 letters, digits, _ . : or -.", "data.id");
  return id;
}
