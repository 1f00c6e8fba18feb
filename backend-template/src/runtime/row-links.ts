/**
 * The to-one columns of a row write (spec 3, list-write rule 4): before `POST`/`PUT /api/<model>`
 * (and with-relations) writes `<field>_id`, a missing target is 422 relation_target_missing and a
 * parent link placing the row under itself 422 relation_hierarchy_cycle, both with `field` and
 * `targets`. The database refuses the same writes (foreign keys, hierarchy triggers).
 */
import { checkList } from "./relation-lists.js";
import type { AnyDb } from "./rows.js";
import type { ModelSchema } from "./schema-types.js";
import type { DbValue } from "./values.js";

/** Checks every to-one column `values` sets on the row `rowId` (a new row's id on create). */
export async function checkRowLinks(db: AnyDb, model: ModelSchema, values: Record<string, DbValue>, rowId: string | undefined): Promise<void> {
  for (const rel of model.relations ?? []) {
    if (rel.column === undefined) continue;
    const value = values[rel.column];
    if (typeof value !== "string") continue;
    const target = (rel.targets[0] as { model: string }).model;
    // The column's own nullability and uniqueness answer the rest (400, 409 record_exists).
    await checkList(db, { ...rel, minItems: 0, oneOwner: false, hierarchy: rel.hierarchy && rowId !== undefined }, { owner: model, ownerId: rowId ?? "", lang: null }, [{ model: target, id: value }]);
  }
}
