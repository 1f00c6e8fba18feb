import * as v from "valibot";
import type { RouteSpec, Surface } from "./contract";
import { ManualOrderBody, MemberNamesQuery, PreviewBody, SignInBody } from "./admin-bodies";
import { Id, IdPath, SitePath, Described, list, SessionAnswer, sessionErrors, siteErrors, withId } from "./admin-common";
import { ContentReadinessAnswer, ContentReadinessQuery, ReadinessAnswer } from "./manage-generated-backend";
import { MediaAnswer, UploadMediaFields } from "./manage-media";
import { peopleRoutes } from "./admin-people";
import { policyErrors } from "./manage-entries";
import { secretRoutes } from "./admin-secrets";
import { launchRoutes, pluginRoutes } from "./admin-plugins";
import { dashboardRoutes } from "./admin-dashboard";
import { accountRoutes } from "./admin-account";
import { siteAdminRoutes } from "./admin-siteadmin";
import { trashAdminRoutes } from "./admin-trash";

/**
 * The admin JSON API on the admin host (docs/admin-api.md) as a route table: the router
 * (workers/admin/router.ts) matches with it and `openapi/admin-v1.json` is generated from it.
 * `access` says what a route needs before its handler runs: nothing (`public`), a live session
 * (`session`), or a session plus an active membership on the X-Site-Id site (`site`). Areas keep
 * their routes in schema/admin-<area>.ts (shared pieces in admin-common.ts), one spread each in
 * `adminRoutes` below.
 */
export interface AdminRouteSpec extends RouteSpec {
  access: "public" | "session" | "site";
}

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
  { operationId: "applyProposal", method: "post", path: "/api/proposals/{id}/apply", access: "site", summary: "Apply an entry field proposal as a normal save", params: IdPath, response: Described("ProposalAnswer"), errors: [...withId, "proposal_stale", "entry_in_trash", "field_validation_failed", "media_not_found", "rich_block_unregistered", "rich_block_version_unknown", "rich_block_values_invalid", "slug_taken", "locked", "lock_lost", "write_conflict", ...policyErrors] },
  { operationId: "rejectProposal", method: "post", path: "/api/proposals/{id}/reject", access: "site", summary: "Reject an entry field proposal", params: IdPath, response: Described("ProposalAnswer"), errors: [...withId] },
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
