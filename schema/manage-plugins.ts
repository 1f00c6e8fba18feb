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

const BlockKind = v.picklist(["text", "rows", "links", "json"]);

/** An operation the caller may run now (spec 2, "Plugin items"; docs/plugin-operations.md). */
export const OperationItem = v.pipe(
  v.object({
    installation_id: v.string(),
    plugin_id: v.string(),
    plugin_name: v.string(),
    id: v.string(),
    label: v.string(),
    scope: v.picklist(["site", "entry"]),
    destructive: v.boolean(),
    automation: v.boolean(),
    input: v.picklist(["none", "optional", "required"]),
    input_schema: v.record(v.string(), v.unknown()),
    result: v.object({ blocks: v.array(BlockKind) }),
    model_ids: v.array(v.string()),
  }),
  v.title("PluginOperation"),
);

/** A result block (text, rows, links with https URLs, json). */
export const ResultBlock = v.pipe(
  v.variant("type", [
    v.object({ type: v.literal("text"), text: v.string() }),
    v.object({ type: v.literal("rows"), columns: v.array(v.string()), rows: v.array(v.array(v.union([v.string(), v.number(), v.boolean(), v.null()]))) }),
    v.object({ type: v.literal("links"), links: v.array(v.object({ label: v.string(), url: v.string() })) }),
    v.object({ type: v.literal("json"), value: v.unknown() }),
  ]),
  v.title("OperationResultBlock"),
);

/** `{ instance_id?, input? }`: instance_id for an entry operation only; input checked against input_schema. */
export const InvokeBody = v.strictObject({
  instance_id: v.optional(Id),
  input: v.optional(v.record(v.string(), v.unknown())),
});

const invokeErrors = [
  ...listErrors,
  "input_invalid",
  "not_found",
  "operation_unavailable",
  "plugin_unavailable",
  "invocation_in_progress",
  "idempotency_key_reused",
  "plugin_refused",
  "plugin_unreachable",
  "plugin_response_invalid",
  "plugin_timeout",
] as const;

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
  {
    operationId: "listPluginOperations",
    method: "get",
    path: "/plugins/operations",
    summary: "Plugin operations the credential may run now",
    scope: "plugins:use",
    response: v.strictObject({ data: v.array(OperationItem) }),
    errors: listErrors,
  },
  {
    operationId: "invokePluginOperation",
    method: "post",
    path: "/plugins/{id}/operations/{operation}/invoke",
    summary: "Runs a plugin operation as the creator; the plugin gets only a one-time code (5 s timeout)",
    scope: "plugins:use",
    idempotent: true,
    params: v.strictObject({ id: Id, operation: Id }),
    body: InvokeBody,
    response: v.strictObject({ outcome: v.literal("completed"), result: v.object({ blocks: v.array(ResultBlock) }), replayed: v.optional(v.literal(true)) }),
    errors: invokeErrors,
  },
];
