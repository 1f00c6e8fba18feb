import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PENDING_PAGE, unconsumedEvents } from "../../objects/site/after-commit";
import { LONGEST_RESEND_WAIT_MS, resendDueAt } from "../../shared/events/timing";
import { seedSite } from "../helpers/fixtures";

const RESEND = 45_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** An outbox row handed to the queue at `enqueuedAt` and never consumed, written at `createdAt`. */
async function handedOver(siteId: string, id: string, createdAt: number, enqueuedAt: number): Promise<void> {
  await env.DB.prepare("INSERT INTO outbox_events (id, site_id, name, payload, created_at, enqueued_at) VALUES (?, ?, 'entry.updated', '{}', ?, ?)")
    .bind(id, siteId, iso(createdAt), iso(enqueuedAt))
    .run();
}

/**
 * An event the queue's consumer has not taken is sent again after RESEND_AFTER_MS, then after as
 * long again as it has already waited: a consumer that is behind (a subscriber that is down, a
 * 20,000-post import's events) no longer receives its whole backlog again every 45 s.
 */
describe("the resend of unconsumed events backs off", () => {
  it("is due 45 s after the first hand-over, then as long again as the event has waited, at most 15 minutes", () => {
    const t0 = Date.parse("2026-11-27T10:00:00Z");
    expect(resendDueAt(t0, t0, RESEND)).toBe(t0 + 45_000);
    // Resent at +45 s: due 45 s later (it had waited 45 s).
    expect(resendDueAt(t0, t0 + 45_000, RESEND)).toBe(t0 + 90_000);
    // Resent at +90 s: waits 90 s; at +180 s: 180 s.
    expect(resendDueAt(t0, t0 + 90_000, RESEND)).toBe(t0 + 180_000);
    expect(resendDueAt(t0, t0 + 180_000, RESEND)).toBe(t0 + 360_000);
    // After hours of waiting the wait stops growing.
    expect(resendDueAt(t0, t0 + 3 * 3_600_000, RESEND)).toBe(t0 + 3 * 3_600_000 + LONGEST_RESEND_WAIT_MS);
    // A shorter local setting keeps its first resend time.
    expect(resendDueAt(t0, t0, 9_000)).toBe(t0 + 9_000);
  });

  it("sends again only the rows whose backoff has run out and looks next when the earliest waiting one is due", async () => {
    const s = await seedSite();
    const now = Date.now();
    // Handed over once, 50 s ago: due (45 s).
    await handedOver(s.site.id, "evt_backoff_first", now - 50_000, now - 50_000);
    // Written 10 minutes ago, last sent again 50 s ago: waits as long as it had waited (9 min 10 s).
    await handedOver(s.site.id, "evt_backoff_waiting", now - 600_000, now - 50_000);
    // Handed over 10 s ago: due in 35 s.
    await handedOver(s.site.id, "evt_backoff_young", now - 10_000, now - 10_000);

    const found = await unconsumedEvents(env, s.site.id, now, RESEND);
    expect(found.overdue).toEqual(["evt_backoff_first"]);
    expect(found.full).toBe(false);
    expect(found.nextDue).toBe(now - 10_000 + RESEND);

    // Before the backoff, the row written 10 minutes ago would have been sent again now too.
    const later = await unconsumedEvents(env, s.site.id, now - 50_000 + 550_000, RESEND);
    expect(later.overdue.sort()).toEqual(["evt_backoff_first", "evt_backoff_waiting", "evt_backoff_young"]);
  });

  it("finds an overdue row behind a full page of rows still waiting out their backoff (earliest due first, not oldest hand-over)", async () => {
    const s = await seedSite();
    const now = Date.now();
    // A page of rows written a year ago and handed over for the first time 60 s ago (a seeded
    // site's events, sent when its object first wakes): each waits LONGEST_RESEND_WAIT_MS.
    const yearAgo = now - 365 * 86_400_000;
    const waiting = Array.from({ length: PENDING_PAGE }, (_, i) => `evt_backoff_old_${String(i).padStart(3, "0")}`);
    await env.DB.batch(
      waiting.map((id) =>
        env.DB.prepare("INSERT INTO outbox_events (id, site_id, name, payload, created_at, enqueued_at) VALUES (?, ?, 'entry.updated', '{}', ?, ?)").bind(id, s.site.id, iso(yearAgo), iso(now - 60_000)),
      ),
    );
    // Handed over after them, 46 s ago, once: its message was lost with a killed runtime, it is due.
    await handedOver(s.site.id, "evt_backoff_lost", now - 46_500, now - 46_000);

    const found = await unconsumedEvents(env, s.site.id, now, RESEND);
    // Taken oldest hand-over first, the page held only the waiting rows: nothing overdue, "full",
    // and the alarm looked at the same page every 2 s while the lost row was never sent again.
    expect(found.overdue).toEqual(["evt_backoff_lost"]);
    expect(found.full).toBe(false);
    expect(found.nextDue).toBe(resendDueAt(yearAgo, now - 60_000, RESEND));
    expect(found.nextDue).toBe(now - 60_000 + LONGEST_RESEND_WAIT_MS);
  });
});
