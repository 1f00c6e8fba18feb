/**
 * Small per-isolate caches of site and model configuration for the public read path, so a read
 * costs one D1 query rather than three. Entries live `ttlMs` (env CONFIG_CACHE_MS, default 5000):
 * a change to a site, its hosts or a model reaches every reader within that time (docs/caching.md).
 * Misses are cached too, so requests for unknown hosts cannot hammer D1.
 *
 * Each cache is a bounded LRU (docs/scale.md, "Per-isolate memory"): at most `maxEntries` keys, the
 * least recently used one evicted first, so one isolate serving many sites holds the working set of
 * hot sites and a memory bound, whatever the number of sites in the deployment.
 */
export const DEFAULT_CONFIG_CACHE_MS = 5_000;
/** Keys per cache: a site row is ~1 KB and a model ~2–20 KB, so each cache stays within a few MB. */
export const DEFAULT_MAX_ENTRIES = 1_000;

export function configCacheMs(env: { CONFIG_CACHE_MS?: string }): number {
  const n = Number(env.CONFIG_CACHE_MS ?? DEFAULT_CONFIG_CACHE_MS);
  return Number.isFinite(n) && n >= 0 ? n : DEFAULT_CONFIG_CACHE_MS;
}

interface Entry<V> {
  value: Promise<V>;
  expires: number;
  /** Approximate bytes of the settled value (UTF-16 JSON length), 0 until it settles. */
  bytes: number;
}

export interface CacheStats {
  name: string;
  entries: number;
  max_entries: number;
  /** Approximate retained bytes of the settled values (UTF-16 JSON length; keys and overhead not counted). */
  approx_bytes: number;
}

const registry: TtlCache<unknown>[] = [];

/** Every named cache of this isolate, for the bench and operators (docs/scale.md). */
export function configCacheStats(): CacheStats[] {
  return registry.map((cache) => cache.stats());
}

function approximateBytes(value: unknown): number {
  try {
    return (JSON.stringify(value) ?? "").length * 2;
  } catch {
    return 0;
  }
}

export class TtlCache<V> {
  // A Map iterates in insertion order; a hit re-inserts its key, so the first key is the least recently used.
  readonly #entries = new Map<string, Entry<V>>();

  constructor(
    readonly name = "cache",
    readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    registry.push(this as TtlCache<unknown>);
  }

  /** The cached value of `key`, or `load()`'s (shared by concurrent callers; failures not kept). */
  get(key: string, ttlMs: number, now: number, load: () => Promise<V>): Promise<V> {
    if (ttlMs <= 0) return load();
    const hit = this.#entries.get(key);
    if (hit && hit.expires > now) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    this.#entries.delete(key);
    while (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    const value = load();
    const entry: Entry<V> = { value, expires: now + ttlMs, bytes: 0 };
    this.#entries.set(key, entry);
    value.then(
      (settled) => {
        entry.bytes = approximateBytes(settled);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return value;
  }

  stats(): CacheStats {
    let bytes = 0;
    for (const entry of this.#entries.values()) bytes += entry.bytes;
    return { name: this.name, entries: this.#entries.size, max_entries: this.maxEntries, approx_bytes: bytes };
  }

  clear(): void {
    this.#entries.clear();
  }
}
