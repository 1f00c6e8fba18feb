import type { Model } from "../../repositories/model-repository";

/**
 * What a saved query stores (docs/saved-queries.md): the list parameters of GET /v1/{model}, fixed.
 * Checked against the model whenever the query or the model changes.
 */
export interface SavedQueryFilter {
  kind: "relation" | "tag";
  field: string;
  value: string;
}

export interface SavedQueryDefinition {
  filters: SavedQueryFilter[];
  order: "asc" | "desc" | "manual";
  /** Field keys each item keeps (like `fields=`); absent: every public field. */
  fields?: string[];
  limit: number;
}

export interface QueryIssue {
  path: string;
  message: string;
}

/** A query's problems against a model: `unknown` (no such field, or not a relation for a filter) and `private`. */
export function queryIssues(model: Pick<Model, "fields" | "slug">, definition: SavedQueryDefinition): { unknown: QueryIssue[]; private: QueryIssue[] } {
  const unknown: QueryIssue[] = [];
  const privateFields: QueryIssue[] = [];
  const byKey = new Map(model.fields.map((f) => [f.key, f]));
  definition.filters.forEach((filter, i) => {
    const field = byKey.get(filter.field);
    const path = `filters[${i}].field`;
    if (!field) unknown.push({ path, message: `"${filter.field}" is not a field of ${model.slug}` });
    else if (field.private) privateFields.push({ path, message: `"${filter.field}" is a private field` });
    else if (field.type !== "relation") unknown.push({ path, message: `"${filter.field}" is not a relation field (relation and tag filters name relation fields)` });
  });
  (definition.fields ?? []).forEach((key, i) => {
    const field = byKey.get(key);
    const path = `fields[${i}]`;
    if (!field) unknown.push({ path, message: `"${key}" is not a field of ${model.slug}` });
    else if (field.private) privateFields.push({ path, message: `"${key}" is a private field` });
  });
  return { unknown, private: privateFields };
}

export function parseDefinition(text: string): SavedQueryDefinition {
  return JSON.parse(text) as SavedQueryDefinition;
}
