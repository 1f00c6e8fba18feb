import type { PublicAnswer } from "./respond";
import { publicResponse } from "./respond";
import { canonicalQuery } from "./params";

/** Seconds public answers may be cached (shared with the write path, which purges only when > 0). */
export { cacheMaxAge } from "../../shared/public/cache-purge";

/** The cache key: host, path and the query in a canonical order, never any header. */
export function cacheKey(request: Request): Request {
  const url = new URL(request.url);
  const host = (request.headers.get("host") ?? url.host).toLowerCase().replace(/:\d+$/, "");
  const query = new URLSearchParams(canonicalQuery(url)).toString();
  return new Request(`https://${host}${url.pathname}${query ? `?${query}` : ""}`, { method: "GET" });
}

/** Whether a request may be answered from, and stored in, the edge cache. */
export function cacheable(request: Request): boolean {
  if (request.method !== "GET" || request.headers.has("authorization")) return false;
  return !new URL(request.url).searchParams.has("preview");
}

/**
 * The cached answer of a public request, looked up before anything else (no D1 read on a hit).
 * Requests carrying a token or a preview never use the cache.
 */
export async function cachedAnswer(request: Request, maxAge: number): Promise<Response | undefined> {
  if (maxAge === 0 || !cacheable(request)) return undefined;
  return caches.default.match(cacheKey(request));
}

/**
 * Produces a public answer and, when allowed, stores it with its tags (the router already looked the
 * request up). Requests carrying a token or a preview are answered `private, no-store`.
 */
export async function withCache(
  request: Request,
  maxAge: number,
  bypass: boolean,
  ctx: ExecutionContext,
  produce: () => Promise<PublicAnswer>,
): Promise<Response> {
  const answer = await produce();
  if (maxAge === 0 || bypass || !cacheable(request)) return publicResponse(bypass ? { ...answer, cacheable: false } : answer, maxAge);
  const response = publicResponse(answer, maxAge);
  if (answer.cacheable) ctx.waitUntil(caches.default.put(cacheKey(request), response.clone()));
  return response;
}
