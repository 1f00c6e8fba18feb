/**
 * One relation field's list (docs/generated-backend.md, "Relations"; spec 3, "Rules of list relation
 * writes"): references parsed from a body, the stored list read with a stamp, the rules checked in
 * the spec's order, and the statements that rewrite it in one batch, guarded by the stamp.
 */
import { sql, type CompiledQuery, type RawBuilder } from "kysely";
import { HttpError, invalid } from "./errors.js";
import type { RelationSchema } from "./relation-types.js";
import type { AnyDb } from "./rows.js";
import type { ModelSchema } from "./schema-types.js";
import { isPlainObject } from "./values.js";

/** A reference: the target's model (API name) and row id. */
export interface Ref {
  model: string;
  id: string;
}

/** Which list: the owner row and, for a per-language list, the language. */
export interface ListKey {
  owner: ModelSchema;
  ownerId: string;
  lang: string | null;
}

const mixed = (rel: RelationSchema): boolean => rel.targets.length > 1;
const refKey = (ref: Ref): string => `${ref.model}:${ref.id}`;

/** How an error names references: `model:id` for a field of several models, the bare id otherwise. */
export const targetNames = (rel: RelationSchema, refs: readonly Ref[]): string[] => refs.map((ref) => (mixed(rel) ? refKey(ref) : ref.id));

/** How a refusal names the field: a row-stored link by its `<field>_id` column, a list by its key (docs/generated-backend.md). */
const fieldName = (rel: RelationSchema): string => rel.column ?? rel.field;

function refused(status: number, code: string, message: string, rel: RelationSchema, refs: readonly Ref[]): HttpError {
  return new HttpError(status, code, message, { field: fieldName(rel), targets: targetNames(rel, refs) });
}

/**
 * A body's list of references: bare ids (a single-model field) or `{ model, id }` (required by a
 * field of several models; a model the field does not allow is refused).
 */
export function parseRefs(rel: RelationSchema, value: unknown, path: string): Ref[] {
  if (!Array.isArray(value) || value.length > 1000) throw invalid(`${path} must be an array of at most 1000 references.`, path);
  return value.map((item, index) => {
    const at = `${path}[${index}]`;
    if (typeof item === "string") {
      if (item === "" || item.length > 512) throw invalid(`${at} must be a row id.`, at);
      if (mixed(rel)) throw new HttpError(422, "relation_target_model_required", `${rel.field} links several models (${rel.targets.map((t) => t.model).join(", ")}): name each reference as { model, id }.`, { field: rel.field, path: at });
      return { model: (rel.targets[0] as { model: string }).model, id: item };
    }
    if (!isPlainObject(item) || typeof item.model !== "string" || typeof item.id !== "string" || item.id === "" || item.id.length > 512 || Object.keys(item).length !== 2) {
      throw invalid(`${at} must be a row id or { model, id }.`, at);
    }
    if (!rel.targets.some((t) => t.model === item.model)) {
      throw new HttpError(422, "relation_target_model_not_allowed", `${rel.field} does not link ${item.model} (it links ${rel.targets.map((t) => t.model).join(", ")}).`, { field: fieldName(rel), path: at, model: item.model });
    }
    return { model: item.model, id: item.id };
  });
}

const langFilter = (rel: RelationSchema, lang: string | null): RawBuilder<unknown> => (rel.localized ? sql` AND "lang" = ${lang}` : sql``);

/**
 * A SQL expression whose value changes whenever the list changes: read with the list, compared again
 * inside the write's batch (the guard), so a list changed in between aborts the write.
 */
function stampExpr(rel: RelationSchema, key: ListKey): RawBuilder<unknown> {
  if (rel.column !== undefined) return sql`(SELECT ${sql.ref(rel.column)} FROM ${sql.table(key.owner.api)} WHERE "id" = ${key.ownerId})`;
  const parts = rel.targets.map(
    (target, index) => sql`SELECT ${String(index)} || ':' || "target_id" || ':' || "position" AS "x" FROM ${sql.table(target.table as string)} WHERE "owner_id" = ${key.ownerId}${langFilter(rel, key.lang)}`,
  );
  return sql`(SELECT group_concat("x", '|') FROM (${sql.join(parts, sql` UNION ALL `)} ORDER BY "x"))`;
}

/** The stored list, in order, and its stamp. */
export async function readList(db: AnyDb, rel: RelationSchema, key: ListKey): Promise<{ refs: Ref[]; stamp: unknown }> {
  const stamp = (await sql<{ stamp: unknown }>`SELECT ${stampExpr(rel, key)} AS "stamp"`.execute(db)).rows[0]?.stamp ?? null;
  if (rel.column !== undefined) {
    const model = (rel.targets[0] as { model: string }).model;
    return { refs: typeof stamp === "string" ? [{ model, id: stamp }] : [], stamp };
  }
  const rows: { model: string; id: string; position: number }[] = [];
  for (const target of rel.targets) {
    let query = db.selectFrom(target.table as string).select(["target_id", "position"]).where("owner_id", "=", key.ownerId);
    if (rel.localized) query = query.where("lang", "=", key.lang);
    for (const row of (await query.execute()) as { target_id: string; position: number }[]) rows.push({ model: target.model, id: row.target_id, position: Number(row.position) });
  }
  rows.sort((a, b) => a.position - b.position);
  return { refs: rows.map(({ model, id }) => ({ model, id })), stamp };
}

/** The ancestors of `start` through the hierarchy column, `start` included. */
async function ancestors(db: AnyDb, owner: ModelSchema, column: string, start: string): Promise<Set<string>> {
  const result = await sql<{ id: string }>`WITH RECURSIVE "up"("id") AS (SELECT ${start} UNION SELECT t.${sql.ref(column)} FROM ${sql.table(owner.api)} t JOIN "up" ON t."id" = "up"."id" WHERE t.${sql.ref(column)} IS NOT NULL) SELECT "id" FROM "up"`.execute(db);
  return new Set(result.rows.map((row) => row.id));
}

/**
 * The rules of a resulting list, in spec 3's order: duplicates, counts (on every request), existing
 * targets, a one-owner target held by another owner, a hierarchy loop. `ownerId` null: a row not
 * written yet (with-relations), which owns nothing and has no descendants.
 */
export async function checkList(db: AnyDb, rel: RelationSchema, key: ListKey, refs: readonly Ref[]): Promise<void> {
  const seen = new Set<string>();
  const duplicates = refs.filter((ref) => (seen.has(refKey(ref)) ? true : (seen.add(refKey(ref)), false)));
  if (duplicates.length > 0) throw refused(422, "relation_duplicate_target", `${rel.field} names a target more than once.`, rel, duplicates);
  if (refs.length < rel.minItems) throw new HttpError(422, "relation_too_few", `${rel.field} needs at least ${rel.minItems} target${rel.minItems === 1 ? "" : "s"}; the list would hold ${refs.length}.`, { field: fieldName(rel), min: rel.minItems, count: refs.length });
  if (rel.maxItems !== undefined && refs.length > rel.maxItems) throw new HttpError(422, "relation_too_many", `${rel.field} holds at most ${rel.maxItems} target${rel.maxItems === 1 ? "" : "s"}; the list would hold ${refs.length}.`, { field: fieldName(rel), max: rel.maxItems, count: refs.length });
  if (refs.length === 0) return;
  // A row named as its own parent loops even before it exists (with-relations names the new row).
  if (rel.hierarchy && refs[0]?.id === key.ownerId) throw refused(422, "relation_hierarchy_cycle", `${fieldName(rel)} would make the row its own parent.`, rel, refs);
  const missing: Ref[] = [];
  const taken: Ref[] = [];
  for (const target of rel.targets) {
    const ids = refs.filter((ref) => ref.model === target.model).map((ref) => ref.id);
    if (ids.length === 0) continue;
    const found = new Set(((await db.selectFrom(target.model).select("id").where("id", "in", ids).execute()) as { id: string }[]).map((row) => row.id));
    missing.push(...ids.filter((id) => !found.has(id)).map((id) => ({ model: target.model, id })));
    if (!rel.oneOwner) continue;
    const held =
      target.table !== undefined
        ? db.selectFrom(target.table).select("target_id as id").where("target_id", "in", ids)
        : db.selectFrom(key.owner.api).select(`${rel.column as string} as id`).where(rel.column as string, "in", ids);
    let others = held.where(target.table !== undefined ? "owner_id" : "id", "!=", key.ownerId);
    if (rel.localized) others = others.where("lang", "=", key.lang);
    taken.push(...((await others.execute()) as { id: string }[]).map((row) => ({ model: target.model, id: row.id })));
  }
  if (missing.length > 0) throw refused(422, "relation_target_missing", `${rel.field} names rows that do not exist.`, rel, missing);
  if (taken.length > 0) throw refused(409, "relation_target_taken", `${rel.field} names targets another ${key.owner.api} already holds (one owner each).`, rel, taken);
  if (rel.hierarchy && rel.column !== undefined) {
    const parent = refs[0] as Ref;
    if ((await ancestors(db, key.owner, rel.column, parent.id)).has(key.ownerId)) {
      throw refused(422, "relation_hierarchy_cycle", `${rel.column} would place the row under itself.`, rel, [parent]);
    }
  }
}

export const sameList = (a: readonly Ref[], b: readonly Ref[]): boolean => a.length === b.length && a.every((ref, index) => refKey(ref) === refKey(b[index] as Ref));

/** The guard: inside the batch, aborts it when the list's stamp is no longer the one read. */
export function guardStatement(db: AnyDb, rel: RelationSchema, key: ListKey, stamp: unknown): CompiledQuery {
  return sql`INSERT INTO "_driftwood_guard" ("reason") SELECT 'relation_changed_concurrently' WHERE ${stampExpr(rel, key)} IS NOT ${stamp}`.compile(db);
}

/** The statements writing `refs` as the list (join rows replaced; a row column set). */
export function writeStatements(db: AnyDb, rel: RelationSchema, key: ListKey, refs: readonly Ref[]): CompiledQuery[] {
  if (rel.column !== undefined) return [db.updateTable(key.owner.api).set({ [rel.column]: refs[0]?.id ?? null }).where("id", "=", key.ownerId).compile()];
  const statements: CompiledQuery[] = [];
  for (const target of rel.targets) {
    let removal = db.deleteFrom(target.table as string).where("owner_id", "=", key.ownerId);
    if (rel.localized) removal = removal.where("lang", "=", key.lang);
    statements.push(removal.compile());
  }
  refs.forEach((ref, position) => {
    const table = rel.targets.find((t) => t.model === ref.model)?.table as string;
    statements.push(db.insertInto(table).values({ owner_id: key.ownerId, target_id: ref.id, position, ...(rel.localized ? { lang: key.lang } : {}) }).compile());
  });
  return statements;
}

/** A list as answers give it: `{ model, id }` in order. */
export const presentRefs = (refs: readonly Ref[]): Ref[] => refs.map(({ model, id }) => ({ model, id }));
