/** Model proposals: a proposed definition checked without writing, and applied as one normal model apply. */
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { ModelFields, type FieldDefinition } from "../../../schema/model-definition";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { parse } from "../validation/parse";
import type { NewField } from "./create-model";
import { loadModel } from "../lifecycle/load";
import { blockedChanges, type BlockedChange } from "./model-change-checks";
import { requireUniqueSupported } from "../lifecycle/unique-values";
import { requireUsableFieldValidation } from "../../content/field-validation-rules";
import { requireRelationDefinitions, withRelationDefaults } from "../../content/relation-definitions";
import { allFieldDefinitions } from "../../content/components";
import { requireValidCombinations } from "../lifecycle/unique-combinations";
import { applyChange, type ModelWriteAnswer } from "./apply-model-change";
import { replacedModelPart, type DefinitionModel } from "./definition-writes";
import { checkDuplicateKeys, checkNames, checkRevision, needApply } from "./model-write-checks";

/** A whole model definition as a model proposal names it: the model part and every field (kept by id). */
export interface ProposedDefinition {
  model: DefinitionModel;
  fields: NewField[];
}

/** The model `before` would become under a proposed definition; checked like a normal apply. */
async function proposedDraft(ctx: LifecycleContext, before: Model, definition: ProposedDefinition): Promise<{ draft: Omit<Model, "revision" | "updated_at">; created: string[] }> {
  const modelPart = await replacedModelPart(ctx, before, definition.model);
  checkDuplicateKeys(definition.fields);
  const known = new Set(before.fields.map((f) => f.id));
  const unknown = definition.fields.flatMap((f) => (f.id !== undefined && !known.has(f.id) ? [f.id] : []));
  if (unknown.length > 0) throw new AppError("field_not_found", "Some field ids are not fields of this model.", { ids: unknown });
  const created: string[] = [];
  const withIds = withRelationDefaults(definition.fields, before.id).map((f) => {
    if (f.id !== undefined) return { ...f, id: f.id };
    const id = newId("fld");
    created.push(id);
    return { ...f, id };
  });
  const fields: FieldDefinition[] = parse(ModelFields, withIds);
  requireUsableFieldValidation(fields);
  requireUniqueSupported(fields);
  requireValidCombinations(modelPart.unique_combinations ?? before.unique_combinations, fields);
  const siteModels = new Set((await modelRepository(ctx.db, ctx.scope).list()).map((x) => x.id));
  // Targets of relations inside components too.
  const missing = allFieldDefinitions(fields).flatMap((f) => (f.targets ?? []).filter((t) => !siteModels.has(t)));
  if (missing.length > 0) throw new AppError("invalid_request", "Relation targets must be models of this site.", { targets: missing });
  const draft = { ...before, ...modelPart, fields };
  return { draft, created };
}

/**
 * Checks a proposed change to a model without writing: the content-breaking changes an apply of it
 * would meet now (a model proposal lists them; the apply itself still refuses them).
 */
export async function proposedModelChanges(ctx: LifecycleContext, before: Model, definition: ProposedDefinition): Promise<BlockedChange[]> {
  const { draft } = await proposedDraft(ctx, before, definition);
  return blockedChanges(ctx, before, { ...draft, revision: before.revision + 1, updated_at: before.updated_at });
}

/** Checks a proposed new model without writing: slug, name, keys and fields as POST /models would. */
export async function checkProposedNewModel(ctx: LifecycleContext, definition: ProposedDefinition): Promise<void> {
  await checkNames(ctx, "", definition.model.slug, definition.model.name);
  checkDuplicateKeys(definition.fields);
  if (definition.fields.some((f) => f.id !== undefined)) throw new AppError("invalid_request", "A new model's fields have no ids.");
  const fields = parse(ModelFields, withRelationDefaults(definition.fields, "").map((f) => ({ ...f, id: newId("fld") })));
  requireUsableFieldValidation(fields);
  requireUniqueSupported(fields);
  requireRelationDefinitions(fields, { i18n: definition.model.enableI18n ?? false });
  requireValidCombinations(definition.model.unique_combinations ?? [], fields);
}

/**
 * A model's settings and fields replaced by a proposed definition, as one normal apply by the actor
 * (model:apply, the content-breaking refusal, re-render, reindex); `expected_revision` as read.
 */
export async function applyProposedDefinition(
  ctx: LifecycleContext,
  input: { model_id: string; expected_revision: number; definition: ProposedDefinition },
): Promise<WritePlan<ModelWriteAnswer>> {
  needApply(ctx);
  const before = await loadModel(ctx, input.model_id);
  checkRevision(before, input.expected_revision);
  const { draft, created } = await proposedDraft(ctx, before, input.definition);
  return applyChange(ctx, before, draft, created, "model.definition");
}
