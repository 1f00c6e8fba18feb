import type { Env } from "../../shared/env";
import { adminSurface } from "../../schema/admin-api";
import { AppError } from "../../shared/errors";
import { parse } from "../../shared/services/validation/parse";
import { malformedPath, methodNotAllowed, pathParamNames, routeTable } from "../http/route-table";
import { normaliseHost } from "../../shared/repositories/site-repository";
import { requireSession, requireSessionOnSite, type SessionCall, type SiteCall } from "./auth";
import { handleSessionManage, isSessionManagePath } from "./manage-bridge";
import { isAdminAppPath, serveAdminApp } from "./static-assets";
import { previewEntry } from "./preview";
import { getPermissions } from "./permissions";
import { getDashboard } from "./dashboard";
import { publicClient } from "./public-client";
import { createCredential, listCredentials, revokeCredential } from "./management-credentials";
import { putManualOrder } from "./manual-order";
import { listMemberNames } from "./member-names";
import { siteHosts } from "./site-hosts";
import { siteGenerationReadiness, siteGenerationReadinessContent } from "./generation-readiness";
import { getEntryVersion } from "./entry-version";
import { mediaFile } from "./media-file";
import { mediaLimits, streamMediaUpload } from "./media-upload";
import { listAppConnections, revokeAppConnection } from "./oauth-connections";
import { applyModelProposal, dismissModelProposal } from "./model-proposals";
import { applyProposal, rejectProposal } from "./proposals";
import { currentSession, signIn, signOut } from "./session";
import * as people from "./people";
import * as account from "./account";
import { createToken, listTokens, revokeToken } from "./site-tokens";
import { createHook, deleteHook, listDead, listHooks, retryDead } from "./webhooks";
import { auditLog, pluginManifest, webhookDeliveries, webhookTest } from "./site-admin";
import { trashList } from "./trash";
import { launchContentAction, launchManageView, listLaunchablePlugins, listLaunchContentActions, listLaunchManageViews } from "./plugin-launches";
import { activatePlugin, disablePlugin, getPlugin, grantPlugin, installPluginRoute, listPlugins, revokePlugin, rotatePluginToken, uninstallPluginRoute } from "./plugins";

/** Handlers by operationId of schema/admin-api.ts, one map per kind of access a route declares. */
const PUBLIC_HANDLERS: Readonly<Record<string, (request: Request, env: Env) => Promise<Response>>> = {
  signIn,
  inspectInvitation: people.inspectInvitation,
  acceptInvitation: people.acceptInvitation,
  inspectPasswordReset: account.inspectPasswordReset,
  completePasswordReset: account.completePasswordReset,
};

const SESSION_HANDLERS: Readonly<Record<string, (call: SessionCall) => Promise<Response>>> = {
  getSession: currentSession,
  signOut,
  listSessions: account.listSessions,
  revokeSession: account.revokeSession,
};

const SITE_HANDLERS: Readonly<Record<string, (call: SiteCall) => Promise<Response>>> = {
  listPeople: people.listPeople,
  changeMemberRole: people.changeMemberRole,
  deactivateMember: people.deactivateMember,
  reactivateMember: people.reactivateMember,
  removeMember: people.removeMember,
  createPasswordReset: account.createPasswordReset,
  listInvitations: people.listInvitations,
  createInvitation: people.createInvitation,
  revokeInvitation: people.revokeInvitation,
  listSiteTokens: listTokens,
  createSiteToken: createToken,
  revokeSiteToken: revokeToken,
  listWebhooks: listHooks,
  createWebhook: createHook,
  deleteWebhook: deleteHook,
  listDeadLetters: listDead,
  retryDeadLetter: retryDead,
  listManagementCredentials: listCredentials,
  createManagementCredential: createCredential,
  revokeManagementCredential: revokeCredential,
  listOAuthConnections: listAppConnections,
  revokeOAuthConnection: revokeAppConnection,
  createPreview: previewEntry,
  getPublicClient: publicClient,
  applyModelProposal,
  dismissModelProposal,
  putManualOrder,
  streamMediaUpload,
  getMediaLimits: mediaLimits,
  getPermissions,
  getDashboard,
  getMediaItemFile: mediaFile,
  applyProposal,
  rejectProposal,
  listMemberNames,
  listSiteHosts: siteHosts,
  getSiteGenerationReadiness: siteGenerationReadiness,
  getSiteGenerationReadinessContent: siteGenerationReadinessContent,
  getEntryVersion,
  listPlugins,
  installPlugin: installPluginRoute,
  getPlugin,
  uninstallPlugin: uninstallPluginRoute,
  grantPlugin,
  activatePlugin,
  disablePlugin,
  revokePlugin,
  rotatePluginToken,
  listLaunchablePlugins,
  listLaunchManageViews,
  listLaunchContentActions,
  launchManageView,
  launchContentAction,
  // Site administration screens (schema/admin-siteadmin.ts).
  listAuditLog: auditLog,
  testWebhook: webhookTest,
  listWebhookDeliveries: webhookDeliveries,
  fetchPluginManifest: pluginManifest,
  // The Trash screen (schema/admin-trash.ts).
  listTrash: trashList,
};

/** Every handler, by the access it is written for (the OpenAPI test checks them against the table). */
export const ADMIN_HANDLERS = { public: PUBLIC_HANDLERS, session: SESSION_HANDLERS, site: SITE_HANDLERS } as const;

// HEAD answers like GET (RFC 9110 §9.3.2), as on the management API (the media file route above all).
const match = routeTable(adminSurface.basePath, adminSurface.routes, { headAsGet: true });

const noRoute = () => new AppError("not_found", "No such admin route.");

/** Whether the request's Host is the admin host (compared lower-case, without port). */
export function isAdminHost(request: Request, env: Env): boolean {
  const host = normaliseHost(request.headers.get("host") ?? new URL(request.url).host);
  return host !== null && host === normaliseHost(env.ADMIN_HOST);
}

/**
 * Answers a request to the admin host (docs/admin-api.md): an unknown path is 404 not_found and a
 * known path with another method 405, both before any session check (the table is public).
 * Otherwise the route's access is checked (session → CSRF → X-Site-Id) before a malformed path
 * parameter is refused (400), so a caller without a session learns nothing from the path.
 */
export async function handleAdmin(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  // The management API under the session, for the admin UI (docs/admin-ui.md, "One API").
  if (isSessionManagePath(pathname)) return handleSessionManage(request, env);
  // Every other page address is the admin UI itself (static assets).
  if (isAdminAppPath(request, pathname)) return serveAdminApp(request, env);
  const matched = await match(request);
  if (matched.kind === "none") throw noRoute();
  if (matched.kind === "method_not_allowed") throw methodNotAllowed(matched.allow);
  const { route } = matched;
  /** Refusals of the path itself come after the route's access checks: a caller without a session learns nothing from them. */
  const checkPath = (): void => {
    if (matched.kind === "malformed") throw malformedPath();
    if (route.params) parse(route.params, matched.params);
  };
  const params = matched.kind === "matched" ? pathParamNames(route.path).map((name) => matched.params[name] ?? "") : [];
  switch (route.access) {
    case "public": {
      const handle = PUBLIC_HANDLERS[route.operationId];
      if (!handle) throw noRoute();
      checkPath();
      return handle(request, env);
    }
    case "session": {
      const handle = SESSION_HANDLERS[route.operationId];
      if (!handle) throw noRoute();
      const call = await requireSession(request, env, params);
      checkPath();
      return handle(call);
    }
    case "site": {
      const handle = SITE_HANDLERS[route.operationId];
      if (!handle) throw noRoute();
      const call = await requireSessionOnSite(request, env, params);
      checkPath();
      return handle(call);
    }
  }
}
