/** Model writes through a definition: POST /models, PUT /models/{id} (settings) and PUT /models/{id}/definition. */
import { mergeModelSettings, type ModelSettingsPatch } from "../../../schema/model-settings";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { ModelFields, type FieldDefinition } from "../../../schema/model-definition";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { parse } from "../validation/parse";
import { createModel, type CreateModelInput, type NewField } from "./create-model";
import { loadModel } from "../lifecycle/load";
import { requireUsableFieldValidation } from "../../content/field-validation-rules";
import { withRelationDefaults } from "../../content/relation-definitions";
import { allFieldDefinitions } from "../../content/components";
import type { UniqueCombination } from "../../../schema/unique-combinations";
import { applyChange, type ModelWriteAnswer } from "./apply-model-change";
import { checkDuplicateKeys, checkNames, checkRevision, needApply } from "./model-write-checks";

/** A model's own part of a definition (schema/manage-models.ts `ModelDefinitionModel`). */
export interface DefinitionModel {
  name: string;
  slug: string;
  description?: string | null;
  kind?: "collection" | "single";
  is_public?: boolean;
  enableI18n?: boolean;
  settings?: ModelSettingsPatch;
  unique_combinations?: UniqueCombination[];
}

export interface CreateModelDefinitionInput {
  definition: { model: DefinitionModel; fields: NewField[] };
}

/** POST /models: createModel with the management answer shape. */
export async function createModelFromDefinition(ctx: LifecycleContext, input: CreateModelDefinitionInput): Promise<WritePlan<ModelWriteAnswer>> {
  checkDuplicateKeys(input.definition.fields);
  const m = input.definition.model;
  const create: CreateModelInput = {
    slug: m.slug,
    name: m.name,
    fields: input.definition.fields.map(({ id: _id, ...rest }) => rest),
    ...(m.description !== undefined ? { description: m.description } : {}),
    ...(m.kind !== undefined ? { kind: m.kind } : {}),
    ...(m.is_public !== undefined ? { is_public: m.is_public } : {}),
    ...(m.enableI18n !== undefined ? { i18n: m.enableI18n } : {}),
    ...(m.settings !== undefined ? { settings: m.settings } : {}),
    ...(m.unique_combinations !== undefined ? { unique_combinations: m.unique_combinations } : {}),
  };
  const plan = await createModel(ctx, create);
  const model = plan.answer;
  return {
    ...plan,
    answer: { model_id: model.id, slug: model.slug, revision: model.revision, updated_at: model.updated_at, created_field_ids: model.fields.map((f) => f.id), renamed_from: null },
  };
}

export interface UpdateModelInput {
  model_id: string;
  expected_revision: number;
  model: { name?: string; slug?: string; description?: string | null; enableI18n?: boolean; is_public?: boolean; settings?: ModelSettingsPatch };
}

/** PUT /models/{id}: model settings; fields kept. */
export async function updateModelSettings(ctx: LifecycleContext, input: UpdateModelInput): Promise<WritePlan<ModelWriteAnswer>> {
  needApply(ctx);
  const before = await loadModel(ctx, input.model_id);
  checkRevision(before, input.expected_revision);
  const m = input.model;
  const slug = m.slug ?? before.slug;
  const name = m.name ?? before.name;
  await checkNames(ctx, before.id, slug, name);
  const draft = {
    ...before,
    slug,
    name,
    description: m.description !== undefined ? m.description : before.description,
    i18n: m.enableI18n ?? before.i18n,
    is_public: m.is_public ?? before.is_public,
    settings: mergeModelSettings(before.settings, m.settings),
  };
  return applyChange(ctx, before, draft, [], "model.update");
}

export interface ReplaceDefinitionInput {
  model_id: string;
  expected_revision: number;
  /** The HTTP body always names `model` (the complete definition); services may leave it out to keep it. */
  definition: { model?: DefinitionModel; fields: NewField[] };
}

/**
 * The model part of a replaced definition over the model as it is: a new name or slug is a rename
 * (checked like PUT /models/{id}); optional keys left out keep their value.
 */
export async function replacedModelPart(ctx: LifecycleContext, before: Model, m: DefinitionModel | undefined) {
  if (m === undefined) return {};
  await checkNames(ctx, before.id, m.slug, m.name);
  return {
    // A collection becomes single only with at most one item (checked in applyChange: single-entry.ts).
    kind: m.kind ?? before.kind,
    slug: m.slug,
    name: m.name,
    description: m.description !== undefined ? m.description : before.description,
    i18n: m.enableI18n ?? before.i18n,
    is_public: m.is_public ?? before.is_public,
    settings: mergeModelSettings(before.settings, m.settings),
    unique_combinations: m.unique_combinations ?? before.unique_combinations,
  };
}

/**
 * PUT /models/{id}/definition: the complete definition — the model (a changed name or slug is a
 * rename, answered with `renamed_from`) and its fields kept by id, added without id, removed by
 * omission. What GET /models/{id} answers can be written back unchanged.
 */
export async function replaceModelDefinition(ctx: LifecycleContext, input: ReplaceDefinitionInput): Promise<WritePlan<ModelWriteAnswer>> {
  needApply(ctx);
  const before = await loadModel(ctx, input.model_id);
  checkRevision(before, input.expected_revision);
  const modelPart = await replacedModelPart(ctx, before, input.definition.model);
  checkDuplicateKeys(input.definition.fields);
  const known = new Set(before.fields.map((f) => f.id));
  const unknown = input.definition.fields.flatMap((f) => (f.id !== undefined && !known.has(f.id) ? [f.id] : []));
  if (unknown.length > 0) throw new AppError("field_not_found", "Some field ids are not fields of this model.", { ids: unknown });
  const created: string[] = [];
  const withIds = withRelationDefaults(input.definition.fields, before.id).map((f) => {
    if (f.id !== undefined) return { ...f, id: f.id };
    const id = newId("fld");
    created.push(id);
    return { ...f, id };
  });
  const fields: FieldDefinition[] = parse(ModelFields, withIds);
  requireUsableFieldValidation(fields);
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const siteModels = new Set(models.map((x) => x.id));
  // Targets of relations inside components too.
  const missing = allFieldDefinitions(fields).flatMap((f) => (f.targets ?? []).filter((t) => !siteModels.has(t)));
  if (missing.length > 0) throw new AppError("invalid_request", "Relation targets must be models of this site.", { targets: missing });
  return applyChange(ctx, before, { ...before, ...modelPart, fields }, created, "model.definition");
}
