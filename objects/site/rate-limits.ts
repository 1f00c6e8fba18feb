import type { Clock } from "../../shared/clock";

/** Result of {@link RateLimiter.take}. */
export type TakeResult = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

type WindowRow = { window_start: number; window_ms: number; count: number };

/**
 * What `limit_windows` holds for the buckets a limiter read or wrote, by storage: a take reads its
 * window here instead of a SELECT. Kept per storage, not per limiter, so two limiters of one
 * object can never count apart; an evicted object starts empty and reads its windows again.
 */
const storedWindows = new WeakMap<DurableObjectStorage, Map<string, WindowRow>>();

/**
 * Fixed-window rate limits of one site, in the Durable Object's SQLite storage (`limit_windows`).
 *
 * A bucket's window opens with its first request and lasts `windowMs`; the next request after it
 * ends opens a new one. (Windows aligned to the clock would let a burst straddling a boundary pass
 * twice the limit in a moment.)
 * `take` is synchronous (read and write with no await between), so concurrent calls in one
 * object are serialised by the runtime and can never allow more than `limit` per window. A window
 * is read from storage once and then kept beside it (`storedWindows`): a take writes one statement.
 */
export class RateLimiter {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes one unit from `bucket`: allowed while fewer than `limit` were taken in the current
   * window of `windowMs`. A refusal does not count, so hammering a full bucket does not extend it.
   */
  take(bucket: string, limit: number, windowMs: number): TakeResult {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer; got ${limit}`);
    if (!Number.isSafeInteger(windowMs) || windowMs <= 0) throw new RangeError(`windowMs must be a positive integer; got ${windowMs}`);
    const now = this.clock.now();
    const row = this.#read(bucket);
    // A window that has ended, or one kept with another window length, starts over now.
    const current = row !== undefined && row.window_ms === windowMs && now < row.window_start + windowMs;
    const windowStart = current ? row.window_start : now;
    const windowEnd = windowStart + windowMs;
    const used = current ? row.count : 0;
    if (used >= limit) return { allowed: false, retryAfterMs: windowEnd - now };
    // One statement, no await between the read and it: nothing else runs in the object meanwhile.
    this.storage.sql.exec(
      `INSERT INTO limit_windows (bucket, window_start, window_ms, count, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (bucket) DO UPDATE SET
         window_start = excluded.window_start, window_ms = excluded.window_ms,
         count = excluded.count, expires_at = excluded.expires_at`,
      bucket,
      windowStart,
      windowMs,
      used + 1,
      windowEnd,
    );
    this.#windows.set(bucket, { window_start: windowStart, window_ms: windowMs, count: used + 1 });
    return { allowed: true, remaining: limit - used - 1 };
  }

  /**
   * The bucket's stored window: read from storage once, then from what this object wrote
   * (docs/write-fairness.md, "CPU per write": every write spends a window).
   */
  #read(bucket: string): WindowRow | undefined {
    const known = this.#windows.get(bucket);
    if (known !== undefined) return known;
    const row = this.storage.sql.exec<WindowRow>("SELECT window_start, window_ms, count FROM limit_windows WHERE bucket = ?", bucket).toArray()[0];
    if (row !== undefined) this.#windows.set(bucket, row);
    return row;
  }

  /** Windows as stored, by bucket, shared by every limiter of the same storage (only this class writes them). */
  get #windows(): Map<string, WindowRow> {
    let windows = storedWindows.get(this.storage);
    if (windows === undefined) {
      windows = new Map();
      storedWindows.set(this.storage, windows);
    }
    return windows;
  }

  /** Deletes counters of windows that have ended; returns how many. */
  sweep(): number {
    // The swept rows are gone from storage: their copies go too (the next take reads again).
    this.#windows.clear();
    return this.storage.sql.exec("DELETE FROM limit_windows WHERE expires_at <= ? RETURNING 1", this.clock.now()).toArray()
      .length;
  }

  /** Earliest end of any stored window (possibly past), or null when none. */
  nextExpiry(): number | null {
    return this.storage.sql.exec<{ t: number | null }>("SELECT MIN(expires_at) AS t FROM limit_windows").one().t;
  }
}
