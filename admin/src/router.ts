import { signal } from "@preact/signals";

/**
 * The admin's page address: a signal of the current location, changed by `navigate` (history
 * push) and by the browser's back and forward buttons. Screens read `location.value`.
 */
export const location = signal(currentLocation());

function currentLocation(): { path: string; search: URLSearchParams; hash: string } {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search), hash: window.location.hash };
}

window.addEventListener("popstate", () => {
  location.value = currentLocation();
});

/** Goes to an admin address (path with optional query); `replace` keeps history clean for redirects. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  location.value = currentLocation();
  window.scrollTo(0, 0);
}

/** Matches a pattern like `/sites/:site/entries/:entry` against a path; the named parts or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/").filter(Boolean);
  const have = path.split("/").filter(Boolean);
  if (want.length !== have.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const h = decodeURIComponent(have[i] as string);
    if (w.startsWith(":")) out[w.slice(1)] = h;
    else if (w !== h) return null;
  }
  return out;
}

/** Addresses of the admin's screens, in one place. */
export const paths = {
  signIn: () => "/sign-in",
  home: () => "/",
  content: (site: string) => `/sites/${encodeURIComponent(site)}/content`,
  entries: (site: string, model: string, view?: "trash") => `/sites/${encodeURIComponent(site)}/content/${encodeURIComponent(model)}${view ? `?view=${view}` : ""}`,
  entry: (site: string, entry: string, lang?: string) => `/sites/${encodeURIComponent(site)}/entries/${encodeURIComponent(entry)}${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`,
  versions: (site: string, entry: string, lang?: string) => `/sites/${encodeURIComponent(site)}/entries/${encodeURIComponent(entry)}/versions${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`,
  review: (site: string) => `/sites/${encodeURIComponent(site)}/review`,
  media: (site: string) => `/sites/${encodeURIComponent(site)}/media`,
  people: (site: string) => `/sites/${encodeURIComponent(site)}/people`,
  sourcePublishing: (site: string) => `/sites/${encodeURIComponent(site)}/settings/source`,
  pages: (site: string) => `/sites/${encodeURIComponent(site)}/pages`,
  comments: (site: string) => `/sites/${encodeURIComponent(site)}/comments`,
  // Model builder and roles (issue #30 items 1 and 2, docs/admin-ui-models.md).
  models: (site: string) => `/sites/${encodeURIComponent(site)}/settings/models`,
  model: (site: string, model: string) => `/sites/${encodeURIComponent(site)}/settings/models/${encodeURIComponent(model)}`,
  roles: (site: string) => `/sites/${encodeURIComponent(site)}/settings/roles`,
  // The superadmin's screens (admin/src/operators/): every site of the deployment.
  operatorSites: () => "/operators/sites",
  operatorSite: (slug: string) => `/operators/sites/${encodeURIComponent(slug)}`,
};
