import { AppError } from "../../shared/errors";
import { createDb } from "../../shared/db/client";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { loadRules } from "../../shared/services/redirects/redirects";
import { resolve } from "../../shared/services/redirects/rules";
import { checkNames } from "./params";
import type { PublicAnswer } from "./respond";

/** GET /v1/_redirects: every rule, for the website's edge (docs/redirects.md); tagged so a rule change purges it. */
export async function publicRedirects(d1: D1Database, site: Site): Promise<PublicAnswer> {
  const rules = await loadRules({ db: createDb(d1), site });
  return {
    body: JSON.stringify({ data: rules.map(({ source, target, status }) => ({ source, target, status })) }),
    tags: [cacheTag.site(site.id), cacheTag.redirects(site.id)],
    cacheable: true,
  };
}

/** The `path` parameter of `/v1/_redirects/resolve` (exactly one, a site path). */
export function resolveParam(url: URL): string {
  checkNames(url, ["path"]);
  const path = url.searchParams.get("path");
  if (path === null || !/^\/[^\s?#]*$/.test(path) || path.length > 512) throw new AppError("invalid_request", "path is a site path starting with / (no query or fragment, at most 512 characters).", { parameter: "path" });
  return path;
}

/** GET /v1/_redirects/resolve?path=: one lookup, following chains to where a visitor lands. */
export async function resolveRedirect(d1: D1Database, site: Site, path: string): Promise<PublicAnswer> {
  const found = resolve(await loadRules({ db: createDb(d1), site }), path);
  return {
    body: JSON.stringify({ data: { path, status: found.status, location: found.location, hops: found.hops.length } }),
    tags: [cacheTag.site(site.id), cacheTag.redirects(site.id)],
    cacheable: true,
  };
}
