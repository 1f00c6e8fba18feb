import { AppError } from "../../errors";
import type { Model } from "../../repositories/model-repository";
import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import type { EntryView } from "./entry-view";
import { loadModelForEntries, requireSiteLanguage, revealEntry } from "./load";
import { newInstance } from "./new-instance";
import { prepareFields, writtenFieldIds } from "./prepare-fields";
import { requireFreeSlug, requireValidSlug, slugify } from "./slugs";
import { claimStatements, claimsOf, requireClaimsFree } from "./unique-values";

export interface CreateEntryInput {
  model_id: string;
  lang?: string;
  slug?: string | null;
  fields: Readonly<Record<string, unknown>>;
}

/** A single model holds at most one item, Trash counted. */
async function requireSingleFree(ctx: LifecycleContext, model: Model): Promise<void> {
  if (model.kind !== "single") return;
  const existing = await ctx.db
    .selectFrom("entries")
    .select(["instance_id", "model_id", "lang"])
    .where("site_id", "=", ctx.site.id)
    .where("model_id", "=", model.id)
    .executeTakeFirst();
  if (existing) {
    const details = revealEntry(ctx, existing);
    throw new AppError("single_entry_exists", `Model "${model.slug}" is single and already has an entry.`, details.instance_id ? details : undefined);
  }
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
  await requireFreeSlug(ctx, model.id, lang, slug);
  const label = prepared.label ?? slug;
  // A new item has its own new translation group: no claim can be its own yet.
  const claims = claimsOf(model, lang, prepared.stored);
  await requireClaimsFree(ctx, model, "", claims);

  const created = await newInstance(ctx, model, { lang, slug }, { ...prepared, label });
  const { instance_id: instanceId, translation_group_id: groupId, current_version_id: versionId } = created.row;
  return {
    statements: [...created.statements, ...claimStatements(ctx, model, created.row, claims)],
    answer: created.answer,
    events: [{ name: "entry.created", payload: { instance_id: instanceId, translation_group_id: groupId, model_id: model.id, lang, version_id: versionId } }],
    purgeTags: [], // a draft is not served
    audit: { action: "entry.create", targetKind: "entry", targetId: instanceId, details: { fields: prepared.stored, slug } },
  };
}
