import * as v from "valibot";
import type { RouteSpec, Surface } from "./contract";
import {
  AcceptInvitationBody,
  CreateInvitationBody,
  CreateManagementCredentialBody,
  CreateSiteTokenBody,
  CreateWebhookBody,
  Empty,
  GrantBody,
  InstanceQuery,
  InvitationTokenBody,
  ManualOrderBody,
  MemberNamesQuery,
  MemberRoleBody,
  PreviewBody,
  SignInBody,
} from "./admin-bodies";
import { PluginManifestSchema } from "./plugin-manifest";
import { ContentReadinessAnswer, ContentReadinessQuery, ReadinessAnswer } from "./manage-generated-backend";
import { LaunchAnswer, PluginListEntry } from "./manage-plugins";
import { MediaAnswer, UploadMediaFields } from "./manage-media";
import { dashboardRoutes } from "./admin-dashboard";
import { accountRoutes } from "./admin-account";
import { siteAdminRoutes } from "./admin-siteadmin";
import { trashAdminRoutes } from "./admin-trash";

/**
 * The admin JSON API on the admin host (docs/admin-api.md) as a route table: the router
 * (workers/admin/router.ts) matches with it and `openapi/admin-v1.json` is generated from it.
 * `access` says what a route needs before its handler runs: nothing (`public`), a live session
 * (`session`), or a session plus an active membership on the X-Site-Id site (`site`).
 */
export interface AdminRouteSpec extends RouteSpec {
  access: "public" | "session" | "site";
}

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const IdPath = v.strictObject({ id: Id });
const SitePath = v.strictObject({ site_id: Id });
/** A JSON object answer whose keys are described in docs/ rather than pinned here. */
const Described = (title: string) => v.pipe(v.looseObject({}), v.title(title));
const list = <S extends v.GenericSchema>(item: S) => v.strictObject({ data: v.array(item) });

/** `superadmin`: the person may run the operators' routes (`/api/ops`) from the admin (docs/operations-api.md). */
const Person = v.strictObject({ id: v.string(), email: v.string(), name: v.string(), superadmin: v.boolean() });
const SessionAnswer = v.pipe(
  v.strictObject({
    person: Person,
    /** `suspended`: the operators suspended the site; the admin shows it read-only (writes are 403 site_suspended). */
    sites: v.array(v.strictObject({ id: v.string(), slug: v.string(), name: v.string(), role: v.string(), suspended: v.boolean() })),
    csrf_token: v.string(),
  }),
  v.title("SessionAnswer"),
);

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

const Installation = Described("InstallationView");
const InstallationWithToken = v.strictObject({ installation: Installation, token: v.string(), event_secret: v.string() });

const sessionErrors = ["unauthorized", "csrf_failed"] as const;
const siteErrors = [...sessionErrors, "invalid_request", "forbidden", "missing_permission"] as const;
const withId = [...siteErrors, "not_found"] as const;

const sessionRoutes: readonly AdminRouteSpec[] = [
  { operationId: "signIn", method: "post", path: "/api/session", access: "public", summary: "Sign in: the session cookie and the session answer", body: SignInBody, response: SessionAnswer, errors: ["invalid_request", "unauthorized"] },
  { operationId: "getSession", method: "get", path: "/api/session", access: "session", summary: "The signed-in person, their sites and the session's CSRF token", response: SessionAnswer, errors: ["unauthorized"] },
  { operationId: "signOut", method: "delete", path: "/api/session", access: "session", summary: "Sign out (204, cookie cleared)", status: 204, response: v.null(), errors: [...sessionErrors] },
  // The admin UI names lease holders and version authors (docs/admin-ui-lifecycle.md).
  { operationId: "listMemberNames", method: "get", path: "/api/member-names", access: "site", summary: "Names of the site's members among up to 100 person ids (others left out)", query: MemberNamesQuery, response: list(v.strictObject({ id: v.string(), name: v.string() })), errors: [...siteErrors] },
  {
    operationId: "getEntryVersion",
    method: "get",
    path: "/api/entries/{id}/versions/{version_id}",
    access: "site",
    summary: "One version of an entry with its values (the versions screen's diff), read like the entry",
    params: v.strictObject({ id: Id, version_id: Id }),
    response: v.strictObject({ id: v.string(), instance_id: v.string(), number: v.number(), slug: v.nullable(v.string()), label: v.nullable(v.string()), created_by: v.nullable(v.string()), restored_from: v.nullable(v.string()), created_at: v.string(), fields: v.record(v.string(), v.unknown()) }),
    errors: [...siteErrors, "not_found"],
  },
  { operationId: "listSiteHosts", method: "get", path: "/api/site-hosts", access: "site", summary: "The site's public hosts (where preview links open)", response: list(v.strictObject({ host: v.string() })), errors: [...siteErrors] },
  // The generated backend's readiness (docs/generated-backend.md): the site in the path must be X-Site-Id's.
  { operationId: "getSiteGenerationReadiness", method: "get", path: "/api/sites/{site_id}/generation-readiness", access: "site", summary: "Every model-level problem that refuses generating the site's backend; needs site:infra", params: SitePath, response: ReadinessAnswer, errors: [...siteErrors, "not_found"] },
  { operationId: "getSiteGenerationReadinessContent", method: "get", path: "/api/sites/{site_id}/generation-readiness/content", access: "site", summary: "Content-level problems that refuse generating the site's backend, in pages of at most 200 published items; needs site:infra", params: SitePath, query: ContentReadinessQuery, response: ContentReadinessAnswer, errors: [...siteErrors, "not_found"] },
];

// People (docs/people.md): members, invitations and the invitee's public inspect/accept.
const RoleRef = v.strictObject({ id: v.string(), slug: v.string(), name: v.string() });
const MemberView = v.pipe(
  v.strictObject({
    person_id: v.string(),
    name: v.string(),
    email: v.string(),
    role: RoleRef,
    state: v.picklist(["active", "deactivated"]),
    account_active: v.boolean(),
    joined_at: v.string(),
  }),
  v.title("MemberView"),
);
const InvitationView = v.pipe(
  v.strictObject({ id: v.string(), email: v.string(), role: RoleRef, invited_by: v.string(), created_at: v.string(), expires_at: v.string() }),
  v.title("InvitationView"),
);
const CreatedInvitation = v.strictObject({ ...InvitationView.entries, link: v.string() });
const InvitationPreview = v.pipe(
  v.strictObject({ site: v.strictObject({ name: v.string() }), email: v.string(), role: v.strictObject({ name: v.string() }), expires_at: v.string(), account_exists: v.boolean() }),
  v.title("InvitationPreview"),
);
const PersonPath = v.strictObject({ person_id: Id });
const memberErrors = [...siteErrors, "not_found", "escalation_refused"] as const;

const peopleRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listPeople", method: "get", path: "/api/people", access: "site", summary: "The site's members (active and deactivated) with their roles; needs role:manage", response: list(MemberView), errors: [...siteErrors] },
  { operationId: "changeMemberRole", method: "put", path: "/api/people/{person_id}/role", access: "site", summary: "Give a member another role, within what you hold", params: PersonPath, body: MemberRoleBody, response: MemberView, errors: [...memberErrors, "unknown_role", "last_administrator"] },
  { operationId: "deactivateMember", method: "post", path: "/api/people/{person_id}/deactivate", access: "site", summary: "Deactivate a membership: the member's sessions and credentials stop on this site at their next request", params: PersonPath, response: MemberView, errors: [...memberErrors, "own_membership", "last_administrator"] },
  { operationId: "reactivateMember", method: "post", path: "/api/people/{person_id}/reactivate", access: "site", summary: "Reactivate a membership", params: PersonPath, response: MemberView, errors: [...memberErrors] },
  {
    operationId: "removeMember",
    method: "delete",
    path: "/api/people/{person_id}",
    access: "site",
    summary: "Remove a membership; the member's management credentials and OAuth connections on the site are revoked",
    params: PersonPath,
    response: v.strictObject({ ...MemberView.entries, removed: v.literal(true) }),
    errors: [...memberErrors, "own_membership", "last_administrator"],
  },
  { operationId: "listInvitations", method: "get", path: "/api/invitations", access: "site", summary: "Pending invitations (not accepted, revoked or expired), never their tokens", response: list(InvitationView), errors: [...siteErrors] },
  {
    operationId: "createInvitation",
    method: "post",
    path: "/api/invitations",
    access: "site",
    summary: "Invite an email with a role; the single-use link (7 days) is shown this once",
    body: CreateInvitationBody,
    status: 201,
    response: CreatedInvitation,
    errors: [...siteErrors, "unknown_role", "escalation_refused", "already_member"],
  },
  { operationId: "revokeInvitation", method: "delete", path: "/api/invitations/{id}", access: "site", summary: "Revoke a pending invitation: its link stops at once", params: IdPath, response: v.strictObject({ ...InvitationView.entries, revoked: v.literal(true) }), errors: [...withId, "escalation_refused"] },
  { operationId: "inspectInvitation", method: "post", path: "/api/invitations/inspect", access: "public", summary: "What an invitation token offers (site, email, role, expiry), without a session", body: InvitationTokenBody, response: InvitationPreview, errors: ["invalid_request", "invitation_not_found"] },
  {
    operationId: "acceptInvitation",
    method: "post",
    path: "/api/invitations/accept",
    access: "public",
    summary: "Accept an invitation (a new account, or an existing one's password) and sign in: the session cookie and the session answer",
    body: AcceptInvitationBody,
    response: SessionAnswer,
    errors: ["invalid_request", "invitation_not_found", "unauthorized", "rate_limited", "already_member", "account_exists"],
  },
];

const secretRoutes: readonly AdminRouteSpec[] = [
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

const contentRoutes: readonly AdminRouteSpec[] = [
  {
    operationId: "createPreview",
    method: "post",
    path: "/api/preview",
    access: "site",
    summary: "A preview capability for an entry's current draft",
    body: PreviewBody,
    response: v.strictObject({ preview: v.string(), expires_at: v.string(), url: v.string() }),
    errors: [...withId, "locale_denied", "invalid_slug"],
  },
  {
    operationId: "getPublicClient",
    method: "get",
    path: "/api/models/public-client.ts",
    access: "site",
    summary: "The generated dependency-free TypeScript client of the site (text/plain)",
    response: v.pipe(v.string(), v.description("TypeScript source")),
    responseType: "text/plain",
    errors: [...siteErrors],
  },
  { operationId: "applyModelProposal", method: "post", path: "/api/models/proposals/{id}/apply", access: "site", summary: "Apply a model proposal as the signed-in person", params: IdPath, response: Described("ModelProposalAnswer"), errors: [...withId, "schema_proposal_stale", "model_change_blocked", "single_entry_conflict", "invalid_unique_combination", "invalid_field_validation", "invalid_field_config", "invalid_field_condition", "unsupported_text_validation", "relation_type_not_authorable", "invalid_field_key"] },
  { operationId: "dismissModelProposal", method: "post", path: "/api/models/proposals/{id}/dismiss", access: "site", summary: "Dismiss a model proposal", params: IdPath, response: Described("ModelProposalAnswer"), errors: [...withId] },
  {
    operationId: "putManualOrder",
    method: "put",
    path: "/api/models/{id}/manual-order",
    access: "site",
    summary: "A model's manual order (order=manual), shared by all languages",
    params: IdPath,
    body: ManualOrderBody,
    response: v.strictObject({ model_id: v.string(), manual_order: v.array(v.string()), cache: v.unknown() }),
    errors: [...withId],
  },
  { operationId: "applyProposal", method: "post", path: "/api/proposals/{id}/apply", access: "site", summary: "Apply an entry field proposal as a normal save", params: IdPath, response: Described("ProposalAnswer"), errors: [...withId, "proposal_stale", "entry_in_trash", "field_validation_failed", "media_not_found", "rich_block_unregistered", "rich_block_version_unknown", "rich_block_values_invalid", "slug_taken", "locked", "lock_lost", "write_conflict"] },
  { operationId: "rejectProposal", method: "post", path: "/api/proposals/{id}/reject", access: "site", summary: "Reject an entry field proposal", params: IdPath, response: Described("ProposalAnswer"), errors: [...withId] },
];

const pluginRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listPlugins", method: "get", path: "/api/plugins", access: "site", summary: "The site's plugin installations", response: list(Installation), errors: [...siteErrors] },
  {
    operationId: "installPlugin",
    method: "post",
    path: "/api/plugins",
    access: "site",
    summary: "Install from a manifest (at most 32768 bytes); token and event secret shown once",
    body: PluginManifestSchema,
    status: 201,
    response: InstallationWithToken,
    errors: [...siteErrors, "manifest_too_large", "plugin_already_installed"],
  },
  { operationId: "getPlugin", method: "get", path: "/api/plugins/{id}", access: "site", summary: "One installation", params: IdPath, response: Installation, errors: [...withId] },
  { operationId: "uninstallPlugin", method: "delete", path: "/api/plugins/{id}", access: "site", summary: "Uninstall", params: IdPath, response: Described("Uninstalled"), errors: [...withId] },
  { operationId: "grantPlugin", method: "put", path: "/api/plugins/{id}/grant", access: "site", summary: "Replace the grant", params: IdPath, body: GrantBody, response: Installation, errors: [...withId, "grant_not_requested"] },
  { operationId: "activatePlugin", method: "post", path: "/api/plugins/{id}/activate", access: "site", summary: "Activate", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "disablePlugin", method: "post", path: "/api/plugins/{id}/disable", access: "site", summary: "Disable", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "revokePlugin", method: "post", path: "/api/plugins/{id}/revoke", access: "site", summary: "Revoke", params: IdPath, response: Installation, errors: [...withId, "installation_state_conflict"] },
  { operationId: "rotatePluginToken", method: "post", path: "/api/plugins/{id}/rotate-token", access: "site", summary: "A new token and event secret, shown once", params: IdPath, response: InstallationWithToken, errors: [...withId, "installation_state_conflict"] },
];

const launchErrors = [...withId, "installation_not_active", "capability_refused"] as const;

const launchRoutes: readonly AdminRouteSpec[] = [
  { operationId: "listLaunchablePlugins", method: "get", path: "/api/plugin-launches/plugins", access: "site", summary: "Plugin list entries for the signed-in person", query: Empty, response: list(PluginListEntry), errors: [...siteErrors] },
  { operationId: "listLaunchManageViews", method: "get", path: "/api/plugin-launches/manage-views", access: "site", summary: "Manage views the person may launch", query: Empty, response: list(Described("PluginManageView")), errors: [...siteErrors] },
  {
    operationId: "listLaunchContentActions",
    method: "get",
    path: "/api/plugin-launches/content-actions",
    access: "site",
    summary: "Content actions the person may launch (instance_id keeps those for that entry)",
    query: InstanceQuery,
    response: list(Described("PluginContentAction")),
    errors: [...siteErrors],
  },
  {
    operationId: "launchManageView",
    method: "post",
    path: "/api/plugin-launches/{id}/manage-views/{view}",
    access: "site",
    summary: "A single-use launch link of a manage view (no body or {})",
    params: v.strictObject({ id: Id, view: Id }),
    query: Empty,
    body: Empty,
    status: 201,
    response: LaunchAnswer,
    errors: [...launchErrors],
  },
  {
    operationId: "launchContentAction",
    method: "post",
    path: "/api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id}",
    access: "site",
    summary: "A single-use launch link of a content action on an entry (no body or {})",
    params: v.strictObject({ id: Id, action: Id, instance_id: Id }),
    query: Empty,
    body: Empty,
    status: 201,
    response: LaunchAnswer,
    errors: [...launchErrors],
  },
];

const mediaRoutes: readonly AdminRouteSpec[] = [
  {
    operationId: "streamMediaUpload",
    method: "post",
    path: "/api/media/uploads",
    access: "site",
    summary: "Upload a large file streamed to storage (raw body; fields as query parameters), at most limits.streamed_max_bytes; 200 with reused: true when on_duplicate is use_existing and the bytes are held",
    idempotent: true,
    query: UploadMediaFields,
    binaryBody: "The file's bytes (Content-Type is the declared type unless `type` is sent); at most limits.streamed_max_bytes (GET /api/media/limits)",
    status: 201,
    response: MediaAnswer,
    errors: [
      ...siteErrors, "payload_too_large", "idempotency_in_progress", "idempotency_key_reused",
      "executable_file", "unsupported_media_type", "unknown_locale", "media_duplicate", "media_edit_source_not_found", "media_folder_not_found",
    ],
  },
  {
    operationId: "getMediaItemFile",
    method: "get",
    path: "/api/media/{id}/file",
    access: "site",
    summary: "The item's current file for the admin UI (thumbnails, details), published or not; never cached",
    params: IdPath,
    response: v.pipe(v.string(), v.description("The file's bytes with its stored Content-Type")),
    responseType: "application/octet-stream",
    errors: [...withId],
  },
  {
    operationId: "getMediaLimits",
    method: "get",
    path: "/api/media/limits",
    access: "site",
    summary: "Media limits an admin client needs: streamed_max_bytes (MEDIA_REQUEST_BODY_LIMIT_BYTES, else 100 MB)",
    response: v.strictObject({ limits: v.strictObject({ streamed_max_bytes: v.number() }) }),
    errors: [...siteErrors],
  },
];

/** The person's effective permissions on a site, for clients that show what a role may do (docs/admin-ui-content.md). */
const EffectivePermissions = v.pipe(
  v.strictObject({
    role: v.strictObject({ id: v.string(), slug: v.string(), name: v.string() }),
    person_id: v.string(),
    permissions: v.looseObject({}),
    models: v.array(v.strictObject({ model_id: v.string(), operations: v.array(v.string()), readable_field_ids: v.array(v.string()), writable_field_ids: v.array(v.string()) })),
    languages: v.record(v.string(), v.array(v.string())),
  }),
  v.title("EffectivePermissions"),
);
const permissionRoutes: readonly AdminRouteSpec[] = [
  { operationId: "getPermissions", method: "get", path: "/api/permissions", access: "site", summary: "The signed-in person's effective permissions on the site: role, permission set, per readable model the operations and readable/writable field ids, per language action the languages", response: EffectivePermissions, errors: [...siteErrors] },
];

export const adminRoutes: readonly AdminRouteSpec[] = [...sessionRoutes, ...peopleRoutes, ...secretRoutes, ...contentRoutes, ...mediaRoutes, ...pluginRoutes, ...launchRoutes, ...permissionRoutes, ...dashboardRoutes, ...accountRoutes(SessionAnswer), ...siteAdminRoutes, ...trashAdminRoutes];

export const adminSurface: Surface & { routes: readonly AdminRouteSpec[] } = {
  title: "Driftwood admin JSON API",
  version: "1",
  description:
    "Admin routes on the admin host, for a signed-in person (dw_session cookie). Writes other than sign-in need X-CSRF-Token; site routes name the site with X-Site-Id.",
  basePath: "",
  security: { name: "session", scheme: { type: "apiKey", in: "cookie", name: "dw_session" } },
  routes: adminRoutes,
};
