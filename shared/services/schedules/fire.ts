import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { guard } from "../../db/batch";
import type { EntryRow, ScheduleRow } from "../../db/database";
import { entryRepository } from "../../repositories/entry-repository";
import type { Actor, LifecycleContext, WritePlan } from "../lifecycle/context";
import { publishEntry, unpublishEntry } from "../lifecycle/transitions";
import { scheduleView, type Pin, type ScheduleAction, type ScheduleView } from "./schedules";

/** Due schedules fired per alarm run at most; more: the alarm rings again at once. */
export const SCHEDULE_BATCH = 20;

/** Who fires a schedule: the site, for the person who scheduled it (named in the audit details). */
export const SCHEDULE_ACTOR: Actor = {
  kind: "system",
  id: "schedule",
  permissions: { models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] },
};

/** Pending schedules due by `now` (oldest first, one batch), and when the next pending one is due. */
export async function dueSchedules(ctx: Pick<LifecycleContext, "d1" | "site">, now: number): Promise<{ due: ScheduleRow[]; more: boolean; nextDueAt: number | null }> {
  const at = isoAt(now);
  const rows = await ctx.d1
    .prepare("SELECT * FROM schedules WHERE site_id = ? AND state = 'scheduled' AND at <= ? ORDER BY at, id LIMIT ?")
    .bind(ctx.site.id, at, SCHEDULE_BATCH + 1)
    .all<ScheduleRow>();
  const next = await ctx.d1.prepare("SELECT MIN(at) AS t FROM schedules WHERE site_id = ? AND state = 'scheduled' AND at > ?").bind(ctx.site.id, at).first<{ t: string | null }>();
  return { due: rows.results.slice(0, SCHEDULE_BATCH), more: rows.results.length > SCHEDULE_BATCH, nextDueAt: next?.t ? Date.parse(next.t) : null };
}

/** A pinned language whose version is no longer the one the transition would move. */
export interface StalePin {
  instance_id: string;
  lang: string;
  pinned_version_id: string;
  current_version_id: string | null;
}

/** Whether a pin was already moved (a firing stopped after it): its transition is done. */
export function pinDone(action: ScheduleAction, pin: Pin, entry: EntryRow | undefined): boolean {
  if (!entry) return false;
  return action === "publish" ? entry.published_version_id === pin.version_id && entry.workflow_state === "published" : false;
}

/**
 * Spec 1: `scheduled_target_stale` "when the pinned version is no longer the one the transition would
 * move": a publish whose language's draft is another version now (or gone, or in Trash); an
 * unpublish whose language serves another version (or none).
 */
export async function stalePins(ctx: Pick<LifecycleContext, "db" | "scope">, row: ScheduleRow): Promise<StalePin[]> {
  const pins = JSON.parse(row.pins) as Pin[];
  const entries = new Map((await entryRepository(ctx.db, ctx.scope).findMany(pins.map((p) => p.instance_id))).map((e) => [e.instance_id, e]));
  return pins.flatMap((pin) => {
    const entry = entries.get(pin.instance_id);
    if (pinDone(row.action, pin, entry)) return [];
    const moving = !entry || entry.trashed_at !== null ? null : row.action === "publish" ? entry.current_version_id : entry.published_version_id;
    return moving === pin.version_id ? [] : [{ instance_id: pin.instance_id, lang: pin.lang, pinned_version_id: pin.version_id, current_version_id: moving }];
  });
}

export interface FirePinInput {
  schedule_id: string;
  action: ScheduleAction;
  pin: Pin;
}

/** One pinned language's transition: the ordinary publish or unpublish, with the pin as the expected version. */
export async function firePin(ctx: LifecycleContext, input: FirePinInput): Promise<WritePlan<unknown>> {
  const { pin } = input;
  const plan =
    input.action === "publish"
      ? await publishEntry(ctx, { instance_id: pin.instance_id, expected_version_id: pin.version_id })
      : await unpublishEntry(ctx, { instance_id: pin.instance_id, expected_published_version_id: pin.version_id });
  return { ...plan, locks: [pin.instance_id], audit: { ...plan.audit, details: { ...plan.audit.details, schedule_id: input.schedule_id } } };
}

export interface EndScheduleInput {
  schedule_id: string;
  state: "done" | "stale" | "failed";
  code?: string;
  message?: string;
  stale?: StalePin[];
  /** A content policy's refusal (its `details`: plugin, policy, `refusal`, `problems`), recorded in the audit row and the event. */
  refusal?: Record<string, unknown>;
  /** Advisory policies that could not be asked (the firing went on), recorded in the audit row. */
  policy_results?: unknown[];
}

/** Ends a schedule that fired: done, stale (`scheduled_target_stale`) or failed, with its audit row and event. */
export async function endSchedule(ctx: LifecycleContext, input: EndScheduleInput): Promise<WritePlan<ScheduleView>> {
  const row = await ctx.db.selectFrom("schedules").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", input.schedule_id).executeTakeFirst();
  if (!row || row.state !== "scheduled") throw new AppError("schedule_not_pending", "The schedule is no longer pending.");
  const now = isoAt(ctx.clock.now());
  const code = input.state === "stale" ? "scheduled_target_stale" : (input.code ?? null);
  const message = input.state === "stale" ? "The pinned version is no longer the one the transition would move; nothing was changed." : (input.message ?? null);
  const ended: ScheduleRow = { ...row, state: input.state, outcome_code: code, outcome_message: message, fired_at: now, updated_at: now, revision: row.revision + 1 };
  const base = { schedule_id: row.id, translation_group_id: row.translation_group_id, model_id: row.model_id, action: row.action };
  const event =
    input.state === "done"
      ? { name: "schedule.fired", payload: { ...base, lang: row.lang, pins: JSON.parse(row.pins) as unknown } }
      : input.state === "stale"
        ? { name: "schedule.stale", payload: { ...base, code, stale: input.stale ?? [] } }
        : { name: "schedule.failed", payload: { ...base, code, message, ...(input.refusal ? { details: input.refusal } : {}) } };
  return {
    statements: [
      guard(ctx.db, "workflow_conflict", "EXISTS (SELECT 1 FROM schedules WHERE id = ? AND state = 'scheduled' AND revision = ?)", [row.id, row.revision]),
      ctx.db.updateTable("schedules").set({ state: ended.state, outcome_code: code, outcome_message: message, fired_at: now, updated_at: now, revision: ended.revision }).where("id", "=", row.id).compile(),
    ],
    answer: scheduleView(ended),
    events: [event],
    purgeTags: [],
    locks: [],
    audit: { action: `schedule.${input.state === "done" ? "fire" : input.state}`, targetKind: "schedule", targetId: row.id, details: {
        created_by: row.created_by,
        ...(code ? { code } : {}),
        ...(input.stale ? { stale: input.stale } : {}),
        ...(input.refusal ? { refusal: input.refusal } : {}),
        ...(input.policy_results ? { policy_results: input.policy_results } : {}),
      },
    },
  };
}
