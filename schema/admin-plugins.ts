import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";
import { Empty, GrantBody, InstanceQuery } from "./admin-bodies";
import { Id, IdPath, Described, list, siteErrors, withId } from "./admin-common";
import { PluginManifestSchema } from "./plugin-manifest";
import { LaunchAnswer, PluginListEntry } from "./manage-plugins";

/**
 * Admin routes of plugins (docs/plugins.md): installations and their lifecycle, and the launches of
 * plugin screens (manage views, content actions) for the signed-in person. Joined to the admin table
 * in admin-api.ts.
 */

const Installation = Described("InstallationView");
const InstallationWithToken = v.strictObject({ installation: Installation, token: v.string(), event_secret: v.string() });

export const pluginRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listPlugins", method: "get", path: "/api/plugins", access: "site", summary: "The site's plugin installations", response: list(Installation), errors: [...siteErrors] },
  {
    operationId: "installPlugin",
    method: "post",
    path: "/api/plugins",
    access: "site",
    summary: "Install from a manifest (at most 32768 bytes); token and event secret shown once",
    body: PluginManifestSchema,
    status: 201,
    response: InstallationWithToken,
    errors: [...siteErrors, "manifest_too_large", "plugin_already_installed"],
  },
  { operationId: "getPlugin", method: "get", path: "/api/plugins/{id}", access: "site", summary: "One installation", params: IdPath, response: Installation, errors: [...withId] },
  { operationId: "uninstallPlugin", method: "delete", path: "/api/plugins/{id}", access: "site", summary: "Uninstall", params: IdPath, response: Described("Uninstalled"), errors: [...withId] },
  { operationId: "grantPlugin", method: "put", path: "/api/plugins/{id}/grant", access: "site", summary: "Replace the grant", params: IdPath, body: GrantBody, response: Installation, errors: [...withId, "grant_not_requested"] },
  { operationId: "activatePlugin", method: "post", path: "/api/plugins/{id}/activate", access: "site", summary: "Activate", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "disablePlugin", method: "post", path: "/api/plugins/{id}/disable", access: "site", summary: "Disable", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "revokePlugin", method: "post", path: "/api/plugins/{id}/revoke", access: "site", summary: "Revoke", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "rotatePluginToken", method: "post", path: "/api/plugins/{id}/rotate-token", access: "site", summary: "A new token and event secret, shown once", params: IdPath, response: InstallationWithToken, errors: [...withId, "installation_state_conflict"] },
];

const launchErrors = [...withId, "installation_not_active", "capability_refused"] as const;

export const launchRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listLaunchablePlugins", method: "get", path: "/api/plugin-launches/plugins", access: "site", summary: "Plugin list entries for the signed-in person", query: Empty, response: list(PluginListEntry), errors: [...siteErrors] },
  { operationId: "listLaunchManageViews", method: "get", path: "/api/plugin-launches/manage-views", access: "site", summary: "Manage views the person may launch", query: Empty, response: list(Described("PluginManageView")), errors: [...siteErrors] },
  {
    operationId: "listLaunchContentActions",
    method: "get",
    path: "/api/plugin-launches/content-actions",
    access: "site",
    summary: "Content actions the person may launch (instance_id keeps those for that entry)",
    query: InstanceQuery,
    response: list(Described("PluginContentAction")),
    errors: [...siteErrors],
  },
  {
    operationId: "launchManageView",
    method: "post",
    path: "/api/plugin-launches/{id}/manage-views/{view}",
    access: "site",
    summary: "A single-use launch link of a manage view (no body or {})",
    params: v.strictObject({ id: Id, view: Id }),
    query: Empty,
    body: Empty,
    status: 201,
    response: LaunchAnswer,
    errors: [...launchErrors],
  },
  {
    operationId: "launchContentAction",
    method: "post",
    path: "/api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id}",
    access: "site",
    summary: "A single-use launch link of a content action on an entry (no body or {})",
    params: v.strictObject({ id: Id, action: Id, instance_id: Id }),
    query: Empty,
    body: Empty,
    status: 201,
    response: LaunchAnswer,
    errors: [...launchErrors],
  },
];
