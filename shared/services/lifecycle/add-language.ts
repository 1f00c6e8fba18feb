import { AppError } from "../../errors";
import type { FieldValue } from "../../../schema/model-definition";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import type { EntryView } from "./entry-view";
import { newInstance } from "./new-instance";
import { loadEntry, requireNotTrashed, requireSiteLanguage, revealEntry } from "./load";
import { prepareFields, writtenFieldIds } from "./prepare-fields";
import { requireFreeSlug, requireValidSlug } from "./slugs";
import { claimStatements, claimsOf, requireClaimsFree } from "./unique-values";

export interface AddLanguageInput {
  /** Any instance of the item; the new language joins its translation group. */
  instance_id: string;
  lang: string;
  slug?: string;
  /** Values by key; omitted fields start as a copy of the source instance's current draft. */
  fields?: Readonly<Record<string, unknown>>;
}

/**
 * Adds a language instance to an item's translation group, starting from the source's draft.
 * Authorise first, then reveal: the source must be readable by the actor (else "not found", as
 * `GET /entries/{id}` answers), and creating in the new language (with the fields written) is
 * asked before the group's other languages are looked at; the answer shows only what the actor
 * may read (`entryView`).
 */
export async function addLanguage(ctx: LifecycleContext, input: AddLanguageInput): Promise<WritePlan<EntryView>> {
  const { entry: source, model, version } = await loadEntry(ctx, input.instance_id);
  authorize(ctx.actor, { operation: "create", modelId: model.id, lang: input.lang, fieldIds: writtenFieldIds(model, input.fields ?? {}), access: "write" });
  requireNotTrashed(source);
  requireSiteLanguage(ctx, model, input.lang);
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(source.translation_group_id);
  const existing = group.find((e) => e.lang === input.lang);
  if (existing?.trashed_at) {
    throw new AppError("language_in_trash", "This language of the item is in Trash; restore it instead.", revealEntry(ctx, existing));
  }
  if (existing) throw new AppError("locale_exists", "The item already has this language.", revealEntry(ctx, existing));

  const base = version ? (JSON.parse(version.fields) as Record<string, FieldValue>) : {};
  const slug = input.slug === undefined ? source.slug : requireValidSlug(input.slug);
  const prepared = await prepareFields(ctx, model, base, input.fields ?? {}, slug, { instance_id: null, group_id: source.translation_group_id, lang: input.lang });
  await requireFreeSlug(ctx, model.id, input.lang, slug);
  const claims = claimsOf(model, input.lang, prepared.stored);
  await requireClaimsFree(ctx, model, source.translation_group_id, claims);

  const created = await newInstance(ctx, model, { lang: input.lang, slug, group: source }, prepared);
  const instanceId = created.row.instance_id;
  return {
    statements: [...created.statements, ...claimStatements(ctx, model, created.row, claims)],
    answer: created.answer,
    events: [{ name: "entry.language_added", payload: { instance_id: instanceId, translation_group_id: source.translation_group_id, model_id: model.id, lang: input.lang } }],
    purgeTags: [],
    audit: { action: "entry.add_language", targetKind: "entry", targetId: instanceId, details: { fields: prepared.stored, slug } },
  };
}
