import type { Clock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import type { EventTiming } from "../../shared/events/timing";
import { enqueueEvents, markEnqueued, PENDING_PAGE, pendingEventIds, unconsumedEvents } from "./after-commit";
import { MARK_DELAY_MS, type SentEvents } from "./sent-events";

/**
 * The alarm's share of event delivery (docs/events.md): marks what writes sent, sends what a
 * stopped write committed but never sent, and sends again what was handed to the queue but never
 * consumed. Each step costs D1 reads, so each runs only when `SentEvents` says one may be needed.
 */
export class EventSweep {
  constructor(
    private readonly env: Env,
    private readonly clock: Clock,
    private readonly sent: SentEvents,
    private readonly timing: EventTiming,
  ) {}

  async run(siteId: string): Promise<void> {
    // Sent events are marked first, so the resend below only finds what never reached the queue.
    const sent = this.sent.take();
    if (sent.length > 0) {
      const marked = await markEnqueued(this.env, this.clock, siteId, sent).then(() => true, () => false);
      if (marked) this.sent.marked(this.clock.now());
      else this.sent.add(sent, this.clock.now());
    }
    // Looking for unsent events costs a read per database: done when one may exist (see SentEvents).
    const scanned = this.sent.takeScan(this.clock.now());
    if (scanned) {
      const found = await pendingEventIds(this.env, siteId).catch(() => null);
      const sentAll = found !== null && (await enqueueEvents(this.env, this.clock, siteId, found));
      if (sentAll && found.length > 0) this.sent.marked(this.clock.now());
      // A failed look or send, or a full page (more may wait): look again shortly.
      if (!sentAll || found.length >= PENDING_PAGE) this.sent.scanSoon(this.clock.now());
    }
    // Handed over but never consumed (a queue that lost the message): sent again after RESEND_AFTER_MS.
    if (this.sent.takeCheck(this.clock.now(), scanned)) await this.#resendUnconsumed(siteId);
  }

  /**
   * Sends again the site's events handed to the queue RESEND_AFTER_MS ago or more that no consumer
   * took (docs/events.md, "After a crash"), and sets when to look next: when the earliest younger
   * one becomes due, soon after a failure. Nothing waiting: no next look (a mark sets one).
   */
  async #resendUnconsumed(siteId: string): Promise<void> {
    const now = this.clock.now();
    const found = await unconsumedEvents(this.env, siteId, now, this.timing.resendAfterMs).catch(() => null);
    if (found === null) return this.sent.lookForUnconsumedBy(now + MARK_DELAY_MS);
    if (found.overdue.length > 0) {
      console.error(JSON.stringify({ level: "warn", site_id: siteId, message: "events handed to the queue were not consumed; sending them again", events: found.overdue.length }));
      if (await enqueueEvents(this.env, this.clock, siteId, found.overdue)) this.sent.marked(this.clock.now());
      else this.sent.lookForUnconsumedBy(now + MARK_DELAY_MS);
    }
    if (found.nextDue !== null) this.sent.lookForUnconsumedBy(found.nextDue);
    if (found.full) this.sent.lookForUnconsumedBy(now + MARK_DELAY_MS);
  }
}
