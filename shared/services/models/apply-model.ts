import { mergeModelSettings, type ModelSettingsPatch } from "../../../schema/model-settings";
import { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { hasSystemPermission } from "../../auth/permissions";
import { ModelFields, type FieldDefinition } from "../../../schema/model-definition";
import { modelRepository, type Model, type StoredDefinition } from "../../repositories/model-repository";
import { reindexModelStatements } from "../../search/reindex";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { renderSnapshot, snapshotStatements } from "../lifecycle/snapshot";
import { targetShape } from "../lifecycle/relation-targets";
import { parse } from "../validation";
import { createModel, MODEL_SLUG, type CreateModelInput, type NewField } from "./create-model";
import { loadModel } from "../lifecycle/load";
import { blockedChanges, type BlockedChange } from "./model-change-checks";
import { checkRoleGrants, checkTokenScopes } from "./model-grant-checks";
import { requireUniqueSupported } from "../lifecycle/unique-values";
import { requireUsableFieldValidation } from "../../content/field-validation-rules";
import { uniqueRebuild } from "./unique-rebuild";
import { requireRelationDefinitions, withRelationDefaults } from "../../content/relation-definitions";

export type { BlockedChange };

/** What every model write answers (spec: model write answers). */
export interface ModelWriteAnswer {
  model_id: string;
  slug: string;
  revision: number;
  updated_at: string;
  created_field_ids: string[];
  renamed_from: string | null;
  dependents?: { complete: true };
}

function needApply(ctx: Pick<LifecycleContext, "actor">): void {
  if (!hasSystemPermission(ctx.actor.permissions, "model:apply")) throw new AppError("missing_permission", "Changing models needs model:apply.");
}

/**
 * The permissions a write to an existing model needs before anything about the model is told:
 * model:apply, and model:delete for a removal. Callers that look the model up first (the
 * management handlers) ask this before answering not_found for a model the person may not read,
 * so a real unreadable model and a made-up id get the same refusal.
 */
export function authoriseModelWrite(ctx: Pick<LifecycleContext, "actor">, write: "change" | "remove"): void {
  needApply(ctx);
  if (write === "remove" && !hasSystemPermission(ctx.actor.permissions, "model:delete")) throw new AppError("missing_permission", "Deleting a model needs model:delete.");
}

function checkRevision(model: Model, expected: number): void {
  if (model.revision !== expected) {
    throw new AppError("model_changed", "The model changed since it was read; read it again.", { current_revision: model.revision, current_updated_at: model.updated_at });
  }
}

function checkDuplicateKeys(fields: readonly { key: string }[]): void {
  const seen = new Set<string>();
  const dup = fields.filter((f) => (seen.has(f.key) ? true : (seen.add(f.key), false))).map((f) => f.key);
  if (dup.length > 0) throw new AppError("duplicate_field_key", "A field key is used by more than one field.", { keys: [...new Set(dup)] });
}

async function checkNames(ctx: LifecycleContext, self: string, slug: string, name: string): Promise<Model[]> {
  if (!MODEL_SLUG.test(slug)) throw new AppError("invalid_request", "A model slug is a lower-case letter then letters, digits or hyphens (at most 64).", { slug });
  const all = await modelRepository(ctx.db, ctx.scope).list();
  const others = all.filter((m) => m.id !== self);
  if (others.some((m) => m.slug === slug)) throw new AppError("model_slug_taken", "Another model uses this slug.", { slug });
  if (others.some((m) => m.name === name)) throw new AppError("model_name_collision", "Another model has this name.", { name });
  return all;
}

/** What the public API serves from a model: changes here need published items re-rendered. */
function servedShape(model: Model): string {
  // A component's nested fields (their keys, types, privacy) are part of what it serves.
  const nested = (fields: readonly FieldDefinition[] | undefined): unknown => fields?.map((f) => [f.key, f.type, f.private ?? false, nested(f.fields)]) ?? null;
  return JSON.stringify([model.slug, model.fields.map((f) => [f.id, f.key, f.type, f.private ?? false, nested(f.fields)])]);
}

/**
 * Re-renders the model's published items when what they serve changed, and items of other models
 * linking to them when what those show of the model changed (its slug, whether it is public, whether
 * its title is private). Answers the re-rendered groups and the models whose filtered lists change.
 */
async function rerenderStatements(ctx: LifecycleContext, before: Model, after: Model): Promise<{ statements: CompiledQuery[]; groups: string[]; listModels: string[] }> {
  const statements: CompiledQuery[] = [];
  const groups = new Set<string>();
  const listModels = new Set<string>();
  // Rendering reads models from D1, where this batch has not changed the model yet.
  const changedModels = [after];
  const rows = await ctx.db
    .selectFrom("entries")
    .innerJoin("published_items", (join) => join.onRef("published_items.instance_id", "=", "entries.instance_id").onRef("published_items.site_id", "=", "entries.site_id"))
    .selectAll("entries")
    .select(["published_items.sort_at as sort_at"])
    .where("entries.site_id", "=", ctx.site.id)
    .where("entries.model_id", "=", after.id)
    .execute();
  for (const row of servedShape(before) === servedShape(after) ? [] : rows) {
    if (!row.published_version_id || !row.published_at) continue;
    const version = await ctx.db.selectFrom("versions").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", row.published_version_id).executeTakeFirst();
    if (!version) continue;
    const rendered = await renderSnapshot(ctx, row, version, after, { publishedAt: row.published_at, firstPublishedAt: row.sort_at, changedModels, keepPinned: true });
    statements.push(...snapshotStatements(ctx, row, version, rendered, after));
    groups.add(row.translation_group_id);
  }
  if (targetShape(before) !== targetShape(after)) {
    // Items of other models linking to this model's items show its slug, and link to them only while it is public.
    const sources = await ctx.db
      .selectFrom("published_items")
      .innerJoin("entries", (join) => join.onRef("entries.instance_id", "=", "published_items.instance_id").onRef("entries.site_id", "=", "published_items.site_id"))
      .selectAll("entries")
      .select(["published_items.sort_at as sort_at"])
      .where("published_items.site_id", "=", ctx.site.id)
      .where("published_items.model_id", "<>", after.id)
      .where(({ exists, selectFrom }) =>
        exists(
          // The published version's links, not the filter index: a link to a private model's item has no index row.
          selectFrom("relation_links as rl")
            .innerJoin("entries as t", (join) => join.onRef("t.translation_group_id", "=", "rl.target_group_id").onRef("t.site_id", "=", "rl.site_id"))
            .select("rl.version_id")
            .whereRef("rl.version_id", "=", "entries.published_version_id")
            .whereRef("rl.site_id", "=", "entries.site_id")
            .where("t.model_id", "=", after.id),
        ),
      )
      .execute();
    const models = modelRepository(ctx.db, ctx.scope);
    for (const source of sources) {
      if (!source.published_version_id || !source.published_at) continue;
      const version = await ctx.db.selectFrom("versions").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", source.published_version_id).executeTakeFirst();
      const model = await models.findById(source.model_id);
      if (!version || !model) continue;
      const rendered = await renderSnapshot(ctx, source, version, model, { publishedAt: source.published_at, firstPublishedAt: source.sort_at, changedModels, keepPinned: true });
      statements.push(...snapshotStatements(ctx, source, version, rendered, model));
      groups.add(source.translation_group_id);
      // Their filter index rows change too: a filtered list that did not hold them may hold them now.
      listModels.add(model.id);
    }
  }
  return { statements, groups: [...groups], listModels: [...listModels] };
}

function updateRow(ctx: LifecycleContext, model: Model, expectedRevision: number): CompiledQuery {
  return ctx.db
    .updateTable("models")
    .set({
      slug: model.slug,
      name: model.name,
      description: model.description,
      is_public: model.is_public ? 1 : 0,
      i18n: model.i18n ? 1 : 0,
      definition: JSON.stringify({ fields: model.fields, settings: model.settings } satisfies StoredDefinition),
      revision: model.revision,
      updated_at: model.updated_at,
    })
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", model.id)
    .where("revision", "=", expectedRevision)
    .compile();
}

/**
 * The one path of every model change: refuses changes unsafe for content, then writes the model,
 * re-rendered published items, the model's search rows, the event and audit in one batch.
 */
async function applyChange(
  ctx: LifecycleContext,
  before: Model,
  draft: Omit<Model, "revision" | "updated_at">,
  createdFieldIds: string[],
  action: string,
): Promise<WritePlan<ModelWriteAnswer>> {
  requireUniqueSupported(draft.fields);
  requireRelationDefinitions(draft.fields, { modelId: draft.id, i18n: draft.i18n });
  const at = isoAt(ctx.clock.now());
  const after: Model = { ...draft, revision: before.revision + 1, updated_at: at };
  const removedFieldIds = before.fields.filter((f) => !after.fields.some((n) => n.id === f.id)).map((f) => f.id);
  if (removedFieldIds.length > 0) await checkRoleGrants(ctx, before.id, removedFieldIds);
  const changes = await blockedChanges(ctx, before, after);
  if (changes.length > 0) throw new AppError("model_change_blocked", "The change is unsafe for existing content; nothing was written.", { changes });
  const statements: CompiledQuery[] = [updateRow(ctx, after, before.revision)];
  // Unique claims: dropped for fields no longer unique, rebuilt from current drafts for new ones.
  statements.push(...(await uniqueRebuild(ctx, before, after)).statements);
  const renamed = before.slug !== after.slug;
  const itemTags: string[] = [];
  statements.push(...(await reindexModelStatements(ctx, after)));
  const rerender = await rerenderStatements(ctx, before, after);
  statements.push(...rerender.statements);
  itemTags.push(...rerender.groups.map(cacheTag.item), ...rerender.listModels.map(cacheTag.list));
  const keyRenames = before.fields.flatMap((f) => {
    const now = after.fields.find((n) => n.id === f.id);
    return now && now.key !== f.key ? [{ field_id: f.id, from: f.key, to: now.key }] : [];
  });
  const removed = before.fields.filter((f) => !after.fields.some((n) => n.id === f.id)).map((f) => f.key);
  const answer: ModelWriteAnswer = {
    model_id: after.id,
    slug: after.slug,
    revision: after.revision,
    updated_at: at,
    created_field_ids: createdFieldIds,
    renamed_from: renamed ? before.slug : null,
    ...(renamed || keyRenames.length > 0 || removed.length > 0 ? { dependents: { complete: true as const } } : {}),
  };
  return {
    statements,
    answer,
    events: [{ name: renamed ? "model.renamed" : "model.updated", payload: { model_id: after.id, slug: after.slug, revision: after.revision, ...(renamed ? { renamed_from: before.slug } : {}) } }],
    purgeTags: [cacheTag.model(after.id), cacheTag.list(after.id), ...itemTags],
    audit: {
      action,
      targetKind: "model",
      targetId: after.id,
      details: { revision: after.revision, created_field_ids: createdFieldIds, key_renames: keyRenames, removed_fields: removed, ...(renamed ? { renamed_from: before.slug } : {}) },
    },
  };
}

/** A model's own part of a definition (schema/manage-models.ts `ModelDefinitionModel`). */
export interface DefinitionModel {
  name: string;
  slug: string;
  description?: string | null;
  kind?: "collection" | "single";
  is_public?: boolean;
  enableI18n?: boolean;
  settings?: ModelSettingsPatch;
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
 * (checked like PUT /models/{id}); optional keys left out keep their value. The kind cannot change.
 */
async function replacedModelPart(ctx: LifecycleContext, before: Model, m: DefinitionModel | undefined) {
  if (m === undefined) return {};
  if (m.kind !== undefined && m.kind !== before.kind) {
    throw new AppError("invalid_request", "A model's kind cannot change.", { parameter: "definition.model.kind", kind: before.kind });
  }
  await checkNames(ctx, before.id, m.slug, m.name);
  return {
    slug: m.slug,
    name: m.name,
    description: m.description !== undefined ? m.description : before.description,
    i18n: m.enableI18n ?? before.i18n,
    is_public: m.is_public ?? before.is_public,
    settings: mergeModelSettings(before.settings, m.settings),
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
  const missing = fields.flatMap((f) => (f.targets ?? []).filter((t) => !siteModels.has(t)));
  if (missing.length > 0) throw new AppError("invalid_request", "Relation targets must be models of this site.", { targets: missing });
  return applyChange(ctx, before, { ...before, ...modelPart, fields }, created, "model.definition");
}

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
  const siteModels = new Set((await modelRepository(ctx.db, ctx.scope).list()).map((x) => x.id));
  const missing = fields.flatMap((f) => (f.targets ?? []).filter((t) => !siteModels.has(t)));
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

export interface ModelFolderInput {
  model_id: string;
  folder: string | null;
}

/** PUT /models/{id}/folder: display only; revision and updated_at unchanged. */
export async function setModelFolder(ctx: LifecycleContext, input: ModelFolderInput): Promise<WritePlan<{ model_id: string; slug: string; folder: string | null }>> {
  needApply(ctx);
  const model = await loadModel(ctx, input.model_id);
  return {
    statements: [ctx.db.updateTable("models").set({ folder: input.folder }).where("site_id", "=", ctx.site.id).where("id", "=", model.id).compile()],
    answer: { model_id: model.id, slug: model.slug, folder: input.folder },
    events: [{ name: "model.folder_changed", payload: { model_id: model.id, slug: model.slug, folder: input.folder } }],
    purgeTags: [],
    audit: { action: "model.folder", targetKind: "model", targetId: model.id, details: { from: model.folder, to: input.folder } },
  };
}

export interface RemoveModelInput {
  model_id: string;
  expected_revision: number;
  confirm: string;
}

/** POST /models/{id}/remove: only a model without any entry (Trash included) and not a relation target. */
export async function removeModel(ctx: LifecycleContext, input: RemoveModelInput): Promise<WritePlan<ModelWriteAnswer>> {
  authoriseModelWrite(ctx, "remove");
  const model = await loadModel(ctx, input.model_id);
  if (input.confirm !== model.id) throw new AppError("invalid_request", "confirm must repeat the model id.", { parameter: "confirm" });
  checkRevision(model, input.expected_revision);
  const row = await ctx.d1.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND model_id = ?").bind(ctx.site.id, model.id).first<{ n: number }>();
  const entries = row?.n ?? 0;
  if (entries > 0) throw new AppError("model_not_empty", "The model still has entries (Trash included).", { entries });
  const targeting = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => m.id !== model.id && m.fields.some((f) => (f.targets ?? []).includes(model.id)));
  if (targeting.length > 0) {
    throw new AppError("dependent_content", "Relation fields of other models target this model.", { models: targeting.map((m) => m.slug) });
  }
  await checkRoleGrants(ctx, model.id, "model");
  await checkTokenScopes(ctx, model.id);
  const at = isoAt(ctx.clock.now());
  return {
    statements: [
      ctx.db.deleteFrom("models").where("site_id", "=", ctx.site.id).where("id", "=", model.id).where("revision", "=", input.expected_revision).compile(),
      CompiledQuery.raw("DELETE FROM search_documents WHERE site_id = ? AND model_id = ?", [ctx.site.id, model.id]),
      // Permission migration (spec 2 rule 9): plugin grants name models by id; a removed model leaves them.
      CompiledQuery.raw(
        `UPDATE plugin_installations SET granted_model_ids = (SELECT json_group_array(j.value) FROM json_each(plugin_installations.granted_model_ids) j WHERE j.value != ?)
         WHERE site_id = ? AND EXISTS (SELECT 1 FROM json_each(plugin_installations.granted_model_ids) j WHERE j.value = ?)`,
        [model.id, ctx.site.id, model.id],
      ),
    ],
    answer: { model_id: model.id, slug: model.slug, revision: model.revision, updated_at: at, created_field_ids: [], renamed_from: null, dependents: { complete: true } },
    events: [{ name: "model.deleted", payload: { model_id: model.id, slug: model.slug } }],
    purgeTags: [cacheTag.model(model.id), cacheTag.list(model.id)],
    audit: { action: "model.delete", targetKind: "model", targetId: model.id, details: { slug: model.slug, definition: model.fields } },
  };
}
