import { createDb } from "../shared/db/client";
import { configCacheMs, TtlCache } from "../shared/public/config-cache";
import { findSiteByHost, normaliseHost, type Site } from "../shared/repositories/site-repository";
import type { Env } from "../shared/env";

const sites = new TtlCache<Site | undefined>("sites by host");

/**
 * The site that owns the request's Host, or undefined. The Host header is the only input. A
 * suspended site (docs/operations-api.md) is undefined here, so its hosts answer the public 404;
 * the cached row carries `suspended_at`, so a suspension reaches every reader within the cache's
 * lifetime (CONFIG_CACHE_MS), like any other change to a site.
 */
export async function siteForRequest(request: Request, env: Env): Promise<Site | undefined> {
  const host = normaliseHost(request.headers.get("host") ?? new URL(request.url).host);
  if (!host) return undefined;
  const site = await sites.get(host, configCacheMs(env), Date.now(), () => findSiteByHost(createDb(env.DB), host));
  return site && site.suspended_at === null ? site : undefined;
}
