import { describe, expect, it } from "vitest";
import { configCacheMs, configCacheStats, DEFAULT_CONFIG_CACHE_MS, TtlCache } from "../../shared/public/config-cache";

describe("TtlCache", () => {
  it("loads once within the lifetime and again after it", async () => {
    const cache = new TtlCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", 1000, 0, load)).toBe(1);
    expect(await cache.get("k", 1000, 999, load)).toBe(1);
    expect(await cache.get("k", 1000, 1000, load)).toBe(2);
  });

  it("shares one load between concurrent callers and forgets failures", async () => {
    const cache = new TtlCache<string>();
    let loads = 0;
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve(`v${++loads}`), 5));
    expect(await Promise.all([cache.get("k", 1000, 0, slow), cache.get("k", 1000, 0, slow)])).toEqual(["v1", "v1"]);
    await expect(cache.get("bad", 1000, 0, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await cache.get("bad", 1000, 1, async () => "ok")).toBe("ok");
  });

  it("does not cache with a zero lifetime and reads the lifetime from env", async () => {
    const cache = new TtlCache<number>();
    let loads = 0;
    await cache.get("k", 0, 0, async () => ++loads);
    await cache.get("k", 0, 0, async () => ++loads);
    expect(loads).toBe(2);
    expect(configCacheMs({})).toBe(DEFAULT_CONFIG_CACHE_MS);
    expect(configCacheMs({ CONFIG_CACHE_MS: "0" })).toBe(0);
    expect(configCacheMs({ CONFIG_CACHE_MS: "nope" })).toBe(DEFAULT_CONFIG_CACHE_MS);
  });

  it("evicts the least recently used key, not the oldest inserted one, and keeps its size bound", async () => {
    const cache = new TtlCache<string>("lru test", 3);
    const loads: string[] = [];
    const load = (key: string) => async () => (loads.push(key), key);
    for (const key of ["a", "b", "c"]) await cache.get(key, 60_000, 0, load(key));
    await cache.get("a", 60_000, 1, load("a")); // a is now the most recently used
    await cache.get("d", 60_000, 2, load("d")); // evicts b, the least recently used
    expect(cache.stats().entries).toBe(3);
    await cache.get("a", 60_000, 3, load("a"));
    await cache.get("c", 60_000, 3, load("c"));
    expect(loads).toEqual(["a", "b", "c", "d"]);
    await cache.get("b", 60_000, 4, load("b"));
    expect(loads).toEqual(["a", "b", "c", "d", "b"]);
    for (let i = 0; i < 50; i++) await cache.get(`k${i}`, 60_000, 5, load(`k${i}`));
    expect(cache.stats().entries).toBe(3);
  });

  it("reports entries and approximate bytes of settled values, by cache name", async () => {
    const cache = new TtlCache<{ text: string }>("stats test", 10);
    await cache.get("x", 60_000, 0, async () => ({ text: "y".repeat(100) }));
    const stats = configCacheStats().find((s) => s.name === "stats test");
    expect(stats).toEqual({ name: "stats test", entries: 1, max_entries: 10, approx_bytes: JSON.stringify({ text: "y".repeat(100) }).length * 2 });
  });
});
