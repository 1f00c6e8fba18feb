import { createDb } from "../shared/db/client";
import { configCacheMs, TtlCache } from "../shared/public/config-cache";
import { findSiteByHost, normaliseHost, type Site } from "../shared/repositories/site-repository";
import type { Env } from "../shared/env";

const sites = new TtlCache<Site | undefined>("sites by host");

/** The site that owns the request's Host, or undefined. The Host header is the only input. */
export async function siteForRequest(request: Request, env: Env): Promise<Site | undefined> {
  const host = normaliseHost(request.headers.get("host") ?? new URL(request.url).host);
  if (!host) return undefined;
  return sites.get(host, configCacheMs(env), Date.now(), () => findSiteByHost(createDb(env.DB), host));
}
