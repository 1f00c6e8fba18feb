/**
 * A small per-isolate cache of site and model configuration for the public read path, so a read
 * costs one D1 query rather than three. Entries live `ttlMs` (env CONFIG_CACHE_MS, default 5000):
 * a change to a site, its hosts or a model reaches every reader within that time (docs/caching.md).
 * Misses are cached too, so requests for unknown hosts cannot hammer D1.
 */
export const DEFAULT_CONFIG_CACHE_MS = 5_000;
const MAX_ENTRIES = 2_000;

export function configCacheMs(env: { CONFIG_CACHE_MS?: string }): number {
  const n = Number(env.CONFIG_CACHE_MS ?? DEFAULT_CONFIG_CACHE_MS);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_CONFIG_CACHE_MS;
}

export class TtlCache<V> {
  readonly #entries = new Map<string, { value: Promise<V>; expires: number }>();

  /** The cached value of `key`, or `load()`'s (shared by concurrent callers; failures not kept). */
  get(key: string, ttlMs: number, now: number, load: () => Promise<V>): Promise<V> {
    if (ttlMs <= 0) return load();
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const value = load();
    this.#entries.set(key, { value, expires: now + ttlMs });
    value.catch(() => this.#entries.delete(key));
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}
