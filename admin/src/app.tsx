import { useEffect } from "preact/hooks";
import { Layout } from "./shell/layout";
import { SignIn } from "./shell/sign-in";
import { NoAccess, SitePicker } from "./shell/site-picker";
import { Loading, Notice, PageHeader } from "./ui/controls";
import { lazyScreen } from "./ui/lazy";
import { location, matchPath, navigate, paths } from "./router";
import { chooseSite, currentSiteId, session } from "./state/session";
import type { OperatorScreenProps, ScreenProps } from "./screens/types";

/**
 * The admin's screens by address (docs/admin-ui.md). Site screens live under `/sites/:site/…` and
 * load on first use; the shell (sign-in, site switcher, no-access) is in the initial bundle.
 */
const SITE_SCREENS: readonly { pattern: string; screen: ReturnType<typeof lazyScreen<ScreenProps>> }[] = [
  { pattern: "/sites/:site/content", screen: lazyScreen(() => import("./screens/content-home")) },
  { pattern: "/sites/:site/content/:model", screen: lazyScreen(() => import("./screens/entry-list")) },
  { pattern: "/sites/:site/entries/:entry", screen: lazyScreen(() => import("./screens/entry-editor")) },
  { pattern: "/sites/:site/entries/:entry/versions", screen: lazyScreen(() => import("./screens/versions")) },
  { pattern: "/sites/:site/review", screen: lazyScreen(() => import("./screens/review")) },
  { pattern: "/sites/:site/media", screen: lazyScreen(() => import("./screens/media-library")) },
  { pattern: "/sites/:site/people", screen: lazyScreen(() => import("./screens/people")) },
  { pattern: "/sites/:site/settings/source", screen: lazyScreen(() => import("./screens/source-publishing")) },
  { pattern: "/sites/:site/pages", screen: lazyScreen(() => import("./screens/pages")) },
  { pattern: "/sites/:site/comments", screen: lazyScreen(() => import("./screens/comments")) },
  // Issue #30 items 7–12 (the editor's day): the home dashboard.
  { pattern: "/sites/:site/home", screen: lazyScreen(() => import("./screens/dashboard")) },
  // Issue #30 item 14: the person's own sessions.
  { pattern: "/sites/:site/account", screen: lazyScreen(() => import("./screens/account")) },
  // Site screens (admin/src/site/, docs/admin-ui-site.md).
  { pattern: "/sites/:site/import", screen: lazyScreen(() => import("./site/import-screen")) },
  { pattern: "/sites/:site/export", screen: lazyScreen(() => import("./site/export-screen")) },
  { pattern: "/sites/:site/releases", screen: lazyScreen(() => import("./site/releases-screen")) },
  { pattern: "/sites/:site/calendar", screen: lazyScreen(() => import("./site/calendar-screen")) },
  { pattern: "/sites/:site/settings/redirects", screen: lazyScreen(() => import("./site/redirects-screen")) },
  { pattern: "/sites/:site/settings/menus", screen: lazyScreen(() => import("./site/menus-screen")) },
  { pattern: "/sites/:site/settings/queries", screen: lazyScreen(() => import("./site/queries-screen")) },
  { pattern: "/sites/:site/settings/cors", screen: lazyScreen(() => import("./site/cors-screen")) },
  { pattern: "/sites/:site/settings/chrome", screen: lazyScreen(() => import("./site/chrome-screen")) },
  // Site administration (admin/src/settings/, docs/admin-ui-settings.md).
  { pattern: "/sites/:site/settings", screen: lazyScreen(() => import("./settings/general-screen")) },
  { pattern: "/sites/:site/settings/credentials", screen: lazyScreen(() => import("./settings/credentials-screen")) },
  { pattern: "/sites/:site/settings/plugins", screen: lazyScreen(() => import("./settings/plugins-screen")) },
  { pattern: "/sites/:site/settings/webhooks", screen: lazyScreen(() => import("./settings/webhooks-screen")) },
  { pattern: "/sites/:site/settings/audit", screen: lazyScreen(() => import("./settings/audit-screen")) },
  // Model builder and roles (issue #30 items 1 and 2, docs/admin-ui-models.md).
  { pattern: "/sites/:site/settings/models", screen: lazyScreen(() => import("./models/models-screen")) },
  { pattern: "/sites/:site/settings/models/:model", screen: lazyScreen(() => import("./models/model-builder")) },
  { pattern: "/sites/:site/settings/roles", screen: lazyScreen(() => import("./roles/roles-screen")) },
  // The site's Trash across models (issue #27, docs/admin-ui-trash.md).
  { pattern: "/sites/:site/trash", screen: lazyScreen(() => import("./screens/trash")) },
  // Comment settings and member-only paths (issue #30 item 3, docs/admin-ui-lists.md).
  { pattern: "/sites/:site/settings/comments", screen: lazyScreen(() => import("./settings/comments-settings-screen")) },
  { pattern: "/sites/:site/settings/access-rules", screen: lazyScreen(() => import("./settings/access-rules-screen")) },
];

const AcceptInvitation = lazyScreen<object>(() => import("./screens/accept-invitation"));
const ResetPassword = lazyScreen<object>(() => import("./screens/reset-password"));

/** The superadmin's screens (issue #23 item 5): shown only to a person flagged superadmin. */
const OPERATOR_SCREENS: readonly { pattern: string; screen: ReturnType<typeof lazyScreen<OperatorScreenProps>> }[] = [
  { pattern: "/operators/sites", screen: lazyScreen(() => import("./operators/sites-screen")) },
  { pattern: "/operators/sites/:site", screen: lazyScreen(() => import("./operators/site-screen")) },
];

export function App() {
  const { path, search } = location.value;
  const who = session.value;

  // A site screen's site becomes the API's X-Site-Id before the screen asks for anything.
  const siteMatch = SITE_SCREENS.map((s) => ({ s, params: matchPath(s.pattern, path) })).find((m) => m.params);
  const siteId = siteMatch?.params?.site ?? (matchPath("/sites/:site", path)?.site || null);
  const member = siteId !== null && Boolean(who?.sites.some((s) => s.id === siteId));
  if (currentSiteId.value !== (member ? siteId : null)) chooseSite(member ? siteId : null);

  useEffect(() => {
    if (who === null && path !== paths.signIn() && path !== "/invite" && path !== paths.resetPassword()) {
      navigate(`${paths.signIn()}?next=${encodeURIComponent(path + window.location.search)}`, { replace: true });
    }
    if (siteId && !siteMatch && member) navigate(paths.content(siteId), { replace: true });
  }, [who, path]);

  useEffect(() => {
    const h1 = document.querySelector("main h1");
    document.title = h1?.textContent ? `${h1.textContent} · Driftwood` : "Driftwood admin";
  });

  if (path === "/invite") return <AcceptInvitation />;
  if (path === paths.resetPassword()) return <ResetPassword />;
  if (who === undefined) return <Loading />;
  if (path === paths.signIn()) return <SignIn />;
  if (who === null) return <Loading label="Signing in…" />;
  if (path === "/" || path === "") {
    return (
      <Layout>
        <SitePicker />
      </Layout>
    );
  }
  const operatorMatch = OPERATOR_SCREENS.map((s) => ({ s, params: matchPath(s.pattern, path) })).find((m) => m.params);
  if (operatorMatch?.params) {
    const Screen = operatorMatch.s.screen;
    return (
      <Layout>
        {who.person.superadmin ? (
          <Screen key={path} params={operatorMatch.params} search={search} />
        ) : (
          <NoAccess reason="These pages are for the people who run this deployment (superadmins)." />
        )}
      </Layout>
    );
  }
  if (siteId !== null && !member) {
    return (
      <Layout>
        <NoAccess />
      </Layout>
    );
  }
  if (siteMatch?.params && siteId) {
    const Screen = siteMatch.s.screen;
    return (
      <Layout>
        <Screen key={path} site={siteId} params={siteMatch.params} search={search} />
      </Layout>
    );
  }
  return (
    <Layout>
      <PageHeader title="Page not found" />
      <Notice kind="warning" title="There is no admin page at this address." />
    </Layout>
  );
}
