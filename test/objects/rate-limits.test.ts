import { describe, expect, it } from "vitest";
import { RateLimiter, type TakeResult } from "../../objects/site/rate-limits";
import { inSiteStorage } from "../helpers/site-storage";
import { FakeClock } from "../helpers/time";

const WINDOW_MS = 60_000;

describe("RateLimiter", () => {
  it("allows exactly `limit` of 500 concurrent takes, then says when to retry, then opens a new window", async () => {
    await inSiteStorage("test-limit-concurrent", async (storage) => {
      // The window opens with the first take, 15 s past a round minute (windows are not clock-aligned).
      const clock = new FakeClock(Date.UTC(2026, 0, 1) + 15_000);
      const limiter = new RateLimiter(storage, clock);
      const limit = 37;
      const results: TakeResult[] = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => {
          // Spread the calls over many turns of the event loop, as separate requests would be.
          await new Promise((resolve) => setTimeout(resolve, i % 11));
          return limiter.take("writes:cred_1", limit, WINDOW_MS);
        }),
      );
      const allowed = results.filter((r) => r.allowed);
      expect(allowed).toHaveLength(limit);
      expect(allowed.map((r) => (r.allowed ? r.remaining : -1)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: limit }, (_, i) => i),
      );
      expect(results.filter((r) => !r.allowed)).toHaveLength(500 - limit);

      clock.advance(5_000);
      expect(limiter.take("writes:cred_1", limit, WINDOW_MS)).toEqual({ allowed: false, retryAfterMs: 55_000 });
      // Other buckets count separately.
      expect(limiter.take("writes:cred_2", limit, WINDOW_MS)).toEqual({ allowed: true, remaining: limit - 1 });

      clock.advance(40_000);
      expect(limiter.take("writes:cred_1", limit, WINDOW_MS)).toEqual({ allowed: false, retryAfterMs: 15_000 });
      clock.advance(15_000);
      expect(limiter.take("writes:cred_1", limit, WINDOW_MS)).toEqual({ allowed: true, remaining: limit - 1 });
    });
  });

  it("counts a window from its first take and refusals do not count", async () => {
    await inSiteStorage("test-limit-window", (storage) => {
      const start = Date.UTC(2026, 0, 1);
      const clock = new FakeClock(start);
      const limiter = new RateLimiter(storage, clock);
      expect(limiter.take("b", 2, WINDOW_MS)).toEqual({ allowed: true, remaining: 1 });
      expect(limiter.take("b", 2, WINDOW_MS)).toEqual({ allowed: true, remaining: 0 });
      for (let i = 0; i < 10; i++) expect(limiter.take("b", 2, WINDOW_MS).allowed).toBe(false);
      clock.set(start + WINDOW_MS - 1);
      expect(limiter.take("b", 2, WINDOW_MS)).toEqual({ allowed: false, retryAfterMs: 1 });
      clock.set(start + WINDOW_MS);
      expect(limiter.take("b", 2, WINDOW_MS)).toEqual({ allowed: true, remaining: 1 });
      expect(limiter.take("z", 0, WINDOW_MS)).toEqual({ allowed: false, retryAfterMs: WINDOW_MS });
      expect(() => limiter.take("b", 2, 0)).toThrow(RangeError);
      expect(() => limiter.take("b", -1, WINDOW_MS)).toThrow(RangeError);
    });
  });

  it("sweeps ended windows", async () => {
    await inSiteStorage("test-limit-sweep", (storage) => {
      const start = Date.UTC(2026, 0, 1);
      const clock = new FakeClock(start);
      const limiter = new RateLimiter(storage, clock);
      expect(limiter.nextExpiry()).toBeNull();
      limiter.take("a", 5, WINDOW_MS);
      limiter.take("b", 5, 10 * WINDOW_MS);
      expect(limiter.nextExpiry()).toBe(start + WINDOW_MS);
      expect(limiter.sweep()).toBe(0);
      clock.advance(WINDOW_MS);
      expect(limiter.sweep()).toBe(1);
      expect(limiter.nextExpiry()).toBe(start + 10 * WINDOW_MS);
    });
  });

  it("keeps counting across limiters of one storage and through a sweep: the kept windows never count apart from storage", async () => {
    await inSiteStorage("test-limit-kept", (storage) => {
      const start = Date.UTC(2026, 0, 1);
      const clock = new FakeClock(start);
      const first = new RateLimiter(storage, clock);
      expect(first.take("w", 3, WINDOW_MS)).toEqual({ allowed: true, remaining: 2 });
      // A second limiter of the same object (as after a restart of the class) sees the first's takes…
      const second = new RateLimiter(storage, clock);
      expect(second.take("w", 3, WINDOW_MS)).toEqual({ allowed: true, remaining: 1 });
      expect(first.take("w", 3, WINDOW_MS)).toEqual({ allowed: true, remaining: 0 });
      expect(second.take("w", 3, WINDOW_MS).allowed).toBe(false);
      // …and storage holds what was taken, row for row.
      expect(storage.sql.exec<{ count: number }>("SELECT count FROM limit_windows WHERE bucket = 'w'").one().count).toBe(3);
      // A sweep before the window ends keeps it; after, the bucket starts over.
      expect(first.sweep()).toBe(0);
      expect(second.take("w", 3, WINDOW_MS).allowed).toBe(false);
      clock.advance(WINDOW_MS);
      expect(second.sweep()).toBe(1);
      expect(first.take("w", 3, WINDOW_MS)).toEqual({ allowed: true, remaining: 2 });
      expect(storage.sql.exec<{ count: number }>("SELECT count FROM limit_windows WHERE bucket = 'w'").one().count).toBe(1);
    });
  });
});
