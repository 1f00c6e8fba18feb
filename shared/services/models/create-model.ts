import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { hasSystemPermission } from "../../auth/permissions";
import { DEFAULT_MODEL_SETTINGS, mergeModelSettings, type ModelSettingsPatch } from "../../../schema/model-settings";
import { ModelFields, type FieldDefinition } from "../../../schema/model-definition";
import { modelRepository, type Model } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { parse } from "../validation/parse";
import { requireUniqueSupported } from "../lifecycle/unique-values";
import { requireUsableFieldValidation } from "../../content/field-validation-rules";
import { requireRelationDefinitions, withRelationDefaults } from "../../content/relation-definitions";
import { allFieldDefinitions } from "../../content/components";
import type { UniqueCombination } from "../../../schema/unique-combinations";
import { requireValidCombinations } from "../lifecycle/unique-combinations";

/** A field as a model write names it: without `id` when new. */
export type NewField = Omit<FieldDefinition, "id" | "fields"> & { id?: string; fields?: readonly object[] };

export interface CreateModelInput {
  slug: string;
  name: string;
  description?: string | null;
  kind?: "collection" | "single";
  is_public?: boolean;
  i18n?: boolean;
  folder?: string | null;
  settings?: ModelSettingsPatch;
  unique_combinations?: UniqueCombination[];
  fields: NewField[];
}

/** Model slugs become public paths (/v1/{model}); a leading underscore is reserved for /v1/_search etc. */
export const MODEL_SLUG = /^[a-z][a-z0-9-]{0,63}$/;

/** Creates a content model. Relation targets must be models of the same site. */
export async function createModel(ctx: LifecycleContext, input: CreateModelInput): Promise<WritePlan<Model>> {
  if (!hasSystemPermission(ctx.actor.permissions, "model:apply")) {
    throw new AppError("missing_permission", "Changing models needs model:apply.");
  }
  if (!MODEL_SLUG.test(input.slug)) {
    throw new AppError("invalid_request", "A model slug is a lower-case letter then letters, digits or hyphens (at most 64).", { slug: input.slug });
  }
  const id = newId("mdl");
  const fields = parse(ModelFields, withRelationDefaults(input.fields, id).map((f) => ({ ...f, id: f.id ?? newId("fld") })));
  requireUsableFieldValidation(fields);
  requireRelationDefinitions(fields, { modelId: id, i18n: input.i18n ?? false });
  requireUniqueSupported(fields);
  requireValidCombinations(input.unique_combinations ?? [], fields);
  const models = modelRepository(ctx.db, ctx.scope);
  const existing = await models.list();
  if (existing.some((m) => m.slug === input.slug)) throw new AppError("model_slug_taken", "Another model uses this slug.", { slug: input.slug });
  if (existing.some((m) => m.name === input.name)) throw new AppError("model_name_collision", "Another model has this name.", { name: input.name });
  const known = new Set(existing.map((m) => m.id));
  // Targets of relations inside components too.
  const missing = allFieldDefinitions(fields).flatMap((f) => (f.targets ?? []).filter((t) => !known.has(t) && t !== id));
  if (missing.length > 0) throw new AppError("invalid_request", "Relation targets must be models of this site.", { targets: missing });

  const at = isoAt(ctx.clock.now());
  const model: Model = {
    id,
    site_id: ctx.site.id,
    slug: input.slug,
    name: input.name,
    description: input.description ?? null,
    kind: input.kind ?? "collection",
    is_public: input.is_public ?? true,
    i18n: input.i18n ?? false,
    fields,
    settings: mergeModelSettings(DEFAULT_MODEL_SETTINGS, input.settings),
    unique_combinations: input.unique_combinations ?? [],
    folder: input.folder ?? null,
    manual_order: [],
    revision: 1,
    created_at: at,
    updated_at: at,
  };
  return {
    statements: [models.insert(model)],
    answer: model,
    events: [{ name: "model.created", payload: { model_id: id, slug: model.slug } }],
    purgeTags: [cacheTag.model(id)],
    audit: { action: "model.create", targetKind: "model", targetId: id, details: { definition: fields } },
  };
}
