import type { CompiledQuery } from "kysely";
import { purgeHeadStatements } from "../relations/relation-heads";
import { isoAt } from "../../clock";
import { restoredLinkStatements } from "./relation-rules";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import { chunk } from "../../db/chunks";
import type { EntryRow } from "../../db/database";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "./authorize";
import { cacheTag, type LifecycleContext, type WritePlan } from "./context";
import { loadEntry, revealEntry } from "./load";
import { requireFreeSlug } from "./slugs";
import { claimStatements, claimsOf, releaseStatements, takenClaims, hasUniqueClaims, type ClaimIssue } from "./unique-values";

export interface TrashInput {
  instance_id: string;
  /** Move only this language; by default every language of the item moves. */
  language_only?: boolean;
}

export interface TrashAnswer {
  instance_ids: string[];
  translation_group_id: string;
  trashed_at: string | null;
}

export interface PurgeAnswer {
  purged_instance_ids: string[];
  translation_group_id: string;
}

/**
 * The instances a Trash command acts on: one language, or every language of the item in that
 * state; and the languages whose editing leases guard it (`locks`): that one language, or every
 * language of the item, as an item-wide command touches the item each of its editors works on.
 */
async function affected(ctx: LifecycleContext, entry: EntryRow, languageOnly: boolean | undefined, inTrash: boolean): Promise<{ instances: EntryRow[]; locks: string[] }> {
  if (languageOnly) return { instances: [entry], locks: [entry.instance_id] };
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(entry.translation_group_id);
  return { instances: group.filter((e) => (e.trashed_at !== null) === inTrash), locks: itemLocks(entry, group) };
}

/** Every language of the item, the one named first (its editing token is for that one). */
function itemLocks(entry: EntryRow, group: readonly EntryRow[]): string[] {
  return [entry.instance_id, ...group.map((e) => e.instance_id).filter((id) => id !== entry.instance_id)];
}

/** Delete on the instance named: asked before its Trash state or its other languages are revealed. */
function authorizeDelete(ctx: LifecycleContext, modelId: string, instances: readonly EntryRow[]): void {
  for (const e of instances) authorize(ctx.actor, { operation: "delete", modelId, lang: e.lang, ownerId: e.owner_id });
}

function stamp(ctx: LifecycleContext, instances: EntryRow[], trashedAt: string | null, at: string): CompiledQuery[] {
  return instances.flatMap((e) => [
    guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND workflow_revision = ?)", [e.instance_id, e.workflow_revision]),
    ctx.db
      .updateTable("entries")
      .set({ trashed_at: trashedAt, workflow_state: "draft", workflow_revision: e.workflow_revision + 1, updated_at: at })
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", e.instance_id)
      .compile(),
  ]);
}

/** Moves an item (or one language) to Trash. Refused while any affected language is published. */
export async function trashEntry(ctx: LifecycleContext, input: TrashInput): Promise<WritePlan<TrashAnswer>> {
  const { entry, model } = await loadEntry(ctx, input.instance_id);
  authorizeDelete(ctx, model.id, [entry]);
  if (entry.trashed_at !== null) throw new AppError("entry_in_trash", "The entry is already in Trash.");
  const { instances, locks } = await affected(ctx, entry, input.language_only, false);
  authorizeDelete(ctx, model.id, instances);
  const published = instances.filter((e) => e.published_version_id !== null);
  if (published.length > 0) {
    throw new AppError("entry_published", "Unpublish the item before moving it to Trash.", {
      published: published.map((e) => ({ ...revealEntry(ctx, e), lang: e.lang })),
    });
  }
  const at = isoAt(ctx.clock.now());
  return {
    // Trash content claims no unique value: restoring it claims them again.
    statements: [...stamp(ctx, instances, at, at), ...releaseStatements(ctx, instances.map((e) => e.instance_id))],
    answer: { instance_ids: instances.map((e) => e.instance_id), translation_group_id: entry.translation_group_id, trashed_at: at },
    events: [{ name: "entry.trashed", payload: { instance_ids: instances.map((e) => e.instance_id), translation_group_id: entry.translation_group_id, model_id: model.id } }],
    purgeTags: [], // refused while published: nothing served changes
    locks,
    audit: { action: "entry.trash", targetKind: "entry", targetId: entry.instance_id, details: { instance_ids: instances.map((e) => e.instance_id) } },
  };
}

/** Brings an item (or one language) back from Trash as a draft; its address must still be free. */
export async function restoreEntry(ctx: LifecycleContext, input: TrashInput): Promise<WritePlan<TrashAnswer>> {
  const { entry, model } = await loadEntry(ctx, input.instance_id);
  authorizeDelete(ctx, model.id, [entry]);
  if (entry.trashed_at === null) throw new AppError("entry_not_in_trash", "The entry is not in Trash.");
  const { instances, locks } = await affected(ctx, entry, input.language_only, true);
  authorizeDelete(ctx, model.id, instances);
  for (const e of instances) await requireFreeSlug(ctx, model.id, e.lang, e.slug, e.instance_id);
  // Its unique values must still be free: another item may have taken one while it was in Trash.
  const entries = entryRepository(ctx.db, ctx.scope);
  const reclaims: CompiledQuery[] = [];
  const issues: ClaimIssue[] = [];
  for (const e of hasUniqueClaims(model) ? instances : []) {
    const version = e.current_version_id ? await entries.findVersion(e.current_version_id) : undefined;
    const claims = claimsOf(model, e.lang, version ? (JSON.parse(version.fields) as Record<string, unknown>) : {});
    issues.push(...(await takenClaims(ctx, model, e.translation_group_id, claims, e.lang)));
    reclaims.push(...claimStatements(ctx, model, e, claims));
  }
  if (issues.length > 0) {
    throw new AppError("field_validation_failed", "Some unique values of the item are used by other entries now; change those entries first.", { issues });
  }
  // Its one_to_one / one_to_many targets must still be free (docs/content-rules-relations.md).
  reclaims.push(...(await restoredLinkStatements(ctx, model, instances)));
  const at = isoAt(ctx.clock.now());
  return {
    statements: [...stamp(ctx, instances, null, at), ...reclaims],
    answer: { instance_ids: instances.map((e) => e.instance_id), translation_group_id: entry.translation_group_id, trashed_at: null },
    events: [{ name: "entry.restored", payload: { instance_ids: instances.map((e) => e.instance_id), translation_group_id: entry.translation_group_id, model_id: model.id } }],
    purgeTags: [], // comes back as a draft: nothing served changes
    locks,
    audit: { action: "entry.restore", targetKind: "entry", targetId: entry.instance_id, details: { instance_ids: instances.map((e) => e.instance_id) } },
  };
}

/** Deletes Trash content for good: instances, versions, their media usage rows and relation rows on either side. */
export async function purgeEntry(ctx: LifecycleContext, input: { instance_id: string; trashed_before?: string }): Promise<WritePlan<PurgeAnswer>> {
  const { entry, model } = await loadEntry(ctx, input.instance_id);
  authorizeDelete(ctx, model.id, [entry]);
  if (entry.trashed_at === null) throw new AppError("entry_not_in_trash", "Only Trash content can be deleted for good.");
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(entry.translation_group_id);
  // Trash retention (trash-retention.ts) deletes only the languages past the window.
  const before = input.trashed_before;
  const instances = group.filter((e) => e.trashed_at !== null && (before === undefined || e.trashed_at <= before));
  if (instances.length === 0) throw new AppError("entry_not_in_trash", "Only Trash content can be deleted for good.");
  authorizeDelete(ctx, model.id, instances);
  const ids = instances.map((e) => e.instance_id);
  const groupGone = instances.length === group.length;
  const siteId = ctx.site.id;
  const statements: CompiledQuery[] = [];
  for (const part of chunk(ids, 90)) {
    statements.push(
      guard(ctx.db, "workflow_conflict", `(SELECT count(*) FROM entries WHERE site_id = ? AND trashed_at IS NOT NULL AND instance_id IN (${part.map(() => "?").join(",")})) = ?`, [siteId, ...part, part.length]),
      ctx.db.deleteFrom("relation_links").where("site_id", "=", siteId).where("source_instance_id", "in", part).compile(),
      ctx.db.deleteFrom("media_usage").where("site_id", "=", siteId).where("instance_id", "in", part).compile(),
      ctx.db.deleteFrom("versions").where("site_id", "=", siteId).where("instance_id", "in", part).compile(),
      ctx.db.deleteFrom("entries").where("site_id", "=", siteId).where("instance_id", "in", part).compile(),
    );
  }
  statements.push(...releaseStatements(ctx, ids), ...purgeHeadStatements(ctx, ids, groupGone ? entry.translation_group_id : null));
  // Links other items hold to a group that no longer exists would point nowhere.
  if (groupGone) statements.push(ctx.db.deleteFrom("relation_links").where("site_id", "=", siteId).where("target_group_id", "=", entry.translation_group_id).compile());
  return {
    statements,
    answer: { purged_instance_ids: ids, translation_group_id: entry.translation_group_id },
    events: [{ name: "entry.purged", payload: { instance_ids: ids, translation_group_id: entry.translation_group_id, model_id: model.id } }],
    // Trash content is never served; but `relation=<instance id>` resolves ids through `entries`, so
    // while other languages of the item are served, a list filtered by a deleted id changes.
    purgeTags: groupGone ? [] : [cacheTag.item(entry.translation_group_id)],
    // Item-wide, like Trash without `language_only`: any language's editor holds it off.
    locks: itemLocks(entry, group),
    audit: { action: "entry.purge", targetKind: "entry", targetId: entry.instance_id, details: { instance_ids: ids } },
  };
}
