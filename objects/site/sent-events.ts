/** How long sent events may stay unmarked before the alarm marks them (one UPDATE for all). */
export const MARK_DELAY_MS = 2_000;
/** Past this many unmarked ids a write marks them itself, so memory stays small under a burst. */
export const MARK_AT_MOST = 500;
/** The alarm looks for committed-but-unsent events at least this often even when none failed. */
export const SCAN_INTERVAL_MS = 60 * 60 * 1000;
/** The production resend time (shared/events/timing.ts); a local run may shorten it. */
import { RESEND_AFTER_MS } from "../../shared/events/timing";

export { RESEND_AFTER_MS };

/**
 * Outbox events a write handed to the queue whose rows are not yet marked enqueued. Marking each
 * write's events on its own cost a D1 round trip per write (issue #14); the object's alarm marks
 * them together a moment later instead. Held in memory only: if the object stops first, the alarm
 * finds those rows unmarked and sends them again — a duplicate message, which the consumer
 * already absorbs (one delivery row per event and subscriber, shared/events/deliver.ts).
 *
 * A marked row is not done: it is done when the consumer has taken its message (`consumed_at`).
 * Once rows are marked the alarm stays armed to look, RESEND_AFTER_MS later, for rows handed over
 * but never consumed — a message the queue held when a local runtime was killed — and sends them
 * again (`checkDue`).
 */
export class SentEvents {
  /** How long a handed-over row may stay unconsumed before it is sent again (eventTiming). */
  readonly #resendAfterMs: number;
  #ids: string[] = [];
  #since: number | null = null;
  // Whether the alarm must look for unsent events: at the object's start (a stop may have come
  // between a commit and its send), after a refused send, and every SCAN_INTERVAL_MS.
  #scanDue = true;
  #lastScan: number | null = null;
  // When the alarm must look for rows handed over but not consumed (null: none known to wait).
  #checkAt: number | null = null;

  constructor(resendAfterMs: number = RESEND_AFTER_MS) {
    this.#resendAfterMs = resendAfterMs;
  }

  /** Notes sent ids; true when these are the first since the last take (the alarm must be armed). */
  add(ids: readonly string[], now: number): boolean {
    if (ids.length === 0) return false;
    this.#ids.push(...ids);
    if (this.#since !== null) return false;
    this.#since = now;
    return true;
  }

  /**
   * Unsent events may be waiting (a refused send, a look that failed or found a full page): the
   * alarm looks again within MARK_DELAY_MS.
   */
  scanSoon(now: number): void {
    this.#scanDue = true;
    this.#since ??= now;
  }

  /** Whether this alarm must look for unsent events; if so, counts the look as done. */
  takeScan(now: number): boolean {
    const due = this.#scanDue || this.#lastScan === null || now - this.#lastScan >= SCAN_INTERVAL_MS;
    if (due) {
      this.#scanDue = false;
      this.#lastScan = now;
    }
    return due;
  }

  /** Every noted id, forgotten here (give them back with `add` if marking fails). */
  take(): string[] {
    const ids = this.#ids;
    this.#ids = [];
    this.#since = null;
    return ids;
  }

  /**
   * Rows were marked handed over at `now` (by the alarm, a write or a resend): the alarm looks for
   * any of them still unconsumed RESEND_AFTER_MS later (an earlier look stands).
   */
  marked(now: number): void {
    this.lookForUnconsumedBy(now + this.#resendAfterMs);
  }

  /** The alarm looks for handed-over, unconsumed rows by `at` (an earlier look stands). */
  lookForUnconsumedBy(at: number): void {
    if (this.#checkAt === null || at < this.#checkAt) this.#checkAt = at;
  }

  /**
   * Whether this alarm must look for handed-over, unconsumed rows (its time came, or `scanned`: a
   * look for unsent rows runs now — at the object's start and hourly); if so, forgets the time:
   * the look sets the next one from what it finds.
   */
  takeCheck(now: number, scanned: boolean): boolean {
    const due = scanned || (this.#checkAt !== null && now >= this.#checkAt);
    if (due) this.#checkAt = null;
    return due;
  }

  get size(): number {
    return this.#ids.length;
  }

  /** When the alarm should mark what is noted or look for unconsumed rows, or null when neither waits. */
  nextDue(): number | null {
    const mark = this.#since === null ? null : this.#since + MARK_DELAY_MS;
    if (mark === null) return this.#checkAt;
    return this.#checkAt === null ? mark : Math.min(mark, this.#checkAt);
  }
}
