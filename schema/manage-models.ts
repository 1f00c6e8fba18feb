import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { FieldDefinitionEntries } from "./model-definition";
import { ModelSettingsPatch, ModelSettingsView } from "./model-settings";
import { UniqueCombination, UniqueCombinations } from "./unique-combinations";
import { maxCharacters, readableName } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const ModelSlug = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const ModelName = v.pipe(v.string(), v.minLength(1), v.maxLength(120), readableName());
const Description = v.nullable(v.pipe(v.string(), v.maxLength(2000)));

/** A field as a model write names it: `id` only for a field the model already has. */
const FieldInput = v.pipe(v.strictObject({ ...FieldDefinitionEntries.entries, id: v.optional(FieldDefinitionEntries.entries.id) }), v.title("FieldInput"));
const NewFieldInput = v.pipe(v.strictObject({ ...FieldDefinitionEntries.entries, id: v.optional(v.never("A new model's fields have no ids.")) }), v.title("NewFieldInput"));
const Fields = v.pipe(v.array(FieldInput), v.maxLength(200));

/**
 * A model's own part of a definition (everything but its fields). `POST /models` and
 * `PUT /models/{id}/definition` take it, and `GET /models/{id}` answers it in `definition.model`,
 * so a model read can be written back unchanged. `name` and `slug` are required; an optional key
 * left out keeps its current value on a replace (`null` clears `description` or a setting).
 */
export const ModelDefinitionModel = v.pipe(
  v.strictObject({
    name: ModelName,
    slug: ModelSlug,
    description: v.optional(Description),
    kind: v.optional(v.picklist(["collection", "single"])),
    is_public: v.optional(v.boolean()),
    enableI18n: v.optional(v.boolean()),
    settings: v.optional(ModelSettingsPatch),
    unique_combinations: v.optional(UniqueCombinations),
  }),
  v.title("ModelDefinitionModel"),
);

/** `definition.model` as reads answer it: every key present. */
const ModelDefinitionModelView = v.object({
  name: v.string(),
  slug: v.string(),
  description: v.nullable(v.string()),
  kind: v.picklist(["collection", "single"]),
  is_public: v.boolean(),
  enableI18n: v.boolean(),
  settings: ModelSettingsView,
  unique_combinations: v.array(UniqueCombination),
});

/** A model as management reads answer it. */
export const ModelView = v.pipe(
  v.object({
    id: v.string(),
    slug: v.string(),
    name: v.string(),
    description: v.nullable(v.string()),
    kind: v.picklist(["collection", "single"]),
    is_public: v.boolean(),
    i18n: v.boolean(),
    folder: v.nullable(v.string()),
    settings: ModelSettingsView,
    definition: v.object({ model: ModelDefinitionModelView, fields: v.array(v.record(v.string(), v.unknown())) }),
    updated_at: v.string(),
    revision: v.number(),
  }),
  v.title("Model"),
);

/** What every model write answers. */
export const ModelWriteAnswer = v.pipe(
  v.object({
    model_id: v.string(),
    slug: v.string(),
    revision: v.number(),
    updated_at: v.string(),
    created_field_ids: v.array(v.string()),
    renamed_from: v.nullable(v.string()),
    dependents: v.optional(v.object({ complete: v.literal(true) })),
    replayed: v.optional(v.boolean()),
  }),
  v.title("ModelWriteAnswer"),
);

export const CreateModelBody = v.strictObject({
  definition: v.strictObject({
    model: ModelDefinitionModel,
    fields: v.pipe(v.array(NewFieldInput), v.maxLength(200)),
  }),
});
export const UpdateModelBody = v.strictObject({
  expected_revision: Revision,
  model: v.strictObject({
    name: v.optional(ModelName),
    slug: v.optional(ModelSlug),
    description: v.optional(Description),
    enableI18n: v.optional(v.boolean()),
    is_public: v.optional(v.boolean()),
    settings: v.optional(ModelSettingsPatch),
  }),
});
/** The complete definition (spec 2): a changed name or slug is a rename, answered with `renamed_from`. */
export const ReplaceDefinitionBody = v.strictObject({ expected_revision: Revision, definition: v.strictObject({ model: ModelDefinitionModel, fields: Fields }) });
export const ModelFolderBody = v.strictObject({ folder: v.nullable(v.pipe(v.string(), v.minLength(1), ...maxCharacters(40), readableName())) });
export const RemoveModelBody = v.strictObject({ expected_revision: Revision, confirm: Id });

const ModelPath = v.strictObject({ id: Id });

/** A blocked change: what the content holds against it, how many entries, and what to do first. */
const BlockedChange = v.object({ kind: v.string(), field: v.nullable(v.string()), affected_count: v.number(), message: v.string(), suggestion: v.string() });
/** What a dry run of a definition replace answers (docs/admin-ui-models.md, "Changes before saving"). */
export const DefinitionPlan = v.pipe(
  v.object({
    model_id: v.string(),
    revision: v.number(),
    changes: v.array(BlockedChange),
    fields: v.object({ added: v.array(v.string()), removed: v.array(v.string()), changed: v.array(v.string()), renamed: v.array(v.object({ from: v.string(), to: v.string() })) }),
    can_apply: v.boolean(),
  }),
  v.title("DefinitionPlan"),
);
const writeErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;
const applyErrors = [...writeErrors, "model_changed", "model_change_blocked", "duplicate_field_key", "field_not_found", "model_slug_taken", "model_name_collision", "stale_role_grant", "unique_unsupported", "invalid_field_validation", "unsupported_text_validation", "invalid_field_config", "invalid_field_condition", "relation_type_not_authorable", "invalid_field_key", "invalid_unique_combination", "single_entry_conflict"] as const;

/** Model operations of the management API. */
export const modelRoutes: readonly RouteSpec[] = [
  { operationId: "listModels", method: "get", path: "/models", summary: "Models the credential may read", scope: "content:read", response: v.strictObject({ data: v.array(ModelView) }), errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  { operationId: "createModel", method: "post", path: "/models", summary: "Create a model from a definition (fields without ids)", scope: "schema:write", idempotent: true, body: CreateModelBody, status: 201, response: ModelWriteAnswer, errors: [...applyErrors] },
  { operationId: "getModel", method: "get", path: "/models/{id}", summary: "A model's complete definition { model, fields } (writable back with PUT /models/{id}/definition), updated_at and revision", scope: "content:read", params: ModelPath, response: ModelView, errors: ["unauthorized", "creator_unauthorized", "not_found", "rate_limited"] },
  { operationId: "updateModel", destructive: true, method: "put", path: "/models/{id}", summary: "Change a model's name, slug, description, languages or visibility; fields kept", scope: "schema:write", idempotent: true, params: ModelPath, body: UpdateModelBody, response: ModelWriteAnswer, errors: [...applyErrors] },
  { operationId: "replaceModelDefinition", destructive: true, method: "put", path: "/models/{id}/definition", summary: "Replace a model's complete definition: model (a new name or slug renames it) and fields kept by id, added without id, removed by omission", scope: "schema:write", idempotent: true, params: ModelPath, body: ReplaceDefinitionBody, response: ModelWriteAnswer, errors: [...applyErrors] },
  {
    operationId: "planModelDefinition",
    method: "post",
    path: "/models/{id}/definition/plan",
    summary: "Dry run of PUT /models/{id}/definition: the same checks and refusals, with the changes the content would block listed in `changes` (affected_count, suggestion); writes nothing (no Idempotency-Key)",
    scope: "schema:write",
    noKey: true,
    readOnly: true,
    params: ModelPath,
    body: ReplaceDefinitionBody,
    response: DefinitionPlan,
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "rate_limited", "model_changed", "duplicate_field_key", "field_not_found", "model_slug_taken", "model_name_collision", "stale_role_grant", "unique_unsupported", "invalid_field_validation", "unsupported_text_validation", "invalid_field_config", "invalid_field_condition", "relation_type_not_authorable", "invalid_field_key", "invalid_unique_combination", "single_entry_conflict"],
  },
  { operationId: "setModelFolder", method: "put", path: "/models/{id}/folder", summary: "File a model in a display folder (revision unchanged)", scope: "schema:write", idempotent: true, params: ModelPath, body: ModelFolderBody, response: v.object({ model_id: v.string(), slug: v.string(), folder: v.nullable(v.string()), replayed: v.optional(v.boolean()) }), errors: [...writeErrors] },
  { operationId: "removeModel", destructive: true, repeatable: true, method: "post", path: "/models/{id}/remove", summary: "Delete a model without content", scope: "schema:write", idempotent: true, params: ModelPath, body: RemoveModelBody, response: ModelWriteAnswer, errors: [...writeErrors, "model_changed", "model_not_empty", "dependent_content", "stale_role_grant", "stale_token_scope"] },
];
