import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { normaliseHost } from "../../shared/repositories/site-repository";
import { requireSession, requireSite, type SessionCall, type SiteCall } from "./auth";
import { previewEntry } from "./preview";
import { publicClient } from "./public-client";
import { createCredential, listCredentials, revokeCredential } from "./management-credentials";
import { putManualOrder } from "./manual-order";
import { applyModelProposal, dismissModelProposal } from "./model-proposals";
import { applyProposal, rejectProposal } from "./proposals";
import { currentSession, signIn, signOut } from "./session";
import { createToken, listTokens, revokeToken } from "./site-tokens";
import { createHook, deleteHook, listDead, listHooks, retryDead } from "./webhooks";
import { launchContentAction, launchManageView, listLaunchablePlugins, listLaunchContentActions, listLaunchManageViews } from "./plugin-launches";
import { activatePlugin, disablePlugin, getPlugin, grantPlugin, installPluginRoute, listPlugins, revokePlugin, rotatePluginToken, uninstallPluginRoute } from "./plugins";

/**
 * Admin JSON routes on the admin host (`ADMIN_HOST`), authenticated by the session cookie.
 * `public` routes take no session; `session` routes need one; `site` routes also need the
 * X-Site-Id header and an active membership there. Every write (POST/PUT/PATCH/DELETE) other than
 * sign-in needs the session's X-CSRF-Token. See docs/admin-api.md.
 */
type AdminRoute =
  | { method: string; path: RegExp; access: "public"; handle: (request: Request, env: Env) => Promise<Response> }
  | { method: string; path: RegExp; access: "session"; handle: (call: SessionCall) => Promise<Response> }
  | { method: string; path: RegExp; access: "site"; handle: (call: SiteCall) => Promise<Response> };

const ROUTES: readonly AdminRoute[] = [
  { method: "POST", path: /^\/api\/session$/, access: "public", handle: signIn },
  { method: "GET", path: /^\/api\/session$/, access: "session", handle: currentSession },
  { method: "DELETE", path: /^\/api\/session$/, access: "session", handle: signOut },
  { method: "GET", path: /^\/api\/site-tokens$/, access: "site", handle: listTokens },
  { method: "POST", path: /^\/api\/site-tokens$/, access: "site", handle: createToken },
  { method: "DELETE", path: /^\/api\/site-tokens\/([^/]{1,100})$/, access: "site", handle: revokeToken },
  { method: "GET", path: /^\/api\/webhooks$/, access: "site", handle: listHooks },
  { method: "POST", path: /^\/api\/webhooks$/, access: "site", handle: createHook },
  { method: "GET", path: /^\/api\/webhooks\/dead-letters$/, access: "site", handle: listDead },
  { method: "POST", path: /^\/api\/webhooks\/dead-letters\/([^/]{1,100})\/retry$/, access: "site", handle: retryDead },
  { method: "DELETE", path: /^\/api\/webhooks\/([^/]{1,100})$/, access: "site", handle: deleteHook },
  { method: "GET", path: /^\/api\/management-credentials$/, access: "site", handle: listCredentials },
  { method: "POST", path: /^\/api\/management-credentials$/, access: "site", handle: createCredential },
  { method: "DELETE", path: /^\/api\/management-credentials\/([^/]{1,100})$/, access: "site", handle: revokeCredential },
  { method: "POST", path: /^\/api\/preview$/, access: "site", handle: previewEntry },
  { method: "GET", path: /^\/api\/models\/public-client\.ts$/, access: "site", handle: publicClient },
  { method: "POST", path: /^\/api\/models\/proposals\/([^/]{1,100})\/apply$/, access: "site", handle: applyModelProposal },
  { method: "POST", path: /^\/api\/models\/proposals\/([^/]{1,100})\/dismiss$/, access: "site", handle: dismissModelProposal },
  { method: "PUT", path: /^\/api\/models\/([^/]{1,100})\/manual-order$/, access: "site", handle: putManualOrder },
  { method: "POST", path: /^\/api\/proposals\/([^/]{1,100})\/apply$/, access: "site", handle: applyProposal },
  { method: "POST", path: /^\/api\/proposals\/([^/]{1,100})\/reject$/, access: "site", handle: rejectProposal },
  { method: "GET", path: /^\/api\/plugins$/, access: "site", handle: listPlugins },
  { method: "POST", path: /^\/api\/plugins$/, access: "site", handle: installPluginRoute },
  { method: "GET", path: /^\/api\/plugins\/([^/]{1,100})$/, access: "site", handle: getPlugin },
  { method: "DELETE", path: /^\/api\/plugins\/([^/]{1,100})$/, access: "site", handle: uninstallPluginRoute },
  { method: "PUT", path: /^\/api\/plugins\/([^/]{1,100})\/grant$/, access: "site", handle: grantPlugin },
  { method: "POST", path: /^\/api\/plugins\/([^/]{1,100})\/activate$/, access: "site", handle: activatePlugin },
  { method: "POST", path: /^\/api\/plugins\/([^/]{1,100})\/disable$/, access: "site", handle: disablePlugin },
  { method: "POST", path: /^\/api\/plugins\/([^/]{1,100})\/revoke$/, access: "site", handle: revokePlugin },
  { method: "POST", path: /^\/api\/plugins\/([^/]{1,100})\/rotate-token$/, access: "site", handle: rotatePluginToken },
  { method: "GET", path: /^\/api\/plugin-launches\/plugins$/, access: "site", handle: listLaunchablePlugins },
  { method: "GET", path: /^\/api\/plugin-launches\/manage-views$/, access: "site", handle: listLaunchManageViews },
  { method: "GET", path: /^\/api\/plugin-launches\/content-actions$/, access: "site", handle: listLaunchContentActions },
  { method: "POST", path: /^\/api\/plugin-launches\/([^/]{1,100})\/manage-views\/([^/]{1,100})$/, access: "site", handle: launchManageView },
  { method: "POST", path: /^\/api\/plugin-launches\/([^/]{1,100})\/content-actions\/([^/]{1,100})\/entries\/([^/]{1,100})$/, access: "site", handle: launchContentAction },
];

/** Whether the request's Host is the admin host (compared lower-case, without port). */
export function isAdminHost(request: Request, env: Env): boolean {
  const host = normaliseHost(request.headers.get("host") ?? new URL(request.url).host);
  return host !== null && host === normaliseHost(env.ADMIN_HOST);
}

/** Answers a request to the admin host; an unknown path or method is 404 not_found. */
export async function handleAdmin(request: Request, env: Env): Promise<Response> {
  const path = new URL(request.url).pathname;
  for (const route of ROUTES) {
    if (route.method !== request.method) continue;
    const match = route.path.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((p) => p ?? "");
    switch (route.access) {
      case "public":
        return route.handle(request, env);
      case "session":
        return route.handle(await requireSession(request, env, params));
      case "site":
        return route.handle(await requireSite(await requireSession(request, env, params)));
    }
  }
  throw new AppError("not_found", "No such admin route.");
}
