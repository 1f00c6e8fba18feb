import { describe, expect, it } from "vitest";
import { configCacheMs, DEFAULT_CONFIG_CACHE_MS, TtlCache } from "../../shared/public/config-cache";

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
});
