import { isoAt, type Clock } from "../../shared/clock";
import { chunk } from "../../shared/db/chunks";
import type { Env } from "../../shared/env";
import { recordDatabases } from "../../shared/db/site-databases";
import { LONGEST_RESEND_WAIT_MS, RESEND_DUE_SQL } from "../../shared/events/timing";

/**
 * Hands committed outbox events to the EVENTS queue. False (and a warning) when the queue refused
 * them: the rows stay unmarked and the object's alarm sends them again, so nothing is lost.
 */
export async function sendEvents(env: Env, siteId: string, eventIds: readonly string[]): Promise<boolean> {
  if (eventIds.length === 0) return true;
  try {
    await env.EVENTS.sendBatch(eventIds.map((id) => ({ body: { event_id: id, site_id: siteId } })));
    return true;
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "event enqueue failed; alarm will retry", error: String(error) }));
    return false;
  }
}

/**
 * Marks sent events enqueued (handed over), so the alarm does not send them again as unsent; it
 * sends them again only if no consumer marks them consumed within RESEND_AFTER_MS. One UPDATE per 90 ids and
 * database: a directory change's event sits in the control database (shared/db/tables.ts), so it
 * is marked wherever it is. Throws when D1 fails (the caller keeps the ids for a later try).
 */
export async function markEnqueued(env: Env, clock: Clock, siteId: string, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  const at = isoAt(clock.now());
  for (const db of await recordDatabases(env, siteId)) {
    for (const part of chunk(eventIds, 90)) {
      await db.prepare(markSql(part.length))
        .bind(at, siteId, ...part)
        .run();
    }
  }
}

/**
 * The UPDATE marking `count` events. `+site_id` keeps SQLite on the primary key, one row per id:
 * without it a long id list made it take the site's pending index and walk the site's outbox (the
 * write bench saw up to 110 rows read per write).
 */
export function markSql(count: number): string {
  return `UPDATE outbox_events SET enqueued_at = ? WHERE +site_id = ? AND id IN (${Array.from({ length: count }, () => "?").join(",")})`;
}

/** Sends events and marks them at once (the alarm's resend of what never reached the queue, or of what no consumer took). */
export async function enqueueEvents(env: Env, clock: Clock, siteId: string, eventIds: readonly string[]): Promise<boolean> {
  if (!(await sendEvents(env, siteId, eventIds))) return false;
  try {
    await markEnqueued(env, clock, siteId, eventIds);
    return true;
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "marking sent events failed; the alarm may send them again", error: String(error) }));
    return false;
  }
}

/** How many unsent events one look finds at most. */
export const PENDING_PAGE = 100;

/** Outbox rows of this site that were committed but never reached the queue (PENDING_PAGE at most per database). */
export async function pendingEventIds(env: Env, siteId: string): Promise<string[]> {
  const ids: string[] = [];
  for (const db of await recordDatabases(env, siteId)) {
    const rows = await db.prepare("SELECT id FROM outbox_events WHERE site_id = ? AND enqueued_at IS NULL ORDER BY created_at LIMIT ?")
      .bind(siteId, PENDING_PAGE)
      .all<{ id: string }>();
    ids.push(...rows.results.map((r) => r.id));
  }
  return ids;
}

/** What the alarm's look for handed-over, unconsumed rows found. */
export interface Unconsumed {
  /** Rows still not consumed whose resend is due (`resendDueAt`: RESEND_AFTER_MS after the hand-over, backing off while they wait): to send again. */
  overdue: string[];
  /** When the earliest younger unconsumed row becomes overdue (null: none waits). */
  nextDue: number | null;
  /** A database answered a full page of overdue rows: more may wait, look again soon. */
  full: boolean;
}

/**
 * Outbox rows of this site handed to the queue but not (yet) consumed, **earliest resend first**
 * (PENDING_PAGE at most per database; `idx_outbox_unconsumed` holds only such rows, so the look
 * costs what is waiting, not the outbox). One read per database, in the alarm, never in a write.
 *
 * Ordered by when each row is due (`RESEND_DUE_SQL`, the same rule as `resendDueAt`), not by its
 * hand-over: rows handed over early but still waiting out their backoff — a seeded site's events,
 * written long before their first hand-over, wait 15 minutes — used to fill the page taken oldest
 * hand-over first, so overdue rows behind them were never sent again and the alarm looked at the
 * same page every MARK_DELAY_MS (found with the crash test beside a second lane: docs/testing.md,
 * "Lanes"). Now a page holds the rows due soonest: a full page of overdue rows means more may be
 * overdue (look again soon), and the first row not yet due says when to look next.
 */
export async function unconsumedEvents(env: Env, siteId: string, now: number, resendAfterMs: number): Promise<Unconsumed> {
  const found: Unconsumed = { overdue: [], nextDue: null, full: false };
  for (const db of await recordDatabases(env, siteId)) {
    const rows = await db.prepare(
      `SELECT id, ${RESEND_DUE_SQL} AS due FROM outbox_events WHERE site_id = ?3 AND enqueued_at IS NOT NULL AND consumed_at IS NULL ORDER BY due, id LIMIT ?4`,
    )
      .bind(resendAfterMs, Math.max(resendAfterMs, LONGEST_RESEND_WAIT_MS), siteId, PENDING_PAGE)
      .all<{ id: string; due: number }>();
    const overdue = rows.results.filter((row) => row.due <= now);
    found.overdue.push(...overdue.map((row) => row.id));
    // Ordered by due: the first row not overdue is this database's earliest next resend.
    const next = rows.results[overdue.length];
    if (next && (found.nextDue === null || next.due < found.nextDue)) found.nextDue = next.due;
    const last = rows.results.at(-1);
    if (rows.results.length >= PENDING_PAGE && last && last.due <= now) found.full = true;
  }
  return found;
}
