import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import type { ReleaseRow } from "../../db/database";
import { findMove } from "../../content/workflow";
import { newId } from "../../ids";
import { authorize } from "../lifecycle/authorize";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { loadEntry, mayRead, requireNotTrashed } from "../lifecycle/load";

/** Releases (issue #27 item 3; docs/releases.md). */
export type ReleaseAction = "publish" | "unpublish";

/** Changes one release holds at most (each is one entry language). */
export const RELEASE_MAX_CHANGES = 50;

/** One entry-language change of a release, with the version it pins. */
export interface ReleaseChange {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  lang: string;
  action: ReleaseAction;
  /** Publish: the draft it publishes; unpublish: the published version it withdraws. */
  version_id: string;
}

/** A change as a caller asks for it. */
export interface ReleaseChangeInput {
  entry_id: string;
  action: ReleaseAction;
  /** The version the caller saw (publish: the draft; unpublish: the published one); another now: `version_conflict`. */
  version_id?: string;
}

/** A change a release could not make, in the release's order. */
export interface ReleaseProblem {
  index: number;
  instance_id: string;
  lang: string;
  action: ReleaseAction;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface ReleaseView {
  id: string;
  name: string;
  description: string | null;
  changes: ReleaseChange[];
  at: string | null;
  state: ReleaseRow["state"];
  outcome_code: string | null;
  outcome_message: string | null;
  problems: ReleaseProblem[];
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

export function releaseView(row: ReleaseRow): ReleaseView {
  const { site_id: _site, changes, outcome_details, ...rest } = row;
  return { ...rest, changes: JSON.parse(changes) as ReleaseChange[], problems: outcome_details ? (JSON.parse(outcome_details) as ReleaseProblem[]) : [] };
}

export const releaseChanges = (row: Pick<ReleaseRow, "changes">): ReleaseChange[] => JSON.parse(row.changes) as ReleaseChange[];

export interface CreateReleaseInput {
  name: string;
  description?: string | null;
  at?: string | null;
  changes: ReleaseChangeInput[];
}

export interface UpdateReleaseInput {
  release_id: string;
  expected_revision: number;
  name?: string;
  description?: string | null;
  /** A new time; `null`: on demand only. */
  at?: string | null;
  /** The whole list again (each change pinned as when made). */
  changes?: ReleaseChangeInput[];
  /** Pin each change's version of now (after saving a newer draft the release should publish). */
  repin?: boolean;
}

function requireFuture(ctx: LifecycleContext, at: string | null | undefined): string | null {
  if (at === undefined || at === null) return null;
  const ms = Date.parse(at);
  if (!Number.isFinite(ms) || ms <= ctx.clock.now()) throw new AppError("schedule_time_past", "A release's time must be in the future.", { at });
  return isoAt(ms);
}

/**
 * Each change as it would be pinned now: the entry language readable, outside Trash, the caller
 * allowed its transition there, the transition available (publish: a draft the workflow offers to
 * publish; unpublish: a published version), the version the caller saw still the one pinned. One
 * entry language at most once. A refusal names the change (`change`: its index) and refuses whole.
 */
async function pinChanges(ctx: LifecycleContext, inputs: readonly ReleaseChangeInput[]): Promise<ReleaseChange[]> {
  if (inputs.length > RELEASE_MAX_CHANGES) throw new AppError("invalid_request", `A release holds at most ${RELEASE_MAX_CHANGES} changes.`, { max: RELEASE_MAX_CHANGES });
  // The same entry language named twice is a malformed release whatever else it says (publish and
  // unpublish of one language together included), refused before any change is pinned.
  const repeated = inputs.findIndex((input, i) => inputs.findIndex((other) => other.entry_id === input.entry_id) !== i);
  if (repeated !== -1) throw new AppError("invalid_request", "A release changes each entry language once.", { issues: [{ path: `changes.${repeated}.entry_id`, message: "Already in this release." }], change: repeated });
  const changes: ReleaseChange[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      const { entry, model } = await loadEntry(ctx, input.entry_id);
      authorize(ctx.actor, { operation: input.action, modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
      requireNotTrashed(entry);
      if (changes.some((c) => c.instance_id === entry.instance_id)) throw new AppError("invalid_request", "A release changes each entry language once.", { issues: [{ path: `changes.${index}.entry_id`, message: "Already in this release." }] });
      const available = input.action === "publish" ? findMove(entry, "published")?.kind === "publish" : entry.published_version_id !== null;
      if (!available) throw new AppError("transition_unavailable", input.action === "publish" ? "This language has no draft to publish." : "This language is not published.", { state: entry.workflow_state });
      const pinned = (input.action === "publish" ? entry.current_version_id : entry.published_version_id) ?? "";
      if (input.version_id !== undefined && input.version_id !== pinned) throw new AppError("version_conflict", "The version changed since you read it.", { version_id: pinned });
      changes.push({ instance_id: entry.instance_id, translation_group_id: entry.translation_group_id, model_id: model.id, lang: entry.lang, action: input.action, version_id: pinned });
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, error.message, { ...error.details, change: index });
      throw error;
    }
  }
  return changes;
}

function eventPayload(row: Pick<ReleaseRow, "id" | "name" | "at" | "changes">): Record<string, unknown> {
  return { release_id: row.id, name: row.name, at: row.at, changes: JSON.parse(row.changes) as unknown };
}

/** A new release: its changes pinned now; nothing of the entries is written until it is published. */
export async function createRelease(ctx: LifecycleContext, input: CreateReleaseInput): Promise<WritePlan<ReleaseView>> {
  const at = requireFuture(ctx, input.at);
  const changes = await pinChanges(ctx, input.changes);
  const now = isoAt(ctx.clock.now());
  const row: ReleaseRow = {
    id: newId("rel"),
    site_id: ctx.site.id,
    name: input.name,
    description: input.description ?? null,
    changes: JSON.stringify(changes),
    at,
    state: "open",
    outcome_code: null,
    outcome_message: null,
    outcome_details: null,
    revision: 0,
    created_by: ctx.actor.id,
    created_at: now,
    updated_at: now,
    published_at: null,
  };
  return {
    statements: [ctx.db.insertInto("releases").values(row).compile()],
    answer: releaseView(row),
    events: [{ name: "release.created", payload: eventPayload(row) }],
    purgeTags: [],
    locks: [],
    audit: { action: "release.create", targetKind: "release", targetId: row.id, details: { name: row.name, at, changes } },
  };
}

/**
 * A release of this site the caller may see: one it may read every change of (a release naming a
 * language the role cannot read is "not found", like an entry). None: `not_found`.
 */
export async function loadRelease(ctx: LifecycleContext, id: string): Promise<ReleaseRow> {
  const row = await ctx.db.selectFrom("releases").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", id).executeTakeFirst();
  if (!row || !releaseChanges(row).every((c) => mayRead(ctx, c.model_id, c.lang))) throw new AppError("not_found", "No such release.");
  return row;
}

/** Published releases are history: they neither change nor go. */
export function requireUnpublished(row: ReleaseRow, expectedRevision: number | undefined): void {
  if (row.state === "published") throw new AppError("release_published", "This release was published; make a new one.", { published_at: row.published_at });
  if (expectedRevision !== undefined && expectedRevision !== row.revision) throw new AppError("workflow_conflict", "The release changed since you read it.", { revision: row.revision });
}

/** The batch guard of a release write: still the revision read, and not published meanwhile. */
export const releaseGuard = (ctx: LifecycleContext, row: ReleaseRow) =>
  guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM releases WHERE id = ? AND revision = ? AND state != 'published')", [row.id, row.revision]);

/** The caller's transition permission on every change (publishing a release is each change's transition). */
export function authorizeChanges(ctx: LifecycleContext, changes: readonly ReleaseChange[]): void {
  for (const c of changes) authorize(ctx.actor, { operation: c.action, modelId: c.model_id, lang: c.lang });
}

/**
 * Renames, re-times, replaces the changes or re-pins them. A release a timed firing left `stale`
 * or `failed` is open again after any change (and publishes at its new time, if it has one).
 */
export async function updateRelease(ctx: LifecycleContext, input: UpdateReleaseInput): Promise<WritePlan<ReleaseView>> {
  const row = await loadRelease(ctx, input.release_id);
  authorizeChanges(ctx, releaseChanges(row));
  requireUnpublished(row, input.expected_revision);
  // Unchanged, an open release keeps its time; one a firing ended keeps it only if it is still ahead.
  const kept = row.state === "open" || (row.at !== null && Date.parse(row.at) > ctx.clock.now()) ? row.at : null;
  const at = input.at === undefined ? kept : requireFuture(ctx, input.at);
  const asked: ReleaseChangeInput[] | undefined =
    input.changes ?? (input.repin ? releaseChanges(row).map((c) => ({ entry_id: c.instance_id, action: c.action })) : undefined);
  const changes = asked === undefined ? releaseChanges(row) : await pinChanges(ctx, asked);
  const now = isoAt(ctx.clock.now());
  const next: ReleaseRow = {
    ...row,
    name: input.name ?? row.name,
    description: input.description === undefined ? row.description : input.description,
    changes: JSON.stringify(changes),
    at,
    state: "open",
    outcome_code: null,
    outcome_message: null,
    outcome_details: null,
    revision: row.revision + 1,
    updated_at: now,
  };
  const { id: _id, site_id: _site, created_by: _by, created_at: _at, ...set } = next;
  return {
    statements: [releaseGuard(ctx, row), ctx.db.updateTable("releases").set(set).where("id", "=", row.id).compile()],
    answer: releaseView(next),
    events: [{ name: "release.updated", payload: eventPayload(next) }],
    purgeTags: [],
    locks: [],
    audit: { action: "release.update", targetKind: "release", targetId: row.id, details: { name: next.name, at, changes } },
  };
}

/** Deletes a release that was not published (its entries are untouched). */
export async function deleteRelease(ctx: LifecycleContext, input: { release_id: string; expected_revision?: number }): Promise<WritePlan<{ id: string; deleted: true }>> {
  const row = await loadRelease(ctx, input.release_id);
  authorizeChanges(ctx, releaseChanges(row));
  requireUnpublished(row, input.expected_revision);
  return {
    statements: [releaseGuard(ctx, row), ctx.db.deleteFrom("releases").where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile()],
    answer: { id: row.id, deleted: true },
    events: [{ name: "release.deleted", payload: { release_id: row.id, name: row.name } }],
    purgeTags: [],
    locks: [],
    audit: { action: "release.delete", targetKind: "release", targetId: row.id, details: { name: row.name } },
  };
}
