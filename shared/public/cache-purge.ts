import type { Env } from "../env";

/**
 * Cloudflare accepts at most 30 cache-tags per purge-by-tag API call: "You may purge up to 30 tags
 * in one API call" (Cloudflare API, purge cache by cache-tags). The current "Purge cache" page
 * (developers.cloudflare.com/cache/how-to/purge-cache) allows 100 operations per request on every
 * plan; 30 stays within both, so calls are never refused for their size.
 */
export const MAX_TAGS_PER_PURGE_CALL = 30;

/** Each purge call gives up after this long; a hung API must not hold a write's answer. */
export const PURGE_CALL_TIMEOUT_MS = 5_000;

/** Calls in flight at once for one write (a Worker opens at most 6 connections at a time). */
const PURGE_CONCURRENCY = 4;

export const CLOUDFLARE_API_BASE = "https://api.cloudflare.com";

/**
 * Why a write's stale responses were not evicted:
 * - `caching_off`: `PUBLIC_CACHE_MAX_AGE` is 0, nothing is stored in the cache, no call was made;
 * - `not_configured`: caching is on but `CF_PURGE_ZONE_ID` or `CF_PURGE_API_TOKEN` is missing;
 * - `purge_failed`: at least one call failed, timed out or did not answer `success: true`.
 */
export type PurgeReason = "caching_off" | "not_configured" | "purge_failed";

export interface PurgeResult {
  evicted: boolean;
  reason?: PurgeReason;
}

/** What a write reports about the cache: the tags it made stale and whether they are gone. */
export interface PurgeReport extends PurgeResult {
  tags: string[];
}

/** Evicts every cached response carrying any of the tags. Never throws. */
export interface CachePurger {
  purgeTags(tags: readonly string[]): Promise<PurgeResult>;
}

type PurgeEnv = Pick<Env, "CF_PURGE_ZONE_ID" | "CF_PURGE_API_TOKEN" | "CF_PURGE_API">;

export interface CloudflarePurgerOptions {
  timeoutMs?: number;
}

/** Seconds public answers may be cached; 0 (the default) turns caching off. */
export function cacheMaxAge(env: { PUBLIC_CACHE_MAX_AGE?: string }): number {
  const n = Number(env.PUBLIC_CACHE_MAX_AGE ?? "0");
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Whether a parsed API answer is Cloudflare's `{ success: true, … }`. */
function succeeded(body: unknown): boolean {
  return typeof body === "object" && body !== null && "success" in body && body.success === true;
}

/** Cloudflare's error codes of a failed answer (never its headers, never the request). */
function errorCodes(body: unknown): unknown[] {
  if (typeof body !== "object" || body === null || !("errors" in body) || !Array.isArray(body.errors)) return [];
  return body.errors.map((e: unknown) => (typeof e === "object" && e !== null && "code" in e ? e.code : null));
}

function warn(message: string, details: Record<string, unknown>): void {
  // Only the zone, status and error codes are logged: the token stays in the Authorization header.
  console.error(JSON.stringify({ level: "warn", message, ...details }));
}

/**
 * Purge by tag through Cloudflare's API: `POST {base}/client/v4/zones/{zone}/purge_cache` with
 * `{ "tags": [...] }`, deduplicated and split into calls of at most 30 tags. Outbound calls go to the
 * `CF_PURGE_API` service binding when one is bound (tests bind a fake there), else to the public API.
 */
export function cloudflarePurger(env: PurgeEnv, options: CloudflarePurgerOptions = {}): CachePurger {
  const timeoutMs = options.timeoutMs ?? PURGE_CALL_TIMEOUT_MS;
  const binding = env.CF_PURGE_API;
  const send = (url: string, init: RequestInit): Promise<Response> => (binding ? binding.fetch(url, init) : fetch(url, init));

  return {
    async purgeTags(tags: readonly string[]): Promise<PurgeResult> {
      const zone = env.CF_PURGE_ZONE_ID;
      const token = env.CF_PURGE_API_TOKEN;
      if (!zone || !token) return { evicted: false, reason: "not_configured" };
      const unique = [...new Set(tags)];
      if (unique.length === 0) return { evicted: true };
      const url = `${CLOUDFLARE_API_BASE}/client/v4/zones/${encodeURIComponent(zone)}/purge_cache`;
      const chunks: string[][] = [];
      for (let i = 0; i < unique.length; i += MAX_TAGS_PER_PURGE_CALL) chunks.push(unique.slice(i, i + MAX_TAGS_PER_PURGE_CALL));

      const call = async (part: string[], index: number): Promise<boolean> => {
        try {
          const response = await send(url, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ tags: part }),
            signal: AbortSignal.timeout(timeoutMs),
          });
          const body: unknown = await response.json().catch(() => null);
          if (response.ok && succeeded(body)) return true;
          warn("cache purge refused", { zone, call: index, status: response.status, errors: errorCodes(body) });
          return false;
        } catch (error) {
          const name = error instanceof Error ? error.name : "Error";
          warn("cache purge call failed", { zone, call: index, error: name });
          return false;
        }
      };

      // Every chunk is tried even after a failure, so as much as possible is evicted.
      const results: boolean[] = new Array<boolean>(chunks.length).fill(false);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < chunks.length) {
          const index = next++;
          results[index] = await call(chunks[index] ?? [], index);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PURGE_CONCURRENCY, chunks.length) }, worker));
      return results.every(Boolean) ? { evicted: true } : { evicted: false, reason: "purge_failed" };
    },
  };
}

/**
 * The purge a committed write runs: deduplicated tags, no call while caching is off, and a report
 * instead of an exception — the write is committed whatever happens here.
 * `reason` is present exactly when stale responses may remain cached (or caching is off).
 */
export async function purgeAfterCommit(env: { PUBLIC_CACHE_MAX_AGE?: string }, purger: CachePurger, tags: readonly string[]): Promise<PurgeReport> {
  const unique = [...new Set(tags)];
  if (unique.length === 0) return { tags: [], evicted: false };
  if (cacheMaxAge(env) === 0) return { tags: unique, evicted: false, reason: "caching_off" };
  try {
    return { tags: unique, ...(await purger.purgeTags(unique)) };
  } catch {
    return { tags: unique, evicted: false, reason: "purge_failed" };
  }
}
