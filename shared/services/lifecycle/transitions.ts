import { pruneSyncLog } from "../sync/change-log";
import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import { chunk } from "../../db/chunks";
import type { EntryRow } from "../../db/database";
import { findMove, type TransitionKind, type WorkflowMove } from "../../content/workflow";
import { toKeyedValues, validateFieldValues } from "../../content/validate-fields";
import type { FieldValue } from "../../../schema/model-definition";
import { authorize } from "./authorize";
import { cacheTag, type LifecycleContext, type WritePlan } from "./context";
import { entryView, type EntryView } from "./entry-view";
import { loadEntry, requireNotTrashed, revealEntry } from "./load";
import { rebuildDependents } from "./rebuild-dependents";
import { firstPublishedOf, pendingKey, renderSnapshot, type PendingTargets } from "./snapshot";
import { snapshotStatements, withdrawStatements } from "./snapshot-statements";
import { publishedDependentsQuery, readForPublish, readForUnpublish } from "./publish-reads";
import { addressStatements } from "../redirects/addresses";
import { requirePagePublishAddressFree } from "../pages/page-address";
import { claimGuards, claimIssues, claimsOf, requireNoClaimIssues } from "./unique-values";

export interface PublishInput {
  instance_id: string;
  expected_version_id?: string;
  expected_workflow_revision?: number;
  /** A served item moving to a new slug: a 301 from its old website address (docs/redirects.md). */
  redirect_old_address?: boolean;
}

export interface UnpublishInput {
  instance_id: string;
  expected_published_version_id?: string;
  expected_workflow_revision?: number;
  /** Plugins may not withdraw an item that published content links to: a person must review it. */
  refuse_if_dependents?: boolean;
}

/**
 * A publish or unpublish built as one change of a release (docs/releases.md): every other change of
 * the release is seen as already made, so the changes commit together in one batch.
 */
export interface AlongsideChanges {
  /** The publication of every entry language the release changes (`null`: withdrawn). */
  pending: PendingTargets;
  /** Instance ids the release changes: each renders its own snapshot, so no plan re-renders it as a dependent. */
  members: ReadonlySet<string>;
}

/** The pending publications of a plan: the release's, then this language's own. */
function withAlongside(alongside: AlongsideChanges | undefined, own: PendingTargets): PendingTargets {
  return new Map([...(alongside?.pending ?? []), ...own]);
}

/** Whether the release withdraws `instanceId` or moves it to another slug, freeing its address. */
function freedAlongside(alongside: AlongsideChanges | undefined, holder: { instance_id: string }, entry: EntryRow, slug: string | null): boolean {
  if (!alongside?.members.has(holder.instance_id)) return false;
  for (const target of alongside.pending.values()) if (target?.instance_id === holder.instance_id) return target.slug !== slug || target.lang !== entry.lang;
  return true;
}

export interface MoveInput {
  instance_id: string;
  to: string;
  expected_workflow_revision?: number;
}

/**
 * Spec 2, Scopes: `lifecycle:publish` needs from the creator "update and the transition's
 * permission", and a lost permission is lost by the credential at once — so a credential's publish
 * or unpublish also asks for `update` now (ownership decides for `update:own`).
 */
function requireCredentialUpdate(ctx: LifecycleContext, modelId: string, entry: EntryRow): void {
  if (ctx.actor.kind !== "management_credential") return;
  authorize(ctx.actor, { operation: "update", modelId, lang: entry.lang, ownerId: entry.owner_id });
}

function requireRevision(entry: EntryRow, expected: number | undefined): void {
  if (expected !== undefined && expected !== entry.workflow_revision) {
    throw new AppError("workflow_conflict", "The entry moved through its workflow since you read it.", {
      workflow_revision: entry.workflow_revision,
    });
  }
}

function requireMove(entry: EntryRow, to: string, kind: TransitionKind): WorkflowMove {
  const move = findMove(entry, to);
  if (!move || move.kind !== kind) {
    throw new AppError("transition_unavailable", `The entry cannot go to "${to}" from "${entry.workflow_state}".`, {
      state: entry.workflow_state,
    });
  }
  return move;
}

/** The workflow-revision guard and state update every transition commits. */
function transitionStatements(ctx: LifecycleContext, entry: EntryRow, set: Partial<EntryRow>): CompiledQuery[] {
  return [
    guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND workflow_revision = ?)", [
      entry.instance_id,
      entry.workflow_revision,
    ]),
    ctx.db
      .updateTable("entries")
      .set({ ...set, workflow_revision: entry.workflow_revision + 1 })
      .where("site_id", "=", ctx.site.id)
      .where("instance_id", "=", entry.instance_id)
      .compile(),
  ];
}

/** Models of the given translation groups (the dependents re-rendered by a publication change). */
async function modelsOfGroups(ctx: LifecycleContext, groupIds: readonly string[]): Promise<string[]> {
  const models = new Set<string>();
  for (const part of chunk([...new Set(groupIds)], 90)) {
    const rows = await ctx.db.selectFrom("entries").select("model_id").distinct().where("site_id", "=", ctx.site.id).where("translation_group_id", "in", part).execute();
    for (const row of rows) models.add(row.model_id);
  }
  return [...models];
}

/**
 * Cache tags a publication change of one language makes stale (docs/caching.md): lists of its model,
 * every response that mentions the item, and every response of a re-rendered dependent. Lists of a
 * dependent's model are purged too when the dependent's relation index rows may change (the item
 * becomes served, is served under another slug, or a dependent switches to another language of it):
 * a `relation=`/`tag=` list that did not contain the dependent may contain it now, and carries no tag
 * of it.
 */
function publicationTags(modelId: string, groupId: string, dependentGroups: readonly string[], dependentModels: readonly string[]): string[] {
  return [...new Set([cacheTag.list(modelId), cacheTag.item(groupId), ...dependentGroups.map(cacheTag.item), ...dependentModels.map(cacheTag.list)])];
}

/**
 * A served address stays with the item that was published at it until that item moves or is
 * withdrawn. `holder`: the published item at the draft's address (`readForPublish`).
 */
function requirePublishedAddressFree(ctx: LifecycleContext, entry: EntryRow, slug: string | null, holder: { instance_id: string } | undefined): void {
  if (slug === null) return;
  if (holder && holder.instance_id !== entry.instance_id) {
    throw new AppError("slug_taken", "Another published item is served at this address.", {
      slug,
      ...revealEntry(ctx, { instance_id: holder.instance_id, model_id: entry.model_id, lang: entry.lang }),
    });
  }
}

/** Publishes the current draft of one language: it becomes the published version and is served. */
export async function publishEntry(ctx: LifecycleContext, input: PublishInput, alongside?: AlongsideChanges): Promise<WritePlan<EntryView>> {
  const { entry, model, version } = await loadEntry(ctx, input.instance_id);
  authorize(ctx.actor, { operation: "publish", modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
  requireCredentialUpdate(ctx, model.id, entry);
  requireNotTrashed(entry);
  requireRevision(entry, input.expected_workflow_revision);
  requireMove(entry, "published", "publish");
  if (input.expected_version_id !== undefined && input.expected_version_id !== entry.current_version_id) {
    throw new AppError("version_conflict", "The draft changed since you read it.", { current_version_id: entry.current_version_id });
  }
  if (!version) throw new AppError("transition_unavailable", "The entry has no draft to publish.");
  // Claims follow the draft, so the published values are this item's claims; still checked (and guarded).
  const claims = claimsOf(model, entry.lang, JSON.parse(version.fields) as Record<string, FieldValue>);
  // Every read below in one batch; the checks keep their order.
  const reads = await readForPublish(ctx, entry, version, claims);
  const holder = reads.addressHolder && freedAlongside(alongside, reads.addressHolder, entry, version.slug) ? undefined : reads.addressHolder;
  requirePublishedAddressFree(ctx, entry, version.slug, holder);
  // The website address: refused where a redirect holds it; a 301 from the old one when asked.
  const address = await addressStatements(ctx, model, entry.lang, version.slug, reads.served, input.redirect_old_address === true);
  await requirePagePublishAddressFree(ctx, model, entry, version);
  const values = toKeyedValues(model.fields, JSON.parse(version.fields) as Record<string, FieldValue>);
  const issues = validateFieldValues(model.fields, values, "publish");
  if (issues.length > 0) throw new AppError("field_validation_failed", "The draft cannot be published as it is.", { issues });
  requireNoClaimIssues(claimIssues(ctx, model, claims, reads.claimHolders), "The draft cannot be published as it is.");

  const at = isoAt(ctx.clock.now());
  const published: EntryRow = {
    ...entry,
    published_version_id: version.id,
    published_at: at,
    first_published_at: entry.first_published_at ?? at,
    workflow_state: "published",
    workflow_revision: entry.workflow_revision + 1,
    updated_at: at,
  };
  const pending: PendingTargets = withAlongside(alongside, new Map([
    [pendingKey(entry.translation_group_id, entry.lang), {
      instance_id: entry.instance_id, group_id: entry.translation_group_id, model_id: model.id, lang: entry.lang, slug: version.slug, label: version.label,
    }],
  ]));
  // Lists order by the group's first publication, so translations keep their place and a re-publish does not move the item.
  const firstPublishedAt = firstPublishedOf(reads.group, at);
  const rendered = await renderSnapshot(ctx, published, version, model, { publishedAt: at, firstPublishedAt, pending, reads: reads.snapshot });
  const dependents = await rebuildDependents(ctx, entry.translation_group_id, pending, outsideRelease(reads.dependents, alongside));
  // Republished under the same slug: dependents keep their relation rows, only their bodies change.
  const before = reads.served;
  const dependentModels = before && before.slug === version.slug ? [] : await modelsOfGroups(ctx, dependents.groups);
  const set = { published_version_id: version.id, published_at: at, first_published_at: published.first_published_at, workflow_state: "published", updated_at: at };
  return {
    statements: [
      ...transitionStatements(ctx, entry, set),
      guard(ctx.db, "version_conflict", "EXISTS (SELECT 1 FROM entries WHERE instance_id = ? AND current_version_id IS ?)", [entry.instance_id, version.id]),
      ...claimGuards(ctx, model, entry.translation_group_id, claims),
      ...snapshotStatements(ctx, published, version, rendered, model),
      ...dependents.statements,
      pruneSyncLog(ctx),
      ...address.statements,
    ],
    answer: entryView(published, model, version, ctx.actor),
    events: [{ name: "entry.published", payload: { instance_id: entry.instance_id, translation_group_id: entry.translation_group_id, model_id: model.id, lang: entry.lang, version_id: version.id } }],
    purgeTags: [...publicationTags(model.id, entry.translation_group_id, dependents.groups, dependentModels), ...address.purgeTags],
    audit: { action: "entry.publish", targetKind: "entry", targetId: entry.instance_id, details: { version_id: version.id } },
  };
}

/** Dependents a release does not change itself (those render their own snapshot in its batch). */
function outsideRelease<T extends { instance_id: string }>(dependents: T[], alongside: AlongsideChanges | undefined): T[] {
  return alongside ? dependents.filter((d) => !alongside.members.has(d.instance_id)) : dependents;
}

/** Published content of other items whose published version links to this group. */
export async function publishedDependents(ctx: LifecycleContext, groupId: string): Promise<{ instance_id: string; model_id: string; lang: string }[]> {
  return publishedDependentsQuery(ctx, groupId).execute();
}

/** Withdraws one language from the public API; the draft and history stay. */
export async function unpublishEntry(ctx: LifecycleContext, input: UnpublishInput, alongside?: AlongsideChanges): Promise<WritePlan<EntryView>> {
  const { entry, model, version } = await loadEntry(ctx, input.instance_id);
  authorize(ctx.actor, { operation: "unpublish", modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
  requireCredentialUpdate(ctx, model.id, entry);
  requireNotTrashed(entry);
  requireRevision(entry, input.expected_workflow_revision);
  requireMove(entry, "unpublished", "unpublish");
  if (input.expected_published_version_id !== undefined && input.expected_published_version_id !== entry.published_version_id) {
    throw new AppError("version_conflict", "The published version changed since you read it.", {
      published_version_id: entry.published_version_id,
    });
  }
  // Every read below in one batch; the refusal over dependents still comes first.
  const reads = await readForUnpublish(ctx, entry, input.refuse_if_dependents === true);
  if (reads.refusingDependents) {
    const dependents = reads.refusingDependents;
    if (dependents.length > 0) {
      // Only dependents the actor may read are named; the others are counted (`hidden`).
      const named = dependents.flatMap((d) => revealEntry(ctx, d).instance_id ?? []);
      throw new AppError("dependent_content", "Published content links to this item; a person must review the unpublish.", {
        dependents: named.slice(0, 50),
        hidden: dependents.length - named.length,
      });
    }
  }
  const at = isoAt(ctx.clock.now());
  const withdrawn: EntryRow = { ...entry, published_version_id: null, published_at: null, workflow_state: "unpublished", workflow_revision: entry.workflow_revision + 1, updated_at: at };
  const pending: PendingTargets = withAlongside(alongside, new Map([[pendingKey(entry.translation_group_id, entry.lang), null]]));
  const dependents = await rebuildDependents(ctx, entry.translation_group_id, pending, outsideRelease(reads.dependents, alongside));
  // With another language still served, dependents may now point at it (another slug); otherwise
  // their rows to this item just go, and every list that held them carries their item tag.
  const dependentModels = reads.otherLanguageServed ? await modelsOfGroups(ctx, dependents.groups) : [];
  const set = { published_version_id: null, published_at: null, workflow_state: "unpublished", updated_at: at };
  return {
    statements: [...transitionStatements(ctx, entry, set), ...withdrawStatements(ctx, entry), ...dependents.statements, pruneSyncLog(ctx)],
    answer: entryView(withdrawn, model, version, ctx.actor),
    events: [{ name: "entry.unpublished", payload: { instance_id: entry.instance_id, translation_group_id: entry.translation_group_id, model_id: model.id, lang: entry.lang } }],
    purgeTags: publicationTags(model.id, entry.translation_group_id, dependents.groups, dependentModels),
    audit: { action: "entry.unpublish", targetKind: "entry", targetId: entry.instance_id, details: { version_id: entry.published_version_id } },
  };
}

/** A workflow step that neither publishes nor unpublishes (for example draft → in review). */
export async function moveEntry(ctx: LifecycleContext, input: MoveInput): Promise<WritePlan<EntryView>> {
  const { entry, model, version } = await loadEntry(ctx, input.instance_id);
  // Every editorial move needs update; asked before the entry's state is revealed.
  authorize(ctx.actor, { operation: "update", modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
  requireNotTrashed(entry);
  requireRevision(entry, input.expected_workflow_revision);
  const move = requireMove(entry, input.to, "move");
  authorize(ctx.actor, { operation: move.permission, modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
  const at = isoAt(ctx.clock.now());
  const moved: EntryRow = { ...entry, workflow_state: move.to, workflow_revision: entry.workflow_revision + 1, updated_at: at };
  return {
    statements: transitionStatements(ctx, entry, { workflow_state: move.to, updated_at: at }),
    answer: entryView(moved, model, version, ctx.actor),
    events: [{ name: "entry.moved", payload: { instance_id: entry.instance_id, model_id: model.id, lang: entry.lang, from: entry.workflow_state, to: move.to } }],
    purgeTags: [],
    audit: { action: "entry.move", targetKind: "entry", targetId: entry.instance_id, details: { from: entry.workflow_state, to: move.to } },
  };
}
