import type { Env } from "../env";

/**
 * How long a row handed to the queue may go unconsumed before the site's object sends it again
 * (docs/events.md, "After a crash"), and how long a consumer's claim on one delivery attempt lasts.
 *
 * 45 s in production: above the claim (30 s), so a resend after a stop mid-attempt finds the claim
 * lapsed and attempts at once; well above what a live queue takes to hand a message over; short
 * enough that an event lost with a killed local runtime arrives within a minute of the restart.
 *
 * `EVENT_RESEND_AFTER_MS` shortens both for local runs and tests (the crash test waits for a
 * resend: 45 s of an otherwise idle test suite). The claim stays two thirds of the resend time,
 * the production proportion, so the order the design relies on (claim lapses before a resend) holds
 * at any setting; the shortest allowed (9 s) keeps the claim (6 s) longer than a delivery's 5 s
 * timeout, so an attempt still running is never claimed twice. Values under 9 s, non-integers and
 * values above the default are ignored.
 */
export const RESEND_AFTER_MS = 45_000;
const CLAIM_SHARE = 2 / 3;
const SHORTEST_RESEND_MS = 9_000;

export interface EventTiming {
  resendAfterMs: number;
  claimMs: number;
}

export function eventTiming(env: Pick<Env, "EVENT_RESEND_AFTER_MS">): EventTiming {
  const asked = Number(env.EVENT_RESEND_AFTER_MS ?? RESEND_AFTER_MS);
  const resendAfterMs = Number.isSafeInteger(asked) && asked >= SHORTEST_RESEND_MS && asked <= RESEND_AFTER_MS ? asked : RESEND_AFTER_MS;
  return { resendAfterMs, claimMs: Math.round(resendAfterMs * CLAIM_SHARE) };
}

/** The longest wait between two resends of one unconsumed event (the backoff below stops growing here). */
export const LONGEST_RESEND_WAIT_MS = 15 * 60_000;

/**
 * When an event handed to the queue and not yet consumed is due to be sent again: `resendAfterMs`
 * after its last hand-over, or — once it has waited longer than that — as long again as it has
 * already waited since it was written (capped at LONGEST_RESEND_WAIT_MS). A lost message is still
 * sent again after `resendAfterMs`; an event that a slow or backlogged consumer has not reached
 * yet is sent again after 45 s, 90 s, 3 min, 6 min … instead of every 45 s. Without the backoff a
 * consumer behind by more than the resend time received every waiting event again each round, its
 * backlog grew with its own duplicates, and a 20,000-post import on a site whose subscriber was
 * down stopped advancing (docs/events.md, "After a crash").
 */
export function resendDueAt(createdAt: number, enqueuedAt: number, resendAfterMs: number): number {
  const waited = Math.max(0, enqueuedAt - createdAt);
  return enqueuedAt + Math.min(Math.max(resendAfterMs, waited), Math.max(resendAfterMs, LONGEST_RESEND_WAIT_MS));
}

/** An ISO-8601 text column as whole epoch milliseconds in SQLite (julianday: every SQLite has it). */
const epochMs = (column: string) => `CAST(ROUND((julianday(${column}) - 2440587.5) * 86400000) AS INTEGER)`;

/**
 * `resendDueAt` of an `outbox_events` row as an SQL expression (epoch ms), so the alarm's look can
 * order unconsumed rows by when they are due (objects/site/after-commit.ts `unconsumedEvents`).
 * Parameters: `?1` resendAfterMs, `?2` max(resendAfterMs, LONGEST_RESEND_WAIT_MS). Kept beside
 * `resendDueAt`: the two must say the same (test/integration/event-resend-backoff.test.ts compares them).
 */
export const RESEND_DUE_SQL = `(${epochMs("enqueued_at")} + MIN(MAX(?1, ${epochMs("enqueued_at")} - ${epochMs("created_at")}), ?2))`;
