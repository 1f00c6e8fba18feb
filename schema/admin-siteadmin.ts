import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";

/**
 * Admin routes the site administration screens need beyond schema/admin-api.ts (issue #30 items
 * 4–6, docs/admin-ui-settings.md): the site's audit log with its filters, and a webhook's test
 * delivery and recent deliveries. Kept in its own table so the main route list stays merge-friendly.
 */

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const IdPath = v.strictObject({ id: Id });
const sessionErrors = ["unauthorized", "csrf_failed"] as const;
const siteErrors = [...sessionErrors, "invalid_request", "forbidden", "missing_permission"] as const;

/** Which door a write came through, read from the audit row's actor and credential (docs/admin-ui-settings.md, "Audit log"). */
export const AUDIT_SURFACES = ["admin", "credential", "oauth_app", "plugin", "system"] as const;

export const AuditLogQuery = v.strictObject({
  person: v.optional(Id),
  credential: v.optional(Id),
  entry: v.optional(Id),
  action: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description("An action (entry.save) or its family with a trailing dot (entry.)"))),
  surface: v.optional(v.picklist(AUDIT_SURFACES)),
  before: v.optional(v.pipe(v.string(), v.maxLength(200), v.description("next_cursor of the previous page"))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]?$|^100$/), v.description("1–100, default 50"))),
});

const AuditRow = v.pipe(
  v.strictObject({
    id: v.string(),
    at: v.string(),
    surface: v.picklist(AUDIT_SURFACES),
    actor_kind: v.string(),
    person_id: v.nullable(v.string()),
    person_name: v.nullable(v.string()),
    credential_id: v.nullable(v.string()),
    action: v.string(),
    target_kind: v.nullable(v.string()),
    target_id: v.nullable(v.string()),
  }),
  v.title("AuditLogRow"),
);

const AuditPage = v.strictObject({ data: v.array(AuditRow), next_cursor: v.nullable(v.string()) });

const TestDelivery = v.pipe(
  v.strictObject({
    webhook_id: v.string(),
    delivery_id: v.string(),
    ok: v.boolean(),
    status: v.nullable(v.number()),
    error: v.nullable(v.string()),
    duration_ms: v.number(),
  }),
  v.title("WebhookTestDelivery"),
);

const Delivery = v.pipe(
  v.strictObject({
    id: v.string(),
    event_id: v.string(),
    event_name: v.nullable(v.string()),
    state: v.picklist(["pending", "delivered", "dead"]),
    attempts: v.number(),
    last_status: v.nullable(v.number()),
    last_error: v.nullable(v.string()),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  v.title("WebhookDelivery"),
);

export const FetchManifestBody = v.strictObject({ url: v.pipe(v.string(), v.minLength(1), v.maxLength(2000)) });

const FetchedManifest = v.pipe(
  v.strictObject({
    manifest: v.pipe(v.looseObject({}), v.title("PluginManifest")),
    installed: v.nullable(
      v.strictObject({
        installation_id: v.string(),
        version: v.string(),
        added_capabilities: v.array(v.string()),
        removed_capabilities: v.array(v.string()),
        granted_capabilities: v.array(v.string()),
      }),
    ),
  }),
  v.title("FetchedPluginManifest"),
);

export const siteAdminRoutes: readonly AdminRouteSpec[] = [
  {
    operationId: "fetchPluginManifest",
    method: "post",
    path: "/api/plugin-manifests/fetch",
    access: "site",
    summary: "Read a plugin's manifest from its address (outbound policy, 5 s, 32768 bytes), checked as an install would; for an installed plugin, the capabilities it adds and drops; writes nothing; needs site:plugins",
    body: FetchManifestBody,
    response: FetchedManifest,
    errors: [...siteErrors, "manifest_too_large", "plugin_unreachable", "plugin_timeout", "plugin_response_invalid"],
  },
  {
    operationId: "listAuditLog",
    method: "get",
    path: "/api/audit-log",
    access: "site",
    summary: "The site's audit log, newest first: who did what, when, through which surface; filter by person, credential, entry, action or surface; needs site:settings",
    query: AuditLogQuery,
    response: AuditPage,
    errors: [...siteErrors],
  },
  {
    operationId: "testWebhook",
    method: "post",
    path: "/api/webhooks/{id}/test",
    access: "site",
    summary: "Send a signed webhook.test delivery to the webhook now and answer how it went (not retried, not queued); needs site:infra",
    params: IdPath,
    response: TestDelivery,
    errors: [...siteErrors, "not_found"],
  },
  {
    operationId: "listWebhookDeliveries",
    method: "get",
    path: "/api/webhooks/{id}/deliveries",
    access: "site",
    summary: "The webhook's 20 most recent deliveries with their state, attempts and last answer; needs site:infra",
    params: IdPath,
    response: v.strictObject({ data: v.array(Delivery) }),
    errors: [...siteErrors, "not_found"],
  },
];
