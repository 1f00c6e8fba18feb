import * as v from "valibot";

/**
 * Plugin protocol v1 (spec 1, "Plugin protocol resources"; docs/plugins.md): the shapes a plugin
 * sends and receives under /api/plugin/v1. Every object is closed.
 */

export const PROTOCOL_VERSIONS = [1] as const;
export const PROTOCOL_BASE = "/api/plugin/v1";

/** Spec Limits: plugin request size. */
export const MAX_PLUGIN_REQUEST_BYTES = 16384;
/** Spec Limits: plugin page size. */
export const PLUGIN_PAGE = { max: 50, default: 20 } as const;
/** Spec Limits: plugin rate limit, keyed by installation. */
export const PLUGIN_RATE_LIMIT = { requests: 120, windowMs: 60_000 } as const;

/**
 * The requests per installation per window: the spec's 120, unless `PLUGIN_RATE_LIMIT` (a positive
 * whole number) says otherwise — set by the workerd tests only, so the limit's test crosses a
 * smaller window with fewer requests, as `MANAGE_RATE_LIMIT` does (docs/testing.md).
 */
export function pluginRateLimit(env: { PLUGIN_RATE_LIMIT?: string }): number {
  const n = Number(env.PLUGIN_RATE_LIMIT ?? PLUGIN_RATE_LIMIT.requests);
  return Number.isSafeInteger(n) && n > 0 ? n : PLUGIN_RATE_LIMIT.requests;
}

/** The protocol's outcome codes (spec Errors) with their HTTP status and retry flag; `ok` answers reads. */
export const OUTCOMES = {
  ok: { status: 200, retry: false },
  transition_applied: { status: 200, retry: false },
  idempotent_replay: { status: 200, retry: false },
  invalid_request: { status: 400, retry: false },
  plugin_unauthorized: { status: 401, retry: false },
  capability_refused: { status: 403, retry: false },
  requester_unauthorized: { status: 403, retry: false },
  // The site is suspended by the operators (docs/operations-api.md): nothing answers until it is resumed.
  site_suspended: { status: 403, retry: false },
  content_not_found: { status: 404, retry: false },
  scheduled_target_stale: { status: 409, retry: false },
  workflow_conflict: { status: 409, retry: false },
  dependent_content: { status: 409, retry: false },
  idempotency_key_reused: { status: 409, retry: false },
  transition_unavailable: { status: 422, retry: false },
  transition_refused: { status: 422, retry: false },
  rate_limited: { status: 429, retry: true },
  temporary_failure: { status: 503, retry: true },
} as const satisfies Record<string, { status: number; retry: boolean }>;

export type OutcomeCode = keyof typeof OUTCOMES;

const MAX_SAFE = 9007199254740991;
const revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_SAFE));
const id64 = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

export const OutcomeEnvelope = v.object({
  outcome: v.strictObject({ code: v.picklist(Object.keys(OUTCOMES) as OutcomeCode[]), message: v.string(), retry: v.boolean() }),
  data: v.optional(v.unknown()),
});

export const Context = v.strictObject({
  installation_id: v.string(),
  site: v.strictObject({ id: v.string(), name: v.string(), default_lang: v.string() }),
  protocol_version: v.pipe(v.number(), v.integer()),
  capabilities: v.array(v.string()),
  model_ids: v.array(v.string()),
});
export type Context = v.InferOutput<typeof Context>;

export const Workflow = v.strictObject({
  state: v.string(),
  revision,
  transitions: v.array(v.strictObject({ to: v.string(), kind: v.picklist(["publish", "unpublish"]) })),
});

export const ContentSummary = v.strictObject({
  instance_id: v.string(),
  primary_instance_id: v.string(),
  translation_group_id: v.nullable(v.string()),
  model_id: v.string(),
  model_slug: v.string(),
  lang: v.string(),
  label: v.nullable(v.string()),
  slug: v.nullable(v.string()),
  current_version_id: v.nullable(v.string()),
  published_version_id: v.nullable(v.string()),
  workflow: v.optional(Workflow),
});
export type ContentSummary = v.InferOutput<typeof ContentSummary>;

export const ContentPage = v.strictObject({
  data: v.array(ContentSummary),
  page: v.strictObject({ limit: v.number(), has_more: v.boolean(), next_cursor: v.nullable(v.string()) }),
});

export const PublishCommand = v.strictObject({
  kind: v.literal("publish"),
  expected_current_version_id: id64,
  expected_workflow_revision: revision,
  delegation_id: id64,
});

export const UnpublishCommand = v.strictObject({
  kind: v.literal("unpublish"),
  expected_published_version_id: id64,
  expected_workflow_revision: revision,
  delegation_id: id64,
});

/**
 * A scheduled publish or unpublish (docs/scheduled-publishing.md, "Plugins"): `workflow:publish` or
 * `workflow:unpublish` as for a transition; one language alone (`language_only`) also needs
 * `workflow:locale` (spec 2 rule 11).
 */
export const ScheduleCommand = v.strictObject({
  kind: v.picklist(["publish", "unpublish"]),
  at: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  language_only: v.optional(v.boolean()),
  expected_version_id: v.optional(id64),
  delegation_id: id64,
});
export type ScheduleCommand = v.InferOutput<typeof ScheduleCommand>;

/** A transition command is exactly one of the two. */
export const TransitionCommand = v.variant("kind", [PublishCommand, UnpublishCommand]);
export type TransitionCommand = v.InferOutput<typeof TransitionCommand>;

export const ContentListQuery = v.strictObject({
  model_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  published: v.optional(v.picklist(["true", "false"])),
  after: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, "limit is 1 to 3 digits"),
      v.check((text) => Number(text) >= 1 && Number(text) <= PLUGIN_PAGE.max, `limit is 1..${PLUGIN_PAGE.max}`),
    ),
  ),
});

export const ContentItemQuery = v.strictObject({ delegation_id: v.optional(id64) });

export const LaunchExchange = v.strictObject({ code: v.pipe(v.string(), v.regex(/^dwl_[A-Za-z0-9_-]{43}$/, "expected a dwl_ launch code")) });
