import * as v from "valibot";
import { PolicyResults } from "./policy-results";
import type { RouteSpec } from "./contract";
import { Page } from "./common";
import { dateTimeMillis } from "./dates";
import { PREVIEW_MINUTES } from "./admin-bodies";
import { readableName } from "./text";

/** Releases (docs/releases.md): entry-language changes published together, in one batch. */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const DateTime = v.pipe(v.string(), v.maxLength(40), v.check((s) => dateTimeMillis(s) !== undefined, "An ISO-8601 date-time with Z or an offset, e.g. 2026-12-01T09:00:00Z."));
const State = v.picklist(["open", "published", "stale", "failed"]);
/** Spec-free cap, as Contentful's releases cap theirs: a release is one D1 batch (docs/releases.md). */
const MAX_CHANGES = 50;

const ChangeInput = v.strictObject({
  entry_id: v.pipe(Id, v.description("The entry language (instance id) the change moves.")),
  action: v.picklist(["publish", "unpublish"]),
  version_id: v.optional(v.pipe(Id, v.description("The version you saw (publish: the draft; unpublish: the published one); another now: version_conflict."))),
});
const Changes = v.pipe(v.array(ChangeInput), v.minLength(1), v.maxLength(MAX_CHANGES), v.description(`1 to ${MAX_CHANGES} changes, each entry language once.`));
const Name = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), readableName());
const Description = v.nullable(v.pipe(v.string(), v.maxLength(2000)));

const Change = v.object({ instance_id: v.string(), translation_group_id: v.string(), model_id: v.string(), lang: v.string(), action: v.picklist(["publish", "unpublish"]), version_id: v.pipe(v.string(), v.description("Pinned: the draft it publishes, or the published version it withdraws.")) });
const Problem = v.object({ index: v.number(), instance_id: v.string(), lang: v.string(), action: v.string(), code: v.string(), message: v.string(), details: v.optional(v.record(v.string(), v.unknown())) });

export const Release = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    description: v.nullable(v.string()),
    changes: v.array(Change),
    at: v.pipe(v.nullable(v.string()), v.description("When the site publishes it by itself; null: on demand only.")),
    state: v.pipe(State, v.description("`stale`: at its time a pinned version had moved (`outcome_code: scheduled_target_stale`); `failed`: another refusal (`problems`). Nothing was published in either; any change reopens it.")),
    outcome_code: v.nullable(v.string()),
    outcome_message: v.nullable(v.string()),
    problems: v.array(Problem),
    revision: v.number(),
    created_by: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
    published_at: v.nullable(v.string()),
    replayed: v.optional(v.boolean()),
    policy_results: PolicyResults(
      "On a publish: advisory content policies that could not be asked about a change (the release was published; docs/plugin-policies.md, \"Releases and schedules\").",
    ),
  }),
  v.title("Release"),
);

const common = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;
const writes = [...common, "idempotency_in_progress", "idempotency_key_reused", "not_found", "missing_permission", "locale_denied", "not_owner"] as const;
const pinRefusals = ["transition_unavailable", "entry_in_trash", "version_conflict", "schedule_time_past"] as const;
const ReleasePath = v.strictObject({ id: Id });

export const releaseRoutes: readonly RouteSpec[] = [
  {
    operationId: "createRelease",
    method: "post",
    path: "/releases",
    summary: "Make a release: entry-language changes (publish this draft, unpublish that one) published together, on demand or at a time",
    scope: "lifecycle:publish",
    idempotent: true,
    body: v.strictObject({ name: Name, description: v.optional(Description), at: v.optional(v.nullable(v.pipe(DateTime, v.description("When it publishes by itself; in the future.")))), changes: Changes }),
    status: 201,
    response: Release,
    errors: [...writes, ...pinRefusals],
  },
  {
    operationId: "listReleases",
    method: "get",
    path: "/releases",
    summary: "Releases, newest first (those whose every change the role may read)",
    scope: "content:read",
    query: v.strictObject({ state: v.optional(State), cursor: v.optional(v.pipe(v.string(), v.maxLength(200))), limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]?$|^100$/))) }),
    response: v.strictObject({ data: v.array(Release), page: Page }),
    errors: [...common],
  },
  { operationId: "getRelease", method: "get", path: "/releases/{id}", summary: "One release, with its changes and how a timed firing ended", scope: "content:read", params: ReleasePath, response: Release, errors: [...common, "not_found"] },
  {
    operationId: "updateRelease",
    method: "put",
    path: "/releases/{id}",
    summary: "Rename, re-time, replace the changes or pin the versions of now (a stale or failed release reopens)",
    scope: "lifecycle:publish",
    idempotent: true,
    params: ReleasePath,
    body: v.strictObject({
      expected_revision: Revision,
      name: v.optional(Name),
      description: v.optional(Description),
      at: v.optional(v.nullable(DateTime)),
      changes: v.optional(Changes),
      repin: v.optional(v.pipe(v.boolean(), v.description("Pin each change's version of now (after saving the draft it should publish)."))),
    }),
    response: Release,
    errors: [...writes, ...pinRefusals, "release_published", "workflow_conflict"],
  },
  {
    operationId: "publishRelease",
    destructive: true,
    method: "post",
    path: "/releases/{id}/publish",
    summary: "Publish every change of the release now, all or nothing, in one batch (validated as a whole first)",
    scope: "lifecycle:publish",
    idempotent: true,
    params: ReleasePath,
    body: v.strictObject({ expected_revision: v.optional(Revision) }),
    response: Release,
    // Content policies asked about every change at once (docs/plugin-policies.md, "Releases and schedules"): one refused change refuses the release.
    errors: [...writes, "release_published", "release_refused", "workflow_conflict", "locked", "lock_lost", "write_conflict", "plugin_policy_refused", "plugin_policy_unavailable", "plugin_policy_budget_exhausted"],
  },
  {
    operationId: "previewRelease",
    method: "post",
    path: "/releases/{id}/preview",
    summary: "What publishing the release would do now — every problem, each item as it will be served — and a preview capability for the site's public item route; writes nothing (no Idempotency-Key)",
    scope: "content:read",
    noKey: true,
    readOnly: true,
    params: ReleasePath,
    body: v.strictObject({ minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(PREVIEW_MINUTES.min), v.maxValue(PREVIEW_MINUTES.max))) }),
    response: v.strictObject({
      release_id: v.string(),
      valid: v.boolean(),
      problems: v.array(Problem),
      items: v.array(v.object({ index: v.number(), instance_id: v.string(), lang: v.string(), action: v.string(), model: v.string(), url: v.nullable(v.string()), item: v.unknown() })),
      preview: v.pipe(v.string(), v.description("Pass as `?preview=` on /v1/{model}/{slug} of the site's host: any item as it will be after the release.")),
      expires_at: v.string(),
    }),
    errors: [...common, "not_found", "missing_permission", "locale_denied", "release_published"],
  },
  {
    operationId: "deleteRelease",
    destructive: true,
    method: "delete",
    path: "/releases/{id}",
    summary: "Delete a release that was not published (its entries are untouched)",
    scope: "lifecycle:publish",
    idempotent: true,
    params: ReleasePath,
    response: v.object({ id: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }),
    errors: [...writes, "release_published", "workflow_conflict"],
  },
];
