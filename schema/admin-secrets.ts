import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";
import { CreateManagementCredentialBody, CreateSiteTokenBody, CreateWebhookBody } from "./admin-bodies";
import { IdPath, Described, list, siteErrors, withId } from "./admin-common";

/**
 * Admin routes of a site's secrets and outward connections (docs/admin-api.md): site API tokens,
 * management credentials, OAuth connections, webhooks and their dead letters. A secret is in the
 * answer that creates it only. Joined to the admin table in admin-api.ts.
 */

const TokenView = v.pipe(
  v.strictObject({ id: v.string(), name: v.string(), model_ids: v.array(v.string()), created_by: v.nullable(v.string()), created_at: v.string(), revoked_at: v.nullable(v.string()) }),
  v.title("SiteTokenView"),
);
const CreatedToken = v.strictObject({ id: v.string(), name: v.string(), model_ids: v.array(v.string()), created_at: v.string(), token: v.string() });

const CredentialView = v.pipe(
  v.strictObject({
    id: v.string(),
    name: v.string(),
    scopes: v.array(v.string()),
    model_ids: v.nullable(v.array(v.string())),
    created_by: v.string(),
    created_at: v.string(),
    revoked_at: v.nullable(v.string()),
  }),
  v.title("ManagementCredentialView"),
);
const CreatedCredential = v.strictObject({
  id: v.string(),
  name: v.string(),
  scopes: v.array(v.string()),
  model_ids: v.nullable(v.array(v.string())),
  created_at: v.string(),
  token: v.string(),
});

const ConnectionView = v.pipe(
  v.strictObject({
    id: v.string(),
    client_id: v.string(),
    client_name: v.nullable(v.string()),
    person_id: v.string(),
    scopes: v.array(v.string()),
    created_at: v.string(),
    revoked_at: v.nullable(v.string()),
    revoked_reason: v.nullable(v.picklist(["person", "client", "code_reused", "refresh_reused"])),
    last_refresh_at: v.pipe(v.nullable(v.string()), v.description("When the newest access token was issued (connecting, then each refresh); null once none is left")),
  }),
  v.title("OAuthConnectionView"),
);

const WebhookView = v.pipe(
  v.strictObject({ id: v.string(), url: v.string(), events: v.array(v.string()), created_by: v.nullable(v.string()), created_at: v.string() }),
  v.title("WebhookView"),
);
const CreatedWebhook = v.strictObject({ ...WebhookView.entries, secret: v.string() });
const DeadLetter = v.pipe(
  v.strictObject({
    id: v.string(),
    event_id: v.string(),
    event_name: v.nullable(v.string()),
    webhook_id: v.string(),
    webhook_url: v.nullable(v.string()),
    subscriber_kind: v.picklist(["webhook", "plugin"]),
    attempts: v.number(),
    last_status: v.nullable(v.number()),
    last_error: v.nullable(v.string()),
    created_at: v.string(),
    dead_at: v.string(),
  }),
  v.title("DeadLetterView"),
);

export const secretRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listSiteTokens", method: "get", path: "/api/site-tokens", access: "site", summary: "The site's API tokens, never their secrets", response: list(TokenView), errors: [...siteErrors] },
  { operationId: "createSiteToken", method: "post", path: "/api/site-tokens", access: "site", summary: "A site API token; the secret is shown this once", body: CreateSiteTokenBody, status: 201, response: CreatedToken, errors: [...siteErrors, "unknown_model"] },
  { operationId: "revokeSiteToken", method: "delete", path: "/api/site-tokens/{id}", access: "site", summary: "Revoke a site API token", params: IdPath, response: TokenView, errors: [...withId] },
  { operationId: "listManagementCredentials", method: "get", path: "/api/management-credentials", access: "site", summary: "The site's management credentials, never their secrets", response: list(CredentialView), errors: [...siteErrors] },
  {
    operationId: "createManagementCredential",
    method: "post",
    path: "/api/management-credentials",
    access: "site",
    summary: "A management credential; the secret is shown this once",
    body: CreateManagementCredentialBody,
    status: 201,
    response: CreatedCredential,
    errors: [...siteErrors, "unknown_model", "grant_not_held"],
  },
  { operationId: "revokeManagementCredential", method: "delete", path: "/api/management-credentials/{id}", access: "site", summary: "Revoke a management credential", params: IdPath, response: CredentialView, errors: [...withId] },
  { operationId: "listOAuthConnections", method: "get", path: "/api/oauth-connections", access: "site", summary: "Apps connected to the site through OAuth: your own, or every one with site:settings (never a token)", response: list(ConnectionView), errors: [...siteErrors] },
  { operationId: "revokeOAuthConnection", method: "delete", path: "/api/oauth-connections/{id}", access: "site", summary: "Revoke an OAuth connection (yours, or any with site:settings): its tokens stop working", params: IdPath, response: ConnectionView, errors: [...withId] },
  { operationId: "listWebhooks", method: "get", path: "/api/webhooks", access: "site", summary: "The site's webhooks, never their secrets", response: list(WebhookView), errors: [...siteErrors] },
  { operationId: "createWebhook", method: "post", path: "/api/webhooks", access: "site", summary: "A webhook; the signing secret is shown this once", body: CreateWebhookBody, status: 201, response: CreatedWebhook, errors: [...siteErrors] },
  { operationId: "deleteWebhook", method: "delete", path: "/api/webhooks/{id}", access: "site", summary: "Deactivate a webhook", params: IdPath, response: WebhookView, errors: [...withId] },
  { operationId: "listDeadLetters", method: "get", path: "/api/webhooks/dead-letters", access: "site", summary: "Deliveries that gave up (webhooks and plugins)", response: list(DeadLetter), errors: [...siteErrors] },
  { operationId: "retryDeadLetter", method: "post", path: "/api/webhooks/dead-letters/{id}/retry", access: "site", summary: "Send a dead delivery again (202)", params: IdPath, status: 202, response: Described("RetriedDelivery"), errors: [...withId] },
];
