import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { Page } from "./common";
import { dateTimeMillis, isCalendarDate } from "./dates";

/** Scheduled publishing (docs/scheduled-publishing.md). */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const DateTime = v.pipe(v.string(), v.maxLength(40), v.check((s) => dateTimeMillis(s) !== undefined, "An ISO-8601 date-time with Z or an offset, e.g. 2026-12-01T09:00:00Z."));
const CalendarDate = v.pipe(v.string(), v.check(isCalendarDate, "A calendar date YYYY-MM-DD."));
const State = v.picklist(["scheduled", "done", "stale", "failed", "cancelled"]);

export const Schedule = v.pipe(
  v.object({
    id: v.string(),
    translation_group_id: v.string(),
    model_id: v.string(),
    action: v.picklist(["publish", "unpublish"]),
    lang: v.pipe(v.nullable(v.string()), v.description("The one language it moves; null: every language of the item it pinned.")),
    pins: v.pipe(v.array(v.object({ instance_id: v.string(), lang: v.string(), version_id: v.string() })), v.description("Per language, the version it publishes (the draft when scheduled) or withdraws (the published one).")),
    at: v.string(),
    state: v.pipe(State, v.description("`stale`: a pinned version was no longer the one the transition would move when it fired; nothing was published (`outcome_code: scheduled_target_stale`).")),
    outcome_code: v.nullable(v.string()),
    outcome_message: v.nullable(v.string()),
    revision: v.number(),
    created_by: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
    fired_at: v.nullable(v.string()),
    replayed: v.optional(v.boolean()),
  }),
  v.title("Schedule"),
);

const common = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;
const writes = [...common, "idempotency_in_progress", "idempotency_key_reused", "not_found", "missing_permission", "locale_denied", "not_owner"] as const;
const SchedulePath = v.strictObject({ id: Id });

export const scheduleRoutes: readonly RouteSpec[] = [
  {
    operationId: "createSchedule",
    method: "post",
    path: "/schedules",
    summary: "Schedule a publish or unpublish of one language (or every language) of an entry at a time, pinning the versions it moves",
    scope: "lifecycle:publish",
    idempotent: true,
    body: v.strictObject({
      entry_id: Id,
      action: v.picklist(["publish", "unpublish"]),
      at: v.pipe(DateTime, v.description("When it fires; in the future.")),
      language_only: v.optional(v.pipe(v.boolean(), v.description("Only the language entry_id names (default: every language the action applies to)."))),
      expected_version_id: v.optional(v.pipe(Id, v.description("The version you saw (the draft for publish, the published one for unpublish); another now: version_conflict."))),
    }),
    status: 201,
    response: Schedule,
    errors: [...writes, "schedule_time_past", "transition_unavailable", "entry_in_trash", "version_conflict"],
  },
  {
    operationId: "listSchedules",
    method: "get",
    path: "/schedules",
    summary: "Schedules, soonest first (of entries the role may read)",
    scope: "content:read",
    query: v.strictObject({
      entry_id: v.optional(v.pipe(Id, v.description("The schedules of this entry's item."))),
      state: v.optional(State),
      cursor: v.optional(v.pipe(v.string(), v.maxLength(200))),
      limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]?$|^100$/))),
    }),
    response: v.strictObject({ data: v.array(Schedule), page: Page }),
    errors: [...common, "not_found"],
  },
  {
    operationId: "getPublishingCalendar",
    method: "get",
    path: "/schedules/calendar",
    summary: "Schedules from one date to another (at most 92 days, UTC), by day, for a calendar",
    scope: "content:read",
    query: v.strictObject({ from: CalendarDate, to: CalendarDate, state: v.optional(State) }),
    response: v.strictObject({ from: v.string(), to: v.string(), days: v.array(v.object({ date: v.string(), schedules: v.array(Schedule) })) }),
    errors: [...common],
  },
  {
    operationId: "updateSchedule",
    method: "put",
    path: "/schedules/{id}",
    summary: "Move a pending schedule to another time, or pin the versions of now",
    scope: "lifecycle:publish",
    idempotent: true,
    params: SchedulePath,
    body: v.strictObject({ expected_revision: Revision, at: v.optional(DateTime), repin: v.optional(v.pipe(v.boolean(), v.description("Pin each language's version of now (after saving the draft it should publish).")) ) }),
    response: Schedule,
    errors: [...writes, "schedule_time_past", "schedule_not_pending", "workflow_conflict", "transition_unavailable", "entry_in_trash"],
  },
  {
    operationId: "cancelSchedule",
    destructive: true,
    repeatable: true,
    method: "post",
    path: "/schedules/{id}/cancel",
    summary: "Cancel a pending schedule (kept as cancelled)",
    scope: "lifecycle:publish",
    idempotent: true,
    params: SchedulePath,
    body: v.strictObject({ expected_revision: v.optional(Revision) }),
    response: Schedule,
    errors: [...writes, "schedule_not_pending", "workflow_conflict"],
  },
];
