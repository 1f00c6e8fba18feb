import * as v from "valibot";
import type { RouteSpec, Surface } from "./contract";
import { Context, ContentItemQuery, ContentListQuery, ContentPage, ContentSummary, LaunchExchange, OUTCOMES, PROTOCOL_BASE, ScheduleCommand, TransitionCommand, type OutcomeCode } from "./plugin-protocol";
import { Schedule } from "./manage-schedules";

/**
 * Plugin protocol v1 as a route table (docs/plugins.md): the router (workers/plugin/router.ts)
 * matches and parses with it, and `openapi/plugin-v1.json` is generated from it.
 */

const outcome = v.strictObject({ code: v.picklist(Object.keys(OUTCOMES) as OutcomeCode[]), message: v.string(), retry: v.boolean() });

/** Every refusal of the protocol: the envelope without data, or with the refusal's details. */
export const PluginRefusal = v.pipe(
  v.strictObject({ outcome, data: v.optional(v.record(v.string(), v.unknown())) }),
  v.title("OutcomeEnvelope"),
  v.description("Every answer of the plugin protocol: { outcome: { code, message, retry }, data? }."),
);

/** A success envelope carrying `data`. */
function answer<S extends v.GenericSchema>(data: S) {
  return v.strictObject({ outcome, data });
}

const instanceParam = v.strictObject({ instance_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)) });
const noQuery = v.strictObject({});

const ContentItem = v.strictObject({
  ...ContentSummary.entries,
  fields: v.record(v.string(), v.unknown()),
  published_at: v.nullable(v.string()),
  updated_at: v.string(),
});

const Exchanged = v.strictObject({
  delegation_id: v.string(),
  expires_at: v.string(),
  person: v.strictObject({ id: v.string(), name: v.string() }),
  launch: v.strictObject({ kind: v.picklist(["manage_view", "content_action", "operation"]), id: v.string(), instance_id: v.nullable(v.string()) }),
  capabilities: v.array(v.string()),
  model_ids: v.array(v.string()),
});

const common = ["invalid_request", "plugin_unauthorized", "rate_limited", "temporary_failure"] as const;

export const pluginRoutes: readonly RouteSpec[] = [
  {
    operationId: "getContext",
    method: "get",
    path: "/context",
    summary: "The installation's context: site, protocol version, granted capabilities and models",
    query: noQuery,
    response: answer(Context),
    errors: [...common],
  },
  {
    operationId: "listContent",
    method: "get",
    path: "/content",
    summary: "A page of content summaries of one granted model",
    scope: "content:read",
    query: ContentListQuery,
    response: answer(ContentPage),
    errors: [...common, "capability_refused"],
  },
  {
    operationId: "getContent",
    method: "get",
    path: "/content/{instance_id}",
    summary: "One entry in the grant: its summary, draft fields and times",
    scope: "content:read",
    params: instanceParam,
    query: ContentItemQuery,
    response: answer(ContentItem),
    errors: [...common, "capability_refused", "content_not_found", "requester_unauthorized"],
  },
  {
    operationId: "transitionContent",
    method: "post",
    path: "/content/{instance_id}/transitions",
    summary: "Publish or unpublish an entry for the person of a delegation (Idempotency-Key optional)",
    scope: "workflow:publish | workflow:unpublish",
    params: instanceParam,
    query: noQuery,
    body: TransitionCommand,
    response: answer(ContentSummary),
    errors: [
      ...common,
      "capability_refused",
      "requester_unauthorized",
      "content_not_found",
      "scheduled_target_stale",
      "workflow_conflict",
      "dependent_content",
      "idempotency_key_reused",
      "transition_unavailable",
      "transition_refused",
    ],
  },
  {
    operationId: "scheduleContent",
    method: "post",
    path: "/content/{instance_id}/schedules",
    summary: "Schedule a publish or unpublish for the person of a delegation; one language alone needs workflow:locale (Idempotency-Key optional)",
    scope: "workflow:publish | workflow:unpublish (+ workflow:locale)",
    params: instanceParam,
    query: noQuery,
    body: ScheduleCommand,
    response: answer(Schedule),
    errors: [...common, "capability_refused", "requester_unauthorized", "content_not_found", "scheduled_target_stale", "idempotency_key_reused", "transition_unavailable", "transition_refused"],
  },
  {
    operationId: "exchangeLaunchCode",
    method: "post",
    path: "/launch/exchange",
    summary: "Exchange a single-use launch code for the launching person's delegation",
    query: noQuery,
    body: LaunchExchange,
    response: answer(Exchanged),
    errors: [...common, "requester_unauthorized"],
  },
];

export const pluginSurface: Surface = {
  title: "Driftwood plugin protocol",
  version: "1",
  description: "What an installed plugin may do on its site. Authorization: Bearer dwp_… (the installation token). Every answer is the outcome envelope.",
  basePath: PROTOCOL_BASE,
  security: { name: "installationToken", scheme: { type: "http", scheme: "bearer", description: "dwp_… installation token" } },
  errorBody: PluginRefusal,
  routes: pluginRoutes,
};
