import * as v from "valibot";
import { emailAddress } from "./common";
import type { RouteSpec, Surface } from "./contract";
import { CreateModelProposalBody, ModelChange } from "./manage-model-proposals";
import { maxCharacters, readableName } from "./text";

/**
 * Operators' routes on the admin host (docs/operations-api.md; moving a site: docs/scale.md,
 * "Moving a site"): enabled only when the deployment has an `OPS_TOKEN` secret (absent → every path
 * here is 404), authenticated by `Authorization: Bearer <OPS_TOKEN>` (wrong or missing → 401).
 * Their OpenAPI file is openapi/ops-v1.json. Every write but the move takes an `Idempotency-Key`
 * (claims in the control database's `ops_claims`, workers/ops/idempotency.ts).
 */
export const OPS_BASE = "/api/ops";

const SiteId = v.pipe(v.string(), v.regex(/^site_[A-Za-z0-9_-]{1,64}$/));

/** A site's slug: lower-case letters, digits and inner hyphens, 1 to 63 characters. */
export const SITE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A host name as site_hosts keeps it: lower-case labels of letters, digits and inner hyphens, no port, no trailing dot. */
export const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
const Host = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(HOST_NAME, "A host is a DNS name without scheme, port or path."));
const Binding = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** A site named by its id (`site_…`) or its slug. */
export const SiteRefPath = v.strictObject({ id: v.union([SiteId, v.pipe(v.string(), v.regex(SITE_SLUG))], "A site is named by its id (site_…) or its slug (lower-case letters, digits and inner hyphens).") });
export const SiteHostPath = v.strictObject({ id: SiteRefPath.entries.id, host: Host });

/** POST /api/ops/sites: a new site, its hosts, languages and database, with the four seeded roles. */
export const CreateSiteBody = v.strictObject({
  slug: v.pipe(v.string(), v.regex(SITE_SLUG, "A slug is 1 to 63 lower-case letters, digits and inner hyphens.")),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), ...maxCharacters(200), readableName()),
  hosts: v.pipe(v.array(Host), v.minLength(1), v.maxLength(20)),
  languages: v.pipe(v.array(Lang), v.minLength(1), v.maxLength(50)),
  default_lang: Lang,
  database: v.optional(Binding),
});

export const AddHostBody = v.strictObject({ host: Host });
export const InviteAdministratorBody = v.strictObject({ email: v.pipe(v.string(), v.trim(), v.maxLength(254), emailAddress()) });
/** suspend / resume take an empty object (or no body). */
export const EmptyBody = v.strictObject({});

/** A site with the figures an operator needs. */
export const OpsSite = v.strictObject({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  hosts: v.array(v.string()),
  languages: v.array(v.string()),
  default_lang: v.string(),
  database: v.string(),
  suspended: v.boolean(),
  suspended_at: v.nullable(v.string()),
  created_at: v.string(),
  figures: v.strictObject({
    /** Entry languages by state: a workflow state (`draft`, `published`…) or `trashed`. */
    entries: v.record(v.string(), v.number()),
    media: v.strictObject({ files: v.number(), bytes: v.number() }),
    /** Active memberships. */
    members: v.number(),
    /** The newest audit row of the site (content or directory write), or null. */
    last_write_at: v.nullable(v.string()),
  }),
});
export const OpsSiteList = v.strictObject({ data: v.array(OpsSite) });

export const OpsInvitation = v.strictObject({
  id: v.string(),
  email: v.string(),
  role: v.strictObject({ id: v.string(), slug: v.string(), name: v.string() }),
  invited_by: v.string(),
  created_at: v.string(),
  expires_at: v.string(),
  /**
   * `{admin origin}/invite#<token>`: shown once, the token is stored only as its digest. Absent on a
   * replay (`replayed: true`): ask again with a new key for a new link, which replaces this one.
   */
  link: v.optional(v.string()),
  replayed: v.optional(v.literal(true)),
});

/** A copy's new site: as createSite, languages and default language defaulting to the template's. */
export const CopySiteTarget = v.strictObject({
  slug: CreateSiteBody.entries.slug,
  name: CreateSiteBody.entries.name,
  hosts: CreateSiteBody.entries.hosts,
  languages: v.optional(CreateSiteBody.entries.languages),
  default_lang: v.optional(Lang),
  database: v.optional(Binding),
});

/**
 * POST /api/ops/sites/{id}/copy (docs/site-copy.md): the template's models (and, into a new site, its
 * roles and settings), with `media` its media library (R2 objects copied), with `content` its entries
 * and the library. Exactly one of `to` (a new site) and `into` (an existing site). `dry_run` lists
 * what would be copied and what blocks it, and writes nothing.
 */
export const CopySiteBody = v.strictObject({
  to: v.optional(CopySiteTarget),
  into: v.optional(SiteRefPath.entries.id),
  content: v.optional(v.boolean()),
  media: v.optional(v.boolean()),
  dry_run: v.optional(v.boolean()),
});

const Blocker = v.strictObject({ code: v.string(), message: v.string(), details: v.optional(v.record(v.string(), v.unknown())) });
const SiteName = v.strictObject({ id: v.string(), slug: v.string() });
const CopyFigures = v.strictObject({ rows: v.record(v.string(), v.number()), objects: v.number(), bytes: v.number() });

export const CopySiteDryRun = v.strictObject({
  dry_run: v.literal(true),
  template: SiteName,
  /** The existing target (`into`), or the new site's slug with `id: null`. */
  target: v.strictObject({ id: v.nullable(v.string()), slug: v.string() }),
  /** Rows per table, R2 objects and their bytes the copy would write. */
  would_copy: CopyFigures,
  /** Every refusal the copy would meet; empty: it can run. */
  blocked_by: v.array(Blocker),
});

export const CopySiteRun = v.strictObject({
  dry_run: v.literal(false),
  /** `running`: call again with the same Idempotency-Key to go on (202); `done`: the copy is complete (201). */
  state: v.picklist(["running", "done"]),
  template: SiteName,
  site: OpsSite,
  copied: CopyFigures,
  replayed: v.optional(v.literal(true)),
});

export const CopySiteAnswer = v.union([CopySiteRun, CopySiteDryRun]);

/** POST /api/ops/sites/{id}/delete: `confirm` must be the site's slug. */
export const DeleteSiteBody = v.strictObject({ confirm: v.pipe(v.string(), v.maxLength(63)) });

/** A deletion's progress (202) or receipt (200): what was removed. */
export const SiteDeletion = v.strictObject({
  site_id: v.string(),
  slug: v.string(),
  state: v.picklist(["running", "done"]),
  /** Rows removed per table, every database summed (`sites`: the directory row and any anchor). */
  rows: v.record(v.string(), v.number()),
  /** R2 objects removed, and their bytes. */
  objects: v.number(),
  bytes: v.number(),
  started_at: v.string(),
  finished_at: v.nullable(v.string()),
  replayed: v.optional(v.literal(true)),
});

/**
 * POST /api/ops/model-proposals (docs/fleet-models.md): one model definition (fields by key, no ids)
 * proposed to each listed site (at most 100) or to `all`, as that site's model proposal.
 */
export const ProposeModelBody = v.strictObject({
  sites: v.union([v.literal("all"), v.pipe(v.array(SiteRefPath.entries.id), v.minLength(1), v.maxLength(100))]),
  definition: CreateModelProposalBody.entries.definition,
  note: CreateModelProposalBody.entries.note,
});

const FleetError = v.strictObject({ code: v.string(), message: v.string(), details: v.optional(v.record(v.string(), v.unknown())) });
export const FleetProposals = v.strictObject({
  /** Per site, in the order asked: its proposal (id, mode, what would block or break there) or why it refused. */
  data: v.array(
    v.union([
      v.strictObject({ site_id: v.string(), slug: v.string(), proposal_id: v.string(), mode: v.picklist(["create", "update"]), changes: v.array(ModelChange) }),
      v.strictObject({ site_id: v.string(), slug: v.string(), error: FleetError }),
    ]),
  ),
  replayed: v.optional(v.literal(true)),
});

export const FleetReportQuery = v.strictObject({ model: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))) });
export const FleetReport = v.strictObject({
  data: v.array(v.strictObject({ site_id: v.string(), slug: v.string(), open: v.number(), applied: v.number(), dismissed: v.number(), stale: v.number() })),
});

/** GET /api/ops: what this deployment runs. */
export const ServiceInfo = v.strictObject({ name: v.literal("driftwood"), version: v.string() });

/** POST /api/ops/sites/{id}/database: the binding to move the site's content to. */
export const MoveSiteBody = v.strictObject({ binding: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

export const MoveSiteAnswer = v.strictObject({
  site_id: v.string(),
  from: v.string(),
  to: v.string(),
  moved: v.boolean(),
  rows: v.record(v.string(), v.number()),
});

const KEYED = ["invalid_request", "idempotency_in_progress", "idempotency_key_reused"] as const;

export const opsRoutes = [
  {
    operationId: "getServiceInfo",
    method: "get",
    path: "",
    summary: "The deployment's product and version (package.json's semver)",
    response: ServiceInfo,
    errors: ["unauthorized"],
  },
  {
    operationId: "createSite",
    method: "post",
    path: "/sites",
    summary: "Create a site: slug, name, hosts, languages, default language and its database, with the four seeded roles (one batch)",
    idempotent: true,
    body: CreateSiteBody,
    status: 201,
    response: OpsSite,
    errors: ["unauthorized", ...KEYED, "slug_taken", "host_taken", "unknown_database"],
  },
  {
    operationId: "listSites",
    method: "get",
    path: "/sites",
    summary: "Every site with its hosts, languages, database, suspension and figures",
    response: OpsSiteList,
    errors: ["unauthorized"],
  },
  {
    operationId: "getSite",
    method: "get",
    path: "/sites/{id}",
    summary: "One site (by id or slug) with its figures",
    params: SiteRefPath,
    response: OpsSite,
    errors: ["unauthorized", "not_found"],
  },
  {
    operationId: "addSiteHost",
    method: "post",
    path: "/sites/{id}/hosts",
    summary: "Serve the site on one more host",
    idempotent: true,
    params: SiteRefPath,
    body: AddHostBody,
    status: 201,
    response: OpsSite,
    errors: ["unauthorized", "not_found", ...KEYED, "host_taken"],
  },
  {
    operationId: "removeSiteHost",
    method: "delete",
    path: "/sites/{id}/hosts/{host}",
    summary: "Stop serving the site on a host (never its last one)",
    idempotent: true,
    destructive: true,
    params: SiteHostPath,
    response: OpsSite,
    errors: ["unauthorized", "not_found", ...KEYED, "last_host"],
  },
  {
    operationId: "inviteSiteAdministrator",
    method: "post",
    path: "/sites/{id}/invitations",
    summary: "A one-time invitation link giving the site's administrator role (the People invitation flow)",
    idempotent: true,
    params: SiteRefPath,
    body: InviteAdministratorBody,
    status: 201,
    response: OpsInvitation,
    errors: ["unauthorized", "not_found", ...KEYED, "already_member", "site_suspended"],
  },
  {
    operationId: "suspendSite",
    method: "post",
    path: "/sites/{id}/suspend",
    summary: "Suspend a site: public 404, management/MCP 403 site_suspended, plugin protocol 403 capability_refused, admin read-only; nothing deleted",
    idempotent: true,
    repeatable: true,
    destructive: true,
    params: SiteRefPath,
    body: EmptyBody,
    response: OpsSite,
    errors: ["unauthorized", "not_found", ...KEYED],
  },
  {
    operationId: "resumeSite",
    method: "post",
    path: "/sites/{id}/resume",
    summary: "Resume a suspended site",
    idempotent: true,
    repeatable: true,
    params: SiteRefPath,
    body: EmptyBody,
    response: OpsSite,
    errors: ["unauthorized", "not_found", ...KEYED],
  },
  {
    operationId: "copySite",
    method: "post",
    path: "/sites/{id}/copy",
    summary: "Copy a template site's models, roles, settings and optionally its media and content into a new or existing site (dry_run lists what and what blocks it; resumable: call again with the same key while 202)",
    idempotent: true,
    params: SiteRefPath,
    body: CopySiteBody,
    status: 201,
    otherStatuses: [
      { status: 200, description: "a dry run: what would be copied and what blocks it; nothing written" },
      { status: 202, description: "the copy goes on: call again with the same Idempotency-Key" },
    ],
    response: CopySiteAnswer,
    errors: ["unauthorized", "not_found", ...KEYED, "slug_taken", "host_taken", "unknown_database", "model_conflict", "single_entry_taken", "entry_slug_taken", "media_folder_exists"],
  },
  {
    operationId: "deleteSite",
    method: "post",
    path: "/sites/{id}/delete",
    summary: "Delete a suspended site and everything of it (rows in every database, R2 objects, its object's storage); answers the receipt (resumable: call again with the same key while 202)",
    idempotent: true,
    destructive: true,
    params: SiteRefPath,
    body: DeleteSiteBody,
    status: 200,
    otherStatuses: [{ status: 202, description: "the deletion goes on: call again with the same Idempotency-Key" }],
    response: SiteDeletion,
    errors: ["unauthorized", "not_found", ...KEYED, "confirm_mismatch", "site_not_suspended"],
  },
  {
    operationId: "proposeModelToSites",
    method: "post",
    path: "/model-proposals",
    summary: "Propose one model definition (create or update by slug) to a list of sites or all, as a model proposal on each; answers per site the proposal id and its changes",
    idempotent: true,
    body: ProposeModelBody,
    status: 201,
    response: FleetProposals,
    errors: ["unauthorized", "not_found", ...KEYED],
  },
  {
    operationId: "fleetModelProposals",
    method: "get",
    path: "/model-proposals",
    summary: "Per site: the operators' model proposals open, applied, dismissed, and the open ones gone stale (optionally for one model slug)",
    query: FleetReportQuery,
    response: FleetReport,
    errors: ["unauthorized", "invalid_request"],
  },
  {
    operationId: "moveSiteDatabase",
    method: "post",
    path: "/sites/{id}/database",
    summary: "Move a site's content to another site database (copy, verify, flip the map, delete the source)",
    params: SiteRefPath,
    body: MoveSiteBody,
    response: MoveSiteAnswer,
    errors: ["unauthorized", "not_found", "invalid_request", "unknown_database", "temporary_failure"],
  },
] as const satisfies readonly RouteSpec[];

export const opsSurface: Surface = {
  title: "Driftwood operators",
  version: "1",
  description: "Operator routes on the admin host, enabled by the OPS_TOKEN secret (docs/operations-api.md).",
  basePath: OPS_BASE,
  security: { name: "operatorsToken", scheme: { type: "http", scheme: "bearer", description: "the deployment's OPS_TOKEN secret" } },
  bodyErrors: ["payload_too_large"],
  routes: opsRoutes,
};
