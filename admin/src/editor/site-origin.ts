import { admin } from "../api/client";

let publicOrigin: Promise<string | null> | null = null;

/**
 * Where the site's public API answers (its first host, on this page's protocol and port): the
 * preview link and "View on site" both open there. Asked once per page load; null when the site
 * has no host (or the question failed), so callers fall back to the link as the service gave it.
 */
export function siteOrigin(): Promise<string | null> {
  publicOrigin ??= admin("listSiteHosts")
    .then((answer) => {
      const host = answer.data[0]?.host;
      return host ? `${window.location.protocol}//${host}${window.location.port ? `:${window.location.port}` : ""}` : null;
    })
    .catch(() => null);
  return publicOrigin;
}
