import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

const ManageViewRef = v.object({ id: v.string(), label: v.string() });
const ContentActionRef = v.object({ id: v.string(), label: v.string(), model_ids: v.array(v.string()) });
const PolicyRef = v.object({ id: v.string(), label: v.string(), kind: v.literal("content_policy"), mode: v.picklist(["validate", "transform"]) });

/** A plugin list entry (spec 2, "Plugin items"); the last four keys only for an active plugin. */
export const PluginListEntry = v.pipe(
  v.object({
    id: v.string(),
    plugin_id: v.string(),
    name: v.string(),
    version: v.string(),
    state: v.picklist(["active", "disabled"]),
    launchable: v.boolean(),
    manage_views: v.optional(v.array(ManageViewRef)),
    content_actions: v.optional(v.array(ContentActionRef)),
    policies: v.optional(v.array(PolicyRef)),
    mcp_tool: v.optional(v.object({ omitted_because: v.nullable(v.string()) })),
  }),
  v.title("PluginListEntry"),
);

const ManageViewItem = v.pipe(
  v.object({ installation_id: v.string(), plugin_id: v.string(), plugin_name: v.string(), id: v.string(), label: v.string() }),
  v.title("PluginManageView"),
);
const ContentActionItem = v.pipe(
  v.object({ installation_id: v.string(), plugin_id: v.string(), plugin_name: v.string(), id: v.string(), label: v.string(), model_ids: v.array(v.string()) }),
  v.title("PluginContentAction"),
);

/** Spec 2: the launch answer (201). */
export const LaunchAnswer = v.pipe(
  v.object({ outcome: v.literal("launch_created"), url: v.string(), expires_at: v.string(), single_use: v.literal(true) }),
  v.title("LaunchAnswer"),
);

/** A launch takes no body: none, or `{}`. */
export const LaunchBody = v.strictObject({});

const listErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;
const launchErrors = [...listErrors, "not_found", "installation_not_active", "capability_refused", "plugin_unavailable"] as const;

const RichBlock = v.pipe(
  v.object({ name: v.string(), label: v.string(), version: v.number(), fields: v.record(v.string(), v.unknown()) }),
  v.title("RichBlock"),
);

/** Plugin lists and launches (scope `plugins:use`); launches take no Idempotency-Key. */
export const pluginRoutes: readonly RouteSpec[] = [
  {
    operationId: "listRichBlocks",
    method: "get",
    path: "/rich-blocks",
    summary: "Rich-text block definitions of active plugins, named <plugin id>/<name>",
    scope: "content:read",
    response: v.strictObject({ data: v.array(RichBlock) }),
    errors: listErrors,
  },
  {
    operationId: "listPlugins",
    method: "get",
    path: "/plugins",
    summary: "Active and disabled plugins of the site, with what an active one offers",
    scope: "plugins:use",
    response: v.strictObject({ data: v.array(PluginListEntry) }),
    errors: listErrors,
  },
  {
    operationId: "listPluginManageViews",
    method: "get",
    path: "/plugins/manage-views",
    summary: "Manage views of active plugins",
    scope: "plugins:use",
    response: v.strictObject({ data: v.array(ManageViewItem) }),
    errors: listErrors,
  },
  {
    operationId: "listPluginContentActions",
    method: "get",
    path: "/plugins/content-actions",
    summary: "Content actions of active plugins; instance_id keeps those a launch on that entry accepts",
    scope: "plugins:use",
    query: v.strictObject({ instance_id: v.optional(Id) }),
    response: v.strictObject({ data: v.array(ContentActionItem) }),
    errors: [...listErrors, "not_found"],
  },
  {
    operationId: "launchPluginManageView",
    method: "post",
    path: "/plugins/{id}/manage-views/{view}/launch",
    summary: "A one-time link (60 s) opening a plugin's manage view; runs no plugin code",
    scope: "plugins:use",
    noKey: true,
    params: v.strictObject({ id: Id, view: Id }),
    body: LaunchBody,
    status: 201,
    response: LaunchAnswer,
    errors: launchErrors,
  },
  {
    operationId: "launchPluginContentAction",
    method: "post",
    path: "/plugins/{id}/content-actions/{action}/entries/{instance_id}/launch",
    summary: "A one-time link (60 s) running a plugin's content action on an entry; runs no plugin code",
    scope: "plugins:use",
    noKey: true,
    params: v.strictObject({ id: Id, action: Id, instance_id: Id }),
    body: LaunchBody,
    status: 201,
    response: LaunchAnswer,
    errors: launchErrors,
  },
];
