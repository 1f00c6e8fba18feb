import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import type { EntryRow, ScheduleRow } from "../../db/database";
import { findMove } from "../../content/workflow";
import { newId } from "../../ids";
import { entryRepository } from "../../repositories/entry-repository";
import { authorize } from "../lifecycle/authorize";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { loadEntry, mayRead, requireNotTrashed } from "../lifecycle/load";

/** Scheduled publishing (issue #27 item 2; docs/scheduled-publishing.md). */
export type ScheduleAction = "publish" | "unpublish";

/** The version a schedule pins for one language: the draft it publishes, or the published version it withdraws. */
export interface Pin {
  instance_id: string;
  lang: string;
  version_id: string;
}

export interface ScheduleView {
  id: string;
  translation_group_id: string;
  model_id: string;
  action: ScheduleAction;
  lang: string | null;
  pins: Pin[];
  at: string;
  state: ScheduleRow["state"];
  outcome_code: string | null;
  outcome_message: string | null;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  fired_at: string | null;
}

export function scheduleView(row: ScheduleRow): ScheduleView {
  const { site_id: _site, pins, ...rest } = row;
  return { ...rest, pins: JSON.parse(pins) as Pin[] };
}

export interface CreateScheduleInput {
  entry_id: string;
  action: ScheduleAction;
  at: string;
  /** Only the language `entry_id` names; by default every language of the item. */
  language_only?: boolean;
  /** The draft (publish) or published version (unpublish) the caller saw; another one now: `version_conflict`. */
  expected_version_id?: string;
}

export interface UpdateScheduleInput {
  schedule_id: string;
  expected_revision: number;
  at?: string;
  /** Pin the languages' versions of now (after saving a newer draft the schedule should publish). */
  repin?: boolean;
}

/** Spec 2, lifecycle:publish: the transition's permission on every language the schedule moves. */
function authorizeLanguages(ctx: LifecycleContext, action: ScheduleAction, modelId: string, languages: readonly EntryRow[]): void {
  for (const e of languages) authorize(ctx.actor, { operation: action, modelId, lang: e.lang, ownerId: e.owner_id });
}

function requireFuture(ctx: LifecycleContext, at: string): string {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms) || ms <= ctx.clock.now()) throw new AppError("schedule_time_past", "A schedule's time must be in the future.", { at });
  return isoAt(ms);
}

/**
 * The languages a schedule moves and the versions it pins: the one named, or every language of the
 * item the action applies to now (publish: a draft the workflow offers to publish; unpublish: a
 * published version). None: `transition_unavailable`, as the single routes answer.
 */
async function pinsFor(ctx: LifecycleContext, entry: EntryRow, action: ScheduleAction, languageOnly: boolean): Promise<{ languages: EntryRow[]; pins: Pin[] }> {
  const group = languageOnly ? [entry] : (await entryRepository(ctx.db, ctx.scope).findGroup(entry.translation_group_id)).filter((e) => e.trashed_at === null);
  if (group.some((e) => !mayRead(ctx, e.model_id, e.lang))) {
    throw new AppError("locale_denied", "The item has languages your role may not touch; schedule the others one by one.");
  }
  const applies = (e: EntryRow) => (action === "publish" ? findMove(e, "published")?.kind === "publish" : e.published_version_id !== null);
  const languages = group.filter(applies);
  if (languages.length === 0) throw new AppError("transition_unavailable", action === "publish" ? "Nothing of this item can be published: no draft differs from what is served." : "Nothing of this item is published.");
  const pins = languages.map((e) => ({ instance_id: e.instance_id, lang: e.lang, version_id: (action === "publish" ? e.current_version_id : e.published_version_id) ?? "" }));
  return { languages, pins };
}

function eventPayload(row: Pick<ScheduleView, "id" | "translation_group_id" | "model_id" | "action" | "lang" | "at" | "pins">): Record<string, unknown> {
  return { schedule_id: row.id, translation_group_id: row.translation_group_id, model_id: row.model_id, action: row.action, lang: row.lang, at: row.at, pins: row.pins };
}

/** A schedule of a publish or unpublish; the entry itself is not written (no lease guard: the firing has it). */
export async function createSchedule(ctx: LifecycleContext, input: CreateScheduleInput): Promise<WritePlan<ScheduleView>> {
  const { entry, model } = await loadEntry(ctx, input.entry_id);
  authorize(ctx.actor, { operation: input.action, modelId: model.id, lang: entry.lang, ownerId: entry.owner_id });
  requireNotTrashed(entry);
  const at = requireFuture(ctx, input.at);
  const { languages, pins } = await pinsFor(ctx, entry, input.action, input.language_only === true);
  authorizeLanguages(ctx, input.action, model.id, languages);
  const named = pins.find((p) => p.instance_id === entry.instance_id);
  if (input.expected_version_id !== undefined && named?.version_id !== input.expected_version_id) {
    throw new AppError("version_conflict", "The version changed since you read it.", { version_id: named?.version_id ?? null });
  }
  const now = isoAt(ctx.clock.now());
  const row: ScheduleRow = {
    id: newId("sch"),
    site_id: ctx.site.id,
    translation_group_id: entry.translation_group_id,
    model_id: model.id,
    action: input.action,
    lang: input.language_only ? entry.lang : null,
    pins: JSON.stringify(pins),
    at,
    state: "scheduled",
    outcome_code: null,
    outcome_message: null,
    revision: 0,
    created_by: ctx.actor.id,
    created_at: now,
    updated_at: now,
    fired_at: null,
  };
  const view = scheduleView(row);
  return {
    statements: [ctx.db.insertInto("schedules").values(row).compile()],
    answer: view,
    events: [{ name: "schedule.created", payload: eventPayload(view) }],
    purgeTags: [],
    locks: [],
    audit: { action: "schedule.create", targetKind: "schedule", targetId: row.id, details: { action: row.action, at, pins } },
  };
}

async function loadSchedule(ctx: LifecycleContext, id: string): Promise<{ row: ScheduleRow; entry: EntryRow }> {
  const row = await ctx.db.selectFrom("schedules").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", id).executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such schedule.");
  const pins = JSON.parse(row.pins) as Pin[];
  // Readable like its entry: the first pinned language (or any language of the item left).
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(row.translation_group_id);
  const entry = group.find((e) => e.instance_id === pins[0]?.instance_id) ?? group[0];
  if (!entry || !mayRead(ctx, entry.model_id, entry.lang)) throw new AppError("not_found", "No such schedule.");
  return { row, entry };
}

function requirePending(row: ScheduleRow, expectedRevision: number | undefined): void {
  if (row.state !== "scheduled") throw new AppError("schedule_not_pending", `This schedule is ${row.state}; only a pending schedule can change.`, { state: row.state });
  if (expectedRevision !== undefined && expectedRevision !== row.revision) throw new AppError("workflow_conflict", "The schedule changed since you read it.", { revision: row.revision });
}

const revisionGuard = (ctx: LifecycleContext, row: ScheduleRow) =>
  guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM schedules WHERE id = ? AND revision = ? AND state = 'scheduled')", [row.id, row.revision]);

/**
 * A schedule of an item in Trash is kept but not moved (docs/scheduled-publishing.md, "Trash"):
 * changing its time or pins is refused as making one is (409 `entry_in_trash`, createSchedule's
 * `requireNotTrashed`). The one exception: re-pinning a schedule of every language when some of its
 * languages are left — the languages in Trash drop out of the pins (pinsFor), as a new schedule of
 * the item would leave them out.
 */
function requireNoneTrashed(pinned: readonly EntryRow[], repinAll: boolean): void {
  const trashed = pinned.filter((e) => e.trashed_at !== null);
  if (trashed.length === 0 || (repinAll && trashed.length < pinned.length)) return;
  throw new AppError("entry_in_trash", "The entry is in Trash; restore it (or re-pin the languages left) before changing its schedule, or cancel the schedule.", {
    languages: trashed.map((e) => e.lang),
  });
}

/** Changes a pending schedule's time, or pins the versions of now. */
export async function updateSchedule(ctx: LifecycleContext, input: UpdateScheduleInput): Promise<WritePlan<ScheduleView>> {
  const { row, entry } = await loadSchedule(ctx, input.schedule_id);
  const group = await entryRepository(ctx.db, ctx.scope).findGroup(row.translation_group_id);
  const pinned = (JSON.parse(row.pins) as Pin[]).flatMap((p) => group.filter((e) => e.instance_id === p.instance_id));
  authorizeLanguages(ctx, row.action, row.model_id, pinned.length > 0 ? pinned : [entry]);
  requirePending(row, input.expected_revision);
  const at = input.at === undefined ? row.at : requireFuture(ctx, input.at);
  const named = pinned[0] ?? entry;
  requireNoneTrashed(pinned.length > 0 ? pinned : [entry], input.repin === true && row.lang === null);
  const pins = input.repin ? (await pinsFor(ctx, named, row.action, row.lang !== null)).pins : (JSON.parse(row.pins) as Pin[]);
  const now = isoAt(ctx.clock.now());
  const next: ScheduleRow = { ...row, at, pins: JSON.stringify(pins), revision: row.revision + 1, updated_at: now };
  const view = scheduleView(next);
  return {
    statements: [revisionGuard(ctx, row), ctx.db.updateTable("schedules").set({ at, pins: next.pins, revision: next.revision, updated_at: now }).where("id", "=", row.id).compile()],
    answer: view,
    events: [{ name: "schedule.updated", payload: eventPayload(view) }],
    purgeTags: [],
    locks: [],
    audit: { action: "schedule.update", targetKind: "schedule", targetId: row.id, details: { at, pins } },
  };
}

/** Cancels a pending schedule (kept, as `cancelled`). */
export async function cancelSchedule(ctx: LifecycleContext, input: { schedule_id: string; expected_revision?: number }): Promise<WritePlan<ScheduleView>> {
  const { row, entry } = await loadSchedule(ctx, input.schedule_id);
  authorize(ctx.actor, { operation: row.action, modelId: row.model_id, lang: entry.lang, ownerId: entry.owner_id });
  requirePending(row, input.expected_revision);
  const now = isoAt(ctx.clock.now());
  const next: ScheduleRow = { ...row, state: "cancelled", revision: row.revision + 1, updated_at: now };
  return {
    statements: [revisionGuard(ctx, row), ctx.db.updateTable("schedules").set({ state: "cancelled", revision: next.revision, updated_at: now }).where("id", "=", row.id).compile()],
    answer: scheduleView(next),
    events: [{ name: "schedule.cancelled", payload: { schedule_id: row.id, translation_group_id: row.translation_group_id, model_id: row.model_id, action: row.action } }],
    purgeTags: [],
    locks: [],
    audit: { action: "schedule.cancel", targetKind: "schedule", targetId: row.id },
  };
}
