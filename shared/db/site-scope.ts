/**
 * Proof that a query is bound to one site. Repositories take a SiteScope, never a bare id, so a
 * query without a site cannot be written, and `siteScope` refuses an empty or malformed id at run time.
 */
export interface SiteScope {
  readonly siteId: string;
  readonly kind: "site-scope";
}

const SITE_ID = /^site_[A-Za-z0-9_-]{1,64}$/;

export function siteScope(siteId: string): SiteScope {
  if (typeof siteId !== "string" || !SITE_ID.test(siteId)) {
    throw new TypeError("A site scope needs a site id such as site_…");
  }
  return Object.freeze({ siteId, kind: "site-scope" as const });
}

/** Asserts a scope value is a real one (guards against casts and plain objects at run time). */
export function assertScope(scope: SiteScope): string {
  if (!scope || scope.kind !== "site-scope" || !SITE_ID.test(scope.siteId)) {
    throw new TypeError("Repository called without a site scope");
  }
  return scope.siteId;
}
