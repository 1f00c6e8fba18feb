import * as v from "valibot";
import type { RouteSpec } from "./contract";

/** Redirects, a site setting (docs/redirects.md). */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Status = v.pipe(v.picklist([301, 302, 307, 308, 410, 451]), v.description("301, 302, 307, 308 (with a target), 410 or 451 (without)."));
const Source = v.pipe(v.string(), v.minLength(1), v.maxLength(512), v.description("A site path (`/old`), or a pattern with one `*` matching one or more characters; the most specific pattern wins."));
const Target = v.pipe(v.nullable(v.pipe(v.string(), v.maxLength(1000))), v.description("A site path or an absolute https URL; a pattern's target may repeat its `*`. null for 410 and 451."));

export const Redirect = v.pipe(
  v.object({ id: v.string(), source: v.string(), target: v.nullable(v.string()), status: v.number(), note: v.nullable(v.string()), revision: v.number(), created_by: v.string(), created_at: v.string(), updated_at: v.string(), replayed: v.optional(v.boolean()) }),
  v.title("Redirect"),
);
const RuleBody = { source: Source, target: v.optional(Target), status: Status, note: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500)))) };
const Problem = v.object({ code: v.string(), message: v.string(), rule: v.object({ id: v.string(), source: v.string() }), other: v.optional(v.object({ id: v.string(), source: v.string() })), chain: v.optional(v.array(v.string())), item: v.optional(v.record(v.string(), v.unknown())) });
const Resolution = v.object({
  path: v.string(),
  rule_id: v.optional(v.string()),
  status: v.nullable(v.number()),
  location: v.nullable(v.string()),
  hops: v.array(v.object({ rule_id: v.string(), source: v.string(), status: v.number(), location: v.nullable(v.string()) })),
  chain: v.boolean(),
  cycle: v.boolean(),
});

/** Refusals of a rule write, each naming the rule (and the other rule, the chain or the live item). */
const ruleRefusals = ["redirect_limit", "redirect_source_taken", "redirect_reserved", "redirect_ambiguous", "redirect_cycle", "redirect_address_live"] as const;
const common = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;
const writes = [...common, "idempotency_in_progress", "idempotency_key_reused", "missing_permission"] as const;
const RedirectPath = v.strictObject({ id: Id });

export const redirectRoutes: readonly RouteSpec[] = [
  { operationId: "listRedirects", method: "get", path: "/redirects", summary: "The site's redirect rules (at most 256, 32 patterns), by source", scope: "content:read", response: v.strictObject({ data: v.array(Redirect), limits: v.object({ redirects: v.number(), patterns: v.number() }) }), errors: [...common] },
  { operationId: "createRedirect", method: "post", path: "/redirects", summary: "Add a redirect rule (the whole set is checked: limits, reserved and live addresses, ambiguous patterns, cycles)", scope: "settings:write", idempotent: true, body: v.strictObject(RuleBody), status: 201, response: Redirect, errors: [...writes, ...ruleRefusals] },
  { operationId: "updateRedirect", destructive: true, method: "put", path: "/redirects/{id}", summary: "Change a redirect rule (named keys)", scope: "settings:write", idempotent: true, params: RedirectPath, body: v.strictObject({ source: v.optional(Source), target: v.optional(Target), status: v.optional(Status), note: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500)))), expected_revision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) }), response: Redirect, errors: [...writes, ...ruleRefusals, "not_found", "settings_changed"] },
  { operationId: "deleteRedirect", destructive: true, method: "delete", path: "/redirects/{id}", summary: "Remove a redirect rule", scope: "settings:write", idempotent: true, params: RedirectPath, response: v.object({ id: v.string(), source: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }), errors: [...writes, "not_found"] },
  {
    operationId: "reviewRedirects",
    method: "post",
    path: "/redirects/review",
    summary: "What a set of proposed rules would do — problems (each naming its rule), chains, what each address resolves to; writes nothing (no Idempotency-Key)",
    scope: "content:read",
    noKey: true,
    readOnly: true,
    body: v.strictObject({
      rules: v.pipe(v.array(v.strictObject(RuleBody)), v.maxLength(256)),
      replace: v.optional(v.pipe(v.boolean(), v.description("The rules replace the site's set (default: they join it, replacing rules with the same source)."))),
      paths: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(512))), v.maxLength(100), v.description("More addresses to resolve."))),
    }),
    response: v.strictObject({ valid: v.boolean(), problems: v.array(Problem), resolutions: v.array(Resolution) }),
    errors: [...common],
  },
];
