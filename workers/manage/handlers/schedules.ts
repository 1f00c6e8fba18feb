import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import type { ScheduleRow } from "../../../shared/db/database";
import { modelRepository } from "../../../shared/repositories/model-repository";
import { loadEntry } from "../../../shared/services/lifecycle/load";
import { scheduleView, type CreateScheduleInput, type UpdateScheduleInput } from "../../../shared/services/schedules/schedules";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { decodePairCursor, encodePairCursor } from "../pair-cursor";
import { commandHandler } from "../respond";

const MAX_CALENDAR_DAYS = 92;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Models whose schedules the caller may see (read on the model; a one-language schedule also its language). */
async function readable(call: ManageCall): Promise<{ modelIds: string[]; sees: (row: ScheduleRow) => boolean }> {
  const models = await modelRepository(call.ctx.db, call.ctx.scope).list();
  const modelIds = models.filter((m) => decide(call.actor.permissions, { operation: "read", modelId: m.id }).allowed).map((m) => m.id);
  const sees = (row: ScheduleRow) => row.lang === null || decide(call.actor.permissions, { operation: "read", modelId: row.model_id, lang: row.lang }).allowed;
  return { modelIds, sees };
}


/** GET /schedules: soonest first, keyset pages on (at, id). */
export async function listSchedules(call: ManageCall): Promise<Response> {
  const q = call.query as { entry_id?: string; state?: ScheduleRow["state"]; cursor?: string; limit?: string };
  const limit = Number(q.limit ?? 20);
  const { modelIds, sees } = await readable(call);
  if (modelIds.length === 0) return json({ data: [], page: { limit, has_more: false, next_cursor: null } });
  let query = call.ctx.db.selectFrom("schedules").selectAll().where("site_id", "=", call.site.id).where("model_id", "in", modelIds);
  if (q.entry_id !== undefined) {
    const { entry } = await loadEntry(call.ctx, q.entry_id);
    query = query.where("translation_group_id", "=", entry.translation_group_id);
  }
  if (q.state !== undefined) query = query.where("state", "=", q.state);
  if (q.cursor !== undefined) {
    const [at, id] = decodePairCursor(q.cursor);
    query = query.where((eb) => eb.or([eb("at", ">", at), eb.and([eb("at", "=", at), eb("id", ">=", id)])]));
  }
  const rows = await query.orderBy("at").orderBy("id").limit(limit + 1).execute();
  const next = rows[limit];
  return json({ data: rows.slice(0, limit).filter(sees).map(scheduleView), page: { limit, has_more: next !== undefined, next_cursor: next ? encodePairCursor(next.at, next.id) : null } });
}

/** GET /schedules/calendar: the schedules of a date range, by UTC day (days without any left out). */
export async function getPublishingCalendar(call: ManageCall): Promise<Response> {
  const q = call.query as { from: string; to: string; state?: ScheduleRow["state"] };
  const from = Date.parse(`${q.from}T00:00:00Z`);
  const to = Date.parse(`${q.to}T00:00:00Z`);
  if (to < from) throw new AppError("invalid_request", "`to` comes before `from`.", { issues: [{ path: "to", message: "Not before from." }] });
  if ((to - from) / DAY_MS + 1 > MAX_CALENDAR_DAYS) throw new AppError("invalid_request", `A calendar covers at most ${MAX_CALENDAR_DAYS} days.`, { issues: [{ path: "to", message: `At most ${MAX_CALENDAR_DAYS} days after from.` }] });
  const { modelIds, sees } = await readable(call);
  const rows =
    modelIds.length === 0
      ? []
      : await call.ctx.db
          .selectFrom("schedules")
          .selectAll()
          .where("site_id", "=", call.site.id)
          .where("model_id", "in", modelIds)
          .where("at", ">=", new Date(from).toISOString())
          .where("at", "<", new Date(to + DAY_MS).toISOString())
          .$if(q.state !== undefined, (qb) => qb.where("state", "=", q.state ?? "scheduled"))
          .orderBy("at")
          .orderBy("id")
          .execute();
  const days = new Map<string, ReturnType<typeof scheduleView>[]>();
  for (const row of rows.filter(sees)) {
    const date = row.at.slice(0, 10);
    days.set(date, [...(days.get(date) ?? []), scheduleView(row)]);
  }
  return json({ from: q.from, to: q.to, days: [...days].map(([date, schedules]) => ({ date, schedules })) });
}

// Bodies were parsed with the route's closed schema (schema/manage-schedules.ts).
export const createSchedule = commandHandler("createSchedule", (call) => call.body as CreateScheduleInput);
export const updateSchedule = commandHandler("updateSchedule", (call) => ({ ...(call.body as Omit<UpdateScheduleInput, "schedule_id">), schedule_id: call.params.id ?? "" }));
export const cancelSchedule = commandHandler("cancelSchedule", (call) => ({ ...(call.body as { expected_revision?: number }), schedule_id: call.params.id ?? "" }));
