/**
 * `POST /api/<owner>/with-relations` (spec 3, "Rules of with-relations"): the row and its lists in
 * one batch. `data` is the create body (same shape checks, a generated id when absent);
 * `relations` names list fields (a shared list: references in order; a per-language list: language
 * → references). Every rule is checked before writing; a failure the checks could not see is 409
 * write_conflict, a one-owner target claimed first by a concurrent write 409 relation_target_taken.
 */
import { batchError, requireBatch } from "./batch.js";
import { HttpError, invalid } from "./errors.js";
import { checkList, parseRefs, writeStatements, type ListKey, type Ref } from "./relation-lists.js";
import type { RelationSchema } from "./relation-types.js";
import { randomId, type Backend } from "./router.js";
import { checkRowLinks } from "./row-links.js";
import { closed, rowId, writeValues } from "./rows.js";
import type { ModelSchema } from "./schema-types.js";
import { isPlainObject, presentRow } from "./values.js";

/** The fields kept in join tables: the lists `relations` may name. */
export const listFields = (model: ModelSchema): RelationSchema[] => (model.relations ?? []).filter((rel) => rel.column === undefined);

/** 409 record_exists before writing: a unique column (or set) of `values` another row holds. */
async function uniquesFree(backend: Backend, model: ModelSchema, values: Record<string, unknown>): Promise<void> {
  const sets = [...model.columns.filter((c) => c.unique).map((c) => [c.name]), ...model.uniques];
  for (const set of sets) {
    if (!set.every((name) => values[name] !== undefined && values[name] !== null)) continue;
    let query = backend.db.selectFrom(model.api).select("id");
    for (const name of set) query = query.where(name, "=", values[name]);
    if ((await query.executeTakeFirst()) !== undefined) throw new HttpError(409, "record_exists", "A row already holds this unique value.", { columns: set });
  }
}

/** A field's lists by language (null: the shared list) from `relations[field]`. */
function listsOf(backend: Backend, rel: RelationSchema, value: unknown): Map<string | null, Ref[]> {
  const path = `relations.${rel.field}`;
  if (!rel.localized) return new Map([[null, value === undefined ? [] : parseRefs(rel, value, path)]]);
  if (value === undefined) return new Map();
  if (!isPlainObject(value)) throw invalid(`${path} keeps a list per language: give { <language>: [references] }.`, path);
  const lists = new Map<string | null, Ref[]>();
  for (const [lang, refs] of Object.entries(value)) {
    if (!backend.schema.site.languages.includes(lang)) throw new HttpError(422, "unknown_locale", `${lang} is not a language this backend was generated with (${backend.schema.site.languages.join(", ")}).`, { locale: lang, path: `${path}.${lang}` });
    lists.set(lang, parseRefs(rel, refs, `${path}.${lang}`));
  }
  return lists;
}

/** The list as the answer gives it: ids for a single-model field, `{ model, id }` for several. */
const answerOf = (rel: RelationSchema, refs: readonly Ref[]): unknown[] => refs.map((ref) => (rel.targets.length > 1 ? { model: ref.model, id: ref.id } : ref.id));

export async function createWithRelations(backend: Backend, owner: ModelSchema, body: unknown): Promise<Record<string, unknown>> {
  const input = closed(body, ["data", "relations"], "");
  if (input.data === undefined) throw invalid("data is required.", "data");
  const values = writeValues(owner, input.data, true);
  const fields = listFields(owner);
  const relations = closed(input.relations ?? {}, fields.map((rel) => rel.field), "relations");
  const batch = requireBatch(backend.batch);
  const id = rowId(values, backend.newId ?? randomId);
  const lists = fields.map((rel) => ({ rel, lists: listsOf(backend, rel, relations[rel.field]) }));
  // Pre-checks, in the spec's order per field, before anything is written.
  for (const { rel, lists: byLang } of lists) {
    if (rel.localized && byLang.size === 0 && rel.minItems > 0) throw new HttpError(422, "relation_too_few", `${rel.field} needs at least ${rel.minItems} target${rel.minItems === 1 ? "" : "s"} per language: give it.`, { field: rel.field, min: rel.minItems, count: 0 });
    for (const [lang, refs] of byLang) await checkList(backend.db, rel, { owner, ownerId: id, lang }, refs);
  }
  await checkRowLinks(backend.db, owner, values, id);
  await uniquesFree(backend, owner, { ...values, id });
  const now = (backend.now ?? (() => new Date().toISOString()))();
  const row = { ...values, id, created_at: now, updated_at: now };
  const statements = [backend.db.insertInto(owner.api).values(row).compile()];
  for (const { rel, lists: byLang } of lists) {
    for (const [lang, refs] of byLang) {
      const key: ListKey = { owner, ownerId: id, lang };
      // A new row has no links to remove: only the inserts of writeStatements.
      statements.push(...writeStatements(backend.db, rel, key, refs).filter((statement) => !/^delete /i.test(statement.sql)));
    }
  }
  try {
    await batch(statements);
  } catch (error) {
    throw batchError(error, new HttpError(409, "write_conflict", "Another write changed what this create depends on: nothing was written. Retry."));
  }
  const answer = presentRow(owner.columns, Object.fromEntries(owner.columns.map((c) => [c.name, (row as Record<string, unknown>)[c.name] ?? null])), false);
  for (const { rel, lists: byLang } of lists) {
    if (rel.private) continue;
    answer[rel.field] = rel.localized ? Object.fromEntries([...byLang].map(([lang, refs]) => [lang, answerOf(rel, refs)])) : answerOf(rel, byLang.get(null) ?? []);
  }
  return answer;
}
