import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import type { Model } from "../../repositories/model-repository";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "./authorize";
import type { LifecycleContext, WritePlan } from "./context";
import { entryView, type EntryView } from "./entry-view";
import { loadModel, requireSiteLanguage } from "./load";
import { prepareFields } from "./prepare-fields";
import { requireFreeSlug, requireValidSlug, slugify } from "./slugs";
import { newVersionStatements } from "./version-statements";

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
    .select(["instance_id", "translation_group_id"])
    .where("site_id", "=", ctx.site.id)
    .where("model_id", "=", model.id)
    .executeTakeFirst();
  if (existing) {
    throw new AppError("single_entry_exists", `Model "${model.slug}" is single and already has an entry.`, {
      instance_id: existing.instance_id,
    });
  }
}

/** Creates an item in one language with its first draft version. */
export async function createEntry(ctx: LifecycleContext, input: CreateEntryInput): Promise<WritePlan<EntryView>> {
  const model = await loadModel(ctx, input.model_id);
  const lang = input.lang ?? ctx.site.default_lang;
  requireSiteLanguage(ctx, model, lang);
  await requireSingleFree(ctx, model);

  const prepared = await prepareFields(ctx, model, {}, input.fields, null);
  authorize(ctx.actor, { operation: "create", modelId: model.id, lang, fieldIds: prepared.written, access: "write" });

  // A collection item needs an address: given, or made from its title. A single item may have none.
  const wanted = input.slug ?? (prepared.label ? slugify(prepared.label) : "");
  const slug = wanted === "" && model.kind === "single" ? null : requireValidSlug(wanted);
  await requireFreeSlug(ctx, model.id, lang, slug);
  const label = prepared.label ?? slug;

  const at = isoAt(ctx.clock.now());
  const instanceId = newId("ent");
  const groupId = newId("grp");
  const version = await newVersionStatements(ctx, model, instanceId, { ...prepared, label }, slug, at);
  const row = {
    instance_id: instanceId,
    model_id: model.id,
    primary_instance_id: instanceId,
    translation_group_id: groupId,
    lang,
    slug,
    label,
    current_version_id: version.versionId,
    published_version_id: null,
    published_at: null,
    first_published_at: null,
    workflow_state: "draft",
    workflow_revision: 0,
    owner_id: ctx.actor.id,
    assignee_ids: "[]",
    trashed_at: null,
    created_at: at,
    updated_at: at,
  };
  const answer = entryView({ ...row, site_id: ctx.site.id }, model, { fields: JSON.stringify(prepared.stored) }, ctx.actor);
  return {
    statements: [entryRepository(ctx.db, ctx.scope).insert(row), ...version.statements],
    answer,
    events: [{ name: "entry.created", payload: { instance_id: instanceId, translation_group_id: groupId, model_id: model.id, lang, version_id: version.versionId } }],
    purgeTags: [], // a draft is not served
    audit: { action: "entry.create", targetKind: "entry", targetId: instanceId, details: { fields: prepared.stored, slug } },
  };
}
