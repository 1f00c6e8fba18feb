import { signal } from "@preact/signals";

/**
 * The admin's page address: a signal of the current location, changed by `navigate` (history
 * push) and by the browser's back and forward buttons. Screens read `location.value`.
 */
export const location = signal(currentLocation());

function currentLocation(): { path: string; search: URLSearchParams; hash: string } {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search), hash: window.location.hash };
}

/**
 * A screen holding unsaved work (the entry editor, issue #30 item 7) sets a leave guard: every
 * in-app navigation and the browser's Back ask it first; it answers whether leaving is fine (it asks
 * the person). Reload and closing the tab are the screen's own `beforeunload`.
 */
let leaveGuard: (() => boolean) | null = null;

export function setLeaveGuard(guard: (() => boolean) | null): void {
  leaveGuard = guard;
}

function addressOf(at: { path: string; search: URLSearchParams; hash: string }): string {
  const query = at.search.toString();
  return `${at.path}${query ? `?${query}` : ""}${at.hash}`;
}

window.addEventListener("popstate", () => {
  // Back or Forward already moved the address: when the screen says stay, put its address back.
  if (leaveGuard && !leaveGuard()) {
    history.pushState(null, "", addressOf(location.value));
    return;
  }
  location.value = currentLocation();
});

/**
 * Goes to an admin address (path with optional query); `replace` keeps history clean for
 * redirects. The screen's leave guard is asked first unless `force` (the screen asked already).
 */
export function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): void {
  if (!options.force && !options.replace && leaveGuard && !leaveGuard()) return;
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
  dashboard: (site: string) => `/sites/${encodeURIComponent(site)}/home`,
  versions: (site: string, entry: string, lang?: string) => `/sites/${encodeURIComponent(site)}/entries/${encodeURIComponent(entry)}/versions${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`,
  review: (site: string) => `/sites/${encodeURIComponent(site)}/review`,
  media: (site: string) => `/sites/${encodeURIComponent(site)}/media`,
  people: (site: string) => `/sites/${encodeURIComponent(site)}/people`,
  sourcePublishing: (site: string) => `/sites/${encodeURIComponent(site)}/settings/source`,
  pages: (site: string) => `/sites/${encodeURIComponent(site)}/pages`,
  comments: (site: string) => `/sites/${encodeURIComponent(site)}/comments`,
  // A person's own account (sessions) and the public page of a password reset link (issue #30 item 14).
  account: (site: string) => `/sites/${encodeURIComponent(site)}/account`,
  resetPassword: () => "/reset-password",
  // Site screens (admin/src/site/, docs/admin-ui-site.md): imports, exports, releases, settings.
  siteImport: (site: string, job?: string) => `/sites/${encodeURIComponent(site)}/import${job ? `?job=${encodeURIComponent(job)}` : ""}`,
  siteExport: (site: string, job?: string) => `/sites/${encodeURIComponent(site)}/export${job ? `?job=${encodeURIComponent(job)}` : ""}`,
  siteReleases: (site: string) => `/sites/${encodeURIComponent(site)}/releases`,
  siteCalendar: (site: string) => `/sites/${encodeURIComponent(site)}/calendar`,
  siteRedirects: (site: string) => `/sites/${encodeURIComponent(site)}/settings/redirects`,
  siteMenus: (site: string) => `/sites/${encodeURIComponent(site)}/settings/menus`,
  siteQueries: (site: string) => `/sites/${encodeURIComponent(site)}/settings/queries`,
  siteCors: (site: string) => `/sites/${encodeURIComponent(site)}/settings/cors`,
  siteChrome: (site: string) => `/sites/${encodeURIComponent(site)}/settings/chrome`,
  // Site administration (admin/src/settings/, docs/admin-ui-settings.md).
  settings: (site: string) => `/sites/${encodeURIComponent(site)}/settings`,
  settingsCredentials: (site: string) => `/sites/${encodeURIComponent(site)}/settings/credentials`,
  settingsPlugins: (site: string) => `/sites/${encodeURIComponent(site)}/settings/plugins`,
  settingsWebhooks: (site: string) => `/sites/${encodeURIComponent(site)}/settings/webhooks`,
  settingsAudit: (site: string, query = "") => `/sites/${encodeURIComponent(site)}/settings/audit${query ? `?${query}` : ""}`,
  // Model builder and roles (issue #30 items 1 and 2, docs/admin-ui-models.md).
  models: (site: string) => `/sites/${encodeURIComponent(site)}/settings/models`,
  model: (site: string, model: string) => `/sites/${encodeURIComponent(site)}/settings/models/${encodeURIComponent(model)}`,
  roles: (site: string) => `/sites/${encodeURIComponent(site)}/settings/roles`,
  // The site's Trash across models (issue #27, docs/admin-ui-trash.md).
  trash: (site: string, model?: string) => `/sites/${encodeURIComponent(site)}/trash${model ? `?model=${encodeURIComponent(model)}` : ""}`,
  // Comment settings and member-only paths (issue #30 item 3, docs/admin-ui-lists.md).
  settingsComments: (site: string) => `/sites/${encodeURIComponent(site)}/settings/comments`,
  settingsAccessRules: (site: string) => `/sites/${encodeURIComponent(site)}/settings/access-rules`,
  // The superadmin's screens (admin/src/operators/): every site of the deployment.
  operatorSites: () => "/operators/sites",
  operatorSite: (slug: string) => `/operators/sites/${encodeURIComponent(slug)}`,
};
