import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Rule = v.strictObject({
  path_prefix: v.pipe(v.string(), v.regex(/^\/[^\s#?]{0,199}$/, "a path of the website starting with /, without spaces, # or ?")),
  role_ids: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(64))), v.minLength(1), v.maxLength(20)),
});

export const PutAccessRulesBody = v.strictObject({ rules: v.pipe(v.array(Rule), v.maxLength(50)), expected_revision: v.optional(Revision) });

export const AccessRules = v.pipe(
  v.object({
    rules: v.array(v.object({ path_prefix: v.string(), role_ids: v.array(v.string()), roles: v.array(v.object({ id: v.string(), slug: v.string() })) })),
    revision: v.number(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("AccessRules"),
);

/** Access-proxy rules (docs/access-rules.md): member-only paths of the website, by role. */
export const accessRuleRoutes: readonly RouteSpec[] = [
  { operationId: "getAccessRules", method: "get", path: "/settings/access-rules", summary: "The website's member-only path prefixes and the roles let through (for the website's access proxy)", scope: "content:read", response: AccessRules, errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  {
    operationId: "putAccessRules",
    destructive: true,
    method: "put",
    path: "/settings/access-rules",
    summary: "Replace the access-proxy rules; a role a rule names cannot be deleted",
    scope: "settings:write",
    idempotent: true,
    body: PutAccessRulesBody,
    response: AccessRules,
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission", "settings_changed"],
  },
];
