import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));

const CorsOrigin = v.strictObject({
  origin: v.pipe(
    v.string(),
    v.maxLength(300),
    v.description('An exact https origin (https://app.example.com[:port]), "*" (any origin, never with tokens), or in local development http://localhost:<port|*>'),
  ),
  tokens: v.optional(v.pipe(v.boolean(), v.description("Whether pages of this origin may send a site API token (Authorization); default false"))),
});

export const PutCorsSettingsBody = v.strictObject({
  origins: v.pipe(v.array(CorsOrigin), v.maxLength(32)),
  expected_revision: v.optional(Revision),
});

export const CorsSettings = v.pipe(
  v.object({
    cors: v.object({ origins: v.array(v.object({ origin: v.string(), tokens: v.boolean() })) }),
    revision: v.pipe(v.number(), v.description("The site settings' revision")),
    local_origins_honoured: v.pipe(v.boolean(), v.description("Whether this deployment honours http://localhost origins (local development only)")),
    replayed: v.optional(v.boolean()),
  }),
  v.title("CorsSettings"),
);

/** Browser access to the public API (docs/cors.md). */
export const corsRoutes: readonly RouteSpec[] = [
  { operationId: "getCorsSettings", method: "get", path: "/settings/cors", summary: "Origins whose browser pages may call the public API", scope: "content:read", response: CorsSettings, errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  {
    operationId: "putCorsSettings",
    destructive: true,
    method: "put",
    path: "/settings/cors",
    summary: "Replace the origins whose browser pages may call the public API (and which may send tokens)",
    scope: "settings:write",
    idempotent: true,
    body: PutCorsSettingsBody,
    response: CorsSettings,
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission", "settings_changed"],
  },
];
