import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import type { EntryView } from "./entry-view";
import { loadModelForEntries, requireSiteLanguage } from "./load";
import { newInstance } from "./new-instance";
import { prepareFields, writtenFieldIds } from "./prepare-fields";
import { explainSlugTaken, requireFreeSlug, requireValidSlug, slugify } from "./slugs";
import { claimStatements, claimsOf, requireClaimsFree } from "./unique-values";
import { requireSingleFree, singleFreeGuard } from "./single-entry";

export interface CreateEntryInput {
  model_id: string;
  lang?: string;
  slug?: string | null;
  fields: Readonly<Record<string, unknown>>;
}

/**
 * Creates an item in one language with its first draft version. Authorise first, then reveal: the
 * create permission (model, language, fields written) is asked before any check that reads other
 * content (single model taken, slug, unique values, links).
 */
export async function createEntry(ctx: LifecycleContext, input: CreateEntryInput): Promise<WritePlan<EntryView>> {
  const model = await loadModelForEntries(ctx, input.model_id);
  const lang = input.lang ?? ctx.site.default_lang;
  authorize(ctx.actor, { operation: "create", modelId: model.id, lang, fieldIds: writtenFieldIds(model, input.fields), access: "write" });
  requireSiteLanguage(ctx, model, lang);
  await requireSingleFree(ctx, model);

  const prepared = await prepareFields(ctx, model, {}, input.fields, null, { instance_id: null, group_id: null, lang });

  // A collection item needs an address: given, or made from its title. A single item may have none.
  const wanted = input.slug ?? (prepared.label ? slugify(prepared.label) : "");
  const slug = wanted === "" && model.kind === "single" ? null : requireValidSlug(wanted);
  const label = prepared.label ?? slug;
  // A new item has its own new translation group: no claim can be its own yet.
  const claims = claimsOf(model, lang, prepared.stored);
  // The slug is the last check before the batch unless claims follow it: then it is read first, so
  // slug_taken still comes before a claim's refusal; else the unique index refuses it in the batch
  // and the holder is read only then (one D1 round trip less per create).
  const slugInBatch = claims.length === 0;
  if (!slugInBatch) await requireFreeSlug(ctx, model.id, lang, slug);
  await requireClaimsFree(ctx, model, "", claims);

  const created = await newInstance(ctx, model, { lang, slug }, { ...prepared, label });
  const { instance_id: instanceId, translation_group_id: groupId, current_version_id: versionId } = created.row;
  return {
    statements: [...singleFreeGuard(ctx, model), ...created.statements, ...claimStatements(ctx, model, created.row, claims)],
    answer: created.answer,
    events: [{ name: "entry.created", payload: { instance_id: instanceId, translation_group_id: groupId, model_id: model.id, lang, version_id: versionId } }],
    purgeTags: [], // a draft is not served
    audit: { action: "entry.create", targetKind: "entry", targetId: instanceId, details: { fields: prepared.stored, slug } },
    ...(slugInBatch ? { explain: explainSlugTaken(ctx, model.id, lang, slug) } : {}),
  };
}
