/**
 * The saved-query generation refusal (spec 3, "Generation and deployment refusals":
 * `saved_query_private_field`; docs/generated-backend.md, "Refusals"): a saved query on a public
 * route naming a private field. Every saved query is served on the public route
 * (`GET /v1/_queries/{name}`, docs/saved-queries.md), so every one counts. A query names a field in
 * a filter (`filters[].field`) or its selection (`fields`); its order (`asc`, `desc`, `manual`)
 * names none. The CMS keeps this from arising (422 `private_field_on_public_route` on the query,
 * 409 `model_has_bound_queries` on the model); generation checks again because it reads stored
 * definitions as they are (an older writer, a hand-edited database). Pure.
 */
import type { SavedQueryDefinition } from "../saved-queries/definition";
import type { GenerationProblem, GeneratorModel } from "./types";

/** A saved query as generation reads it: its name, model and stored definition. */
export interface GeneratorSavedQuery {
  name: string;
  model_id: string;
  definition: SavedQueryDefinition;
}

/** The top-level keys of a model's private fields (`private: true`), from a possibly malformed stored definition. */
function privateKeys(model: GeneratorModel): Set<string> {
  const keys = new Set<string>();
  for (const field of model.fields) {
    if (typeof field !== "object" || field === null) continue;
    const { key, private: isPrivate } = field as { key?: unknown; private?: unknown };
    if (typeof key === "string" && isPrivate === true) keys.add(key);
  }
  return keys;
}

/** One problem per saved query and private field it names (by query name, then field as first named). */
export function savedQueryProblems(models: readonly GeneratorModel[], queries: readonly GeneratorSavedQuery[]): GenerationProblem[] {
  const byId = new Map(models.map((model) => [model.id, model]));
  const problems: GenerationProblem[] = [];
  for (const query of [...queries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const model = byId.get(query.model_id);
    if (model === undefined) continue;
    const hidden = privateKeys(model);
    const uses = new Map<string, string[]>();
    const use = (key: string, how: string) => {
      if (hidden.has(key)) uses.set(key, [...new Set([...(uses.get(key) ?? []), how])]);
    };
    for (const filter of query.definition.filters ?? []) use(filter.field, "filters on it");
    for (const key of query.definition.fields ?? []) use(key, "selects it");
    for (const [field, how] of uses) {
      problems.push({
        code: "saved_query_private_field",
        model: model.slug,
        field,
        query: query.name,
        detail: `The saved query "${query.name}" is served on the public route and ${how.join(" and ")}, but "${field}" is private: make the field public again or change or delete the query.`,
      });
    }
  }
  return problems;
}
