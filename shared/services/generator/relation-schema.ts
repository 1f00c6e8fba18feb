/**
 * The relation fields of a model as the emitted runtime reads them (`ModelSchema.relations`,
 * backend-template/src/runtime/relation-types.ts): storage (row column or join tables per target)
 * and the list rules (bounds, one owner, hierarchy, per-language lists). Pure, from the table plan.
 */
import { isToMany, relationKind } from "../../../schema/model-definition";
import type { RelationSchema } from "../../../backend-template/src/runtime/relation-types";
import type { ModelPlan } from "./plan";

/** Every relation field of `plan` whose targets are tables of the site, in definition order. */
export function relationSchemas(plan: ModelPlan, plans: readonly ModelPlan[]): RelationSchema[] {
  const apiOf = (modelId: string) => plans.find((p) => p.model.id === modelId)?.api;
  const out: RelationSchema[] = [];
  for (const field of plan.fields) {
    if (field.type !== "relation") continue;
    const kind = relationKind(field);
    const toOne = !isToMany(kind);
    const column = plan.table.columns.find((c) => c.field?.id === field.id && c.field.part === "id");
    const joins = plan.joins.filter((join) => join.field.id === field.id);
    const targets =
      column !== undefined
        ? column.references !== undefined
          ? [{ model: column.references }]
          : []
        : (field.targets ?? []).flatMap((id) => {
            const model = apiOf(id);
            const join = joins.find((j) => j.target === model);
            return model === undefined || join === undefined ? [] : [{ model, table: join.table }];
          });
    if (targets.length === 0) continue;
    const required = field.required === true && field.condition === undefined;
    const minItems = Math.max(required ? 1 : 0, toOne ? 0 : (field.validation?.min_items ?? 0));
    const maxItems = toOne ? 1 : field.validation?.max_items;
    out.push({
      field: field.key,
      ...(column !== undefined ? { column: column.name } : {}),
      toOne,
      hierarchy: field.hierarchy === true,
      oneOwner: kind === "one_to_one" || kind === "one_to_many",
      localized: field.localized_membership === true && column === undefined,
      private: column?.private ?? field.private === true,
      minItems,
      ...(maxItems !== undefined ? { maxItems } : {}),
      targets,
    });
  }
  return out;
}
