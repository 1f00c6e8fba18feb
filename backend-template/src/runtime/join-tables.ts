/**
 * The join tables of a site's models as the query language reads them (`owner_id`, `target_id`,
 * `position`, and `lang` for a per-language list): used by the join reads and by openapi.json.
 */
import type { RelationSchema } from "./relation-types.js";
import type { ColumnSchema, ModelSchema, SiteSchema } from "./schema-types.js";

export interface JoinTable {
  table: string;
  owner: ModelSchema;
  rel: RelationSchema;
  /** The join table as a model the query language reads. */
  model: ModelSchema;
}

const text = (name: string, references?: string): ColumnSchema => ({ name, type: "text", nullable: false, unique: false, private: false, ...(references !== undefined ? { references } : {}) });

/** Every join table of the site's models. */
export function joinTables(schema: SiteSchema): JoinTable[] {
  return schema.models.flatMap((owner) =>
    (owner.relations ?? []).flatMap((rel) =>
      rel.targets.flatMap((target) => {
        if (target.table === undefined) return [];
        const columns = [text("owner_id", owner.api), text("target_id", target.model), { ...text("position"), type: "integer" as const }, ...(rel.localized ? [text("lang")] : [])];
        return [{ table: target.table, owner, rel, model: { api: target.table, pascal: target.table, columns, uniques: [] } }];
      }),
    ),
  );
}
