import * as v from "valibot";
import { UniqueCombination } from "./unique-combinations";
import type { RouteSpec } from "./contract";
import { ModelDefinitionModel } from "./manage-models";
import { FieldDefinitionEntries } from "./model-definition";
import { noteText } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** JSON text of an object (spec 2: a proposed field's `config`, `derived`, `ui`, `validation` are JSON text). */
function jsonText(name: string) {
  return v.pipe(
    v.string(),
    v.maxLength(65536),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        const parsed: unknown = JSON.parse(dataset.value);
        if (parsed === null || (typeof parsed === "object" && !Array.isArray(parsed))) return (parsed ?? {}) as Record<string, unknown>;
      } catch {
        // reported below
      }
      addIssue({ message: `${name} must be JSON text of an object.` });
      return NEVER;
    }),
  );
}

/**
 * A field as a model proposal names it: `id` only for a field the model already has. As the spec
 * describes, `config` (the type's settings: `multiple`, `options`, `targets`, …), `ui` (`help`) and
 * `validation` may come as JSON text; the same settings may also be given as plain keys. `derived`
 * must be empty: derived fields do not exist here. The result is a plain field definition, checked
 * by the model apply's own schema (unknown settings → 400 invalid_request).
 */
const ProposedField = v.pipe(
  v.strictObject({
    ...FieldDefinitionEntries.entries,
    id: v.optional(FieldDefinitionEntries.entries.id),
    validation: v.optional(v.union([FieldDefinitionEntries.entries.validation, jsonText("validation")])),
    config: v.optional(jsonText("config")),
    ui: v.optional(v.pipe(jsonText("ui"), v.check((u) => Object.keys(u).every((k) => k === "help") && (u.help === undefined || typeof u.help === "string"), 'ui holds only "help" (a string).'))),
    derived: v.optional(v.pipe(jsonText("derived"), v.check((d) => Object.keys(d).length === 0, "derived fields are not supported; send derived as \"{}\" or leave it out."))),
  }),
  v.transform(({ config, ui, derived: _derived, validation, ...field }) => ({
    ...field,
    ...(config ?? {}),
    ...(ui && typeof ui.help === "string" ? { help: ui.help } : {}),
    ...(validation !== undefined ? { validation } : {}),
  })),
  v.title("ProposedField"),
);

/** POST /models/proposals body (at most 200 fields, note at most 500 characters → 400). */
export const CreateModelProposalBody = v.strictObject({
  mode: v.picklist(["create", "update"]),
  model_id: v.optional(Id),
  base_updated_at: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(40))),
  definition: v.strictObject({
    // The model part in the one shape of a definition (GET /models/{id} answers it): spec 2 names
    // `name`, `slug`, `enableI18n`; the other keys are optional, so a model read can be proposed back.
    model: ModelDefinitionModel,
    fields: v.pipe(v.array(ProposedField), v.maxLength(200)),
  }),
  note: v.optional(noteText(500)),
});

export const ModelChange = v.object({ kind: v.string(), field: v.nullable(v.string()), affected_count: v.number(), message: v.string(), suggestion: v.string() });

export const ModelProposal = v.pipe(
  v.object({
    id: v.string(),
    mode: v.picklist(["create", "update"]),
    model_id: v.nullable(v.string()),
    base_updated_at: v.nullable(v.string()),
    definition: v.object({ model: v.object({ name: v.string(), slug: v.string(), enableI18n: v.optional(v.boolean()), description: v.optional(v.nullable(v.string())), kind: v.optional(v.picklist(["collection", "single"])), is_public: v.optional(v.boolean()), settings: v.optional(v.record(v.string(), v.unknown())), unique_combinations: v.optional(v.array(UniqueCombination)) }), fields: v.array(v.record(v.string(), v.unknown())) }),
    note: v.nullable(v.string()),
    source: v.object({ kind: v.picklist(["management", "person", "plugin", "ai"]), id: v.string(), label: v.string(), requested_by: v.optional(v.string()) }),
    state: v.picklist(["open", "applied", "dismissed"]),
    changes: v.array(ModelChange),
    stale: v.boolean(),
    revision: v.number(),
    created_by: v.string(),
    decided_by: v.nullable(v.string()),
    created_at: v.string(),
    updated_at: v.string(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("ModelProposal"),
);

/** Model proposals of the management API; listed before `/models/{id}` so `proposals` is not taken as an id. */
export const modelProposalRoutes: readonly RouteSpec[] = [
  {
    operationId: "createModelProposal",
    method: "post",
    path: "/models/proposals",
    summary: "Propose a new model or a change to one for a person to apply or dismiss (content-breaking changes listed in `changes`)",
    scope: "schema:propose",
    idempotent: true,
    body: CreateModelProposalBody,
    status: 201,
    response: ModelProposal,
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "model_changed", "duplicate_field_key", "field_not_found", "model_slug_taken", "model_name_collision", "unique_unsupported", "invalid_field_validation", "unsupported_text_validation", "invalid_field_config", "invalid_field_condition", "relation_type_not_authorable", "invalid_field_key", "invalid_unique_combination"],
  },
  {
    operationId: "listModelProposals",
    method: "get",
    path: "/models/proposals",
    summary: "Model proposals, newest first",
    scope: "schema:propose",
    query: v.strictObject({ state: v.optional(v.picklist(["open", "applied", "dismissed"])) }),
    response: v.strictObject({ data: v.array(ModelProposal) }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"],
  },
  { operationId: "getModelProposal", method: "get", path: "/models/proposals/{id}", summary: "One model proposal (`stale: true` when the model changed since)", scope: "schema:propose", params: v.strictObject({ id: Id }), response: ModelProposal, errors: ["unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "rate_limited"] },
];
