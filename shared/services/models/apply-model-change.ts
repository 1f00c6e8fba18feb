/** The one path of every model change: refusals unsafe for content, then the model row, re-renders, reindex, event and audit in one batch. */
import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { storedDefinition, type Model } from "../../repositories/model-repository";
import { reindexModelStatements } from "../../search/reindex";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { blockedChanges } from "./model-change-checks";
import { checkRoleGrants } from "./model-grant-checks";
import { requireUniqueSupported } from "../lifecycle/unique-values";
import { uniqueRebuild } from "./unique-rebuild";
import { requireRelationDefinitions } from "../../content/relation-definitions";
import { singleKindChange } from "../lifecycle/single-entry";
import { requireValidCombinations } from "../lifecycle/unique-combinations";
import { rerenderStatements } from "./model-rerender";
import { syncReset } from "../sync/change-log";
import { requireQueriesKept } from "../saved-queries/bound-queries";

/**
 * Whether sync cursors must start again (docs/sync.md): who may read the model's items changed
 * (visibility), a field was made private (readers hold values they may no longer have), or the
 * model's slug changed (its items' addresses). Re-rendered bodies are logged item by item anyway.
 */
function resetsSync(before: Model, after: Model): boolean {
  if (before.is_public !== after.is_public || before.slug !== after.slug) return true;
  const wasPrivate = privateFieldPaths(before.fields);
  return [...privateFieldPaths(after.fields)].some((path) => !wasPrivate.has(path));
}

/** Key paths of private fields, nested component fields included (`seo.keywords`). */
function privateFieldPaths(fields: readonly { key: string; private?: boolean; fields?: readonly unknown[] }[], prefix = ""): Set<string> {
  const out = new Set<string>();
  for (const f of fields) {
    const path = `${prefix}${f.key}`;
    if (f.private === true) out.add(path);
    const nested = (f.fields ?? []) as { key: string; private?: boolean; fields?: readonly unknown[] }[];
    for (const inner of privateFieldPaths(nested, `${path}.`)) out.add(inner);
  }
  return out;
}

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

function updateRow(ctx: LifecycleContext, model: Model, expectedRevision: number): CompiledQuery {
  return ctx.db
    .updateTable("models")
    .set({
      slug: model.slug,
      name: model.name,
      description: model.description,
      kind: model.kind,
      is_public: model.is_public ? 1 : 0,
      i18n: model.i18n ? 1 : 0,
      definition: storedDefinition(model),
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
export async function applyChange(
  ctx: LifecycleContext,
  before: Model,
  draft: Omit<Model, "revision" | "updated_at">,
  createdFieldIds: string[],
  action: string,
): Promise<WritePlan<ModelWriteAnswer>> {
  requireUniqueSupported(draft.fields);
  requireRelationDefinitions(draft.fields, { modelId: draft.id, i18n: draft.i18n });
  requireValidCombinations(draft.unique_combinations, draft.fields);
  const at = isoAt(ctx.clock.now());
  const after: Model = { ...draft, revision: before.revision + 1, updated_at: at };
  const removedFieldIds = before.fields.filter((f) => !after.fields.some((n) => n.id === f.id)).map((f) => f.id);
  if (removedFieldIds.length > 0) await checkRoleGrants(ctx, before.id, removedFieldIds);
  // Saved queries bound to the model must still be servable (docs/saved-queries.md): named first,
  // before what the content would block, since fixing the queries is the caller's own next step.
  await requireQueriesKept(ctx, after);
  const changes = await blockedChanges(ctx, before, after);
  if (changes.length > 0) throw new AppError("model_change_blocked", "The change is unsafe for existing content; nothing was written.", { changes });
  const statements: CompiledQuery[] = [...(await singleKindChange(ctx, before, after)), updateRow(ctx, after, before.revision)];
  // Unique claims: dropped for fields no longer unique, rebuilt from current drafts for new ones.
  statements.push(...(await uniqueRebuild(ctx, before, after)).statements);
  const renamed = before.slug !== after.slug;
  const itemTags: string[] = [];
  statements.push(...(await reindexModelStatements(ctx, after)));
  const rerender = await rerenderStatements(ctx, before, after);
  statements.push(...rerender.statements);
  if (resetsSync(before, after)) statements.push(syncReset(ctx, `model:${after.id}`));
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
