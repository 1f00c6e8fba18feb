import type { PublicAnswer } from "./respond";
import { publicResponse } from "./respond";

/** Seconds public answers may be cached (shared with the write path, which purges only when > 0). */
export { cacheMaxAge } from "../../shared/public/cache-purge";

/** The cache key: host, path and the query in a canonical order, never any header. */
export function cacheKey(request: Request): Request {
  const url = new URL(request.url);
  const host = (request.headers.get("host") ?? url.host).toLowerCase().replace(/:\d+$/, "");
  const params = [...url.searchParams.entries()].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
  const query = new URLSearchParams(params).toString();
  return new Request(`https://${host}${url.pathname}${query ? `?${query}` : ""}`, { method: "GET" });
}

/**
 * Serves from the edge cache when allowed, else produces the answer and stores it with its tags.
 * Requests carrying a token or a preview skip the cache both ways.
 */
export async function withCache(
  request: Request,
  maxAge: number,
  bypass: boolean,
  ctx: ExecutionContext,
  produce: () => Promise<PublicAnswer>,
): Promise<Response> {
  if (maxAge === 0 || bypass) {
    const answer = await produce();
    return publicResponse(bypass ? { ...answer, cacheable: false } : answer, maxAge);
  }
  const cache = caches.default;
  const key = cacheKey(request);
  const hit = await cache.match(key);
  if (hit) return hit;
  const answer = await produce();
  const response = publicResponse(answer, maxAge);
  if (answer.cacheable) ctx.waitUntil(cache.put(key, response.clone()));
  return response;
}
