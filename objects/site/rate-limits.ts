import type { Clock } from "../../shared/clock";

/** Result of {@link RateLimiter.take}. */
export type TakeResult = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

type WindowRow = { window_start: number; window_ms: number; count: number };

/**
 * Fixed-window rate limits of one site, in the Durable Object's SQLite storage (`limit_windows`).
 *
 * A bucket's window opens with its first request and lasts `windowMs`; the next request after it
 * ends opens a new one. (Windows aligned to the clock would let a burst straddling a boundary pass
 * twice the limit in a moment.)
 * `take` is synchronous (read and write with no await between), so concurrent calls in one
 * object are serialised by the runtime and can never allow more than `limit` per window.
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
    return this.storage.transactionSync((): TakeResult => {
      const sql = this.storage.sql;
      const row = sql
        .exec<WindowRow>("SELECT window_start, window_ms, count FROM limit_windows WHERE bucket = ?", bucket)
        .toArray()[0];
      // A window that has ended, or one kept with another window length, starts over now.
      const current = row !== undefined && row.window_ms === windowMs && now < row.window_start + windowMs;
      const windowStart = current ? row.window_start : now;
      const windowEnd = windowStart + windowMs;
      const used = current ? row.count : 0;
      if (used >= limit) return { allowed: false, retryAfterMs: windowEnd - now };
      sql.exec(
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
      return { allowed: true, remaining: limit - used - 1 };
    });
  }

  /** Deletes counters of windows that have ended; returns how many. */
  sweep(): number {
    return this.storage.sql.exec("DELETE FROM limit_windows WHERE expires_at <= ? RETURNING 1", this.clock.now()).toArray()
      .length;
  }

  /** Earliest end of any stored window (possibly past), or null when none. */
  nextExpiry(): number | null {
    return this.storage.sql.exec<{ t: number | null }>("SELECT MIN(expires_at) AS t FROM limit_windows").one().t;
  }
}
