import * as v from "valibot";
import { emailAddress } from "./common";
import { PluginCapabilitySchema } from "./plugin-manifest";
import { Scope } from "./scopes";
import { noBidiControls, noControls, wellFormed } from "./text";

/**
 * Closed request bodies and queries of the admin JSON API (docs/admin-api.md). The route table
 * (`admin-api.ts`) documents them and the handlers in workers/admin/ parse with the same objects.
 */

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const ModelIds = v.pipe(v.array(Id), v.minLength(1), v.maxLength(50));

/** POST /api/session */
export const SignInBody = v.strictObject({
  email: v.pipe(v.string(), v.minLength(1), v.maxLength(320)),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
});

/** POST /api/site-tokens */
export const CreateSiteTokenBody = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80)),
  model_ids: ModelIds,
});

/** POST /api/webhooks (names are checked against the known events by the service). */
export const CreateWebhookBody = v.strictObject({
  url: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2048)),
  events: v.pipe(v.array(Id), v.minLength(1), v.maxLength(50)),
});

/** POST /api/management-credentials. `model_ids` absent or null: every model of the site. */
export const CreateManagementCredentialBody = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80)),
  scopes: v.pipe(v.array(Scope), v.maxLength(50)),
  model_ids: v.optional(v.nullable(ModelIds)),
});

/** Preview capability lifetime in minutes. */
export const PREVIEW_MINUTES = { min: 1, max: 60, default: 10 } as const;

/** POST /api/preview */
export const PreviewBody = v.strictObject({
  instance_id: Id,
  minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(PREVIEW_MINUTES.min), v.maxValue(PREVIEW_MINUTES.max))),
});

/** Most items a model's manual order holds. */
export const MAX_MANUAL_ORDER = 1000;

/** PUT /api/models/{id}/manual-order */
export const ManualOrderBody = v.strictObject({
  items: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(64))), v.maxLength(MAX_MANUAL_ORDER)),
});

/** PUT /api/plugins/{id}/grant: replaces the grant. */
export const GrantBody = v.strictObject({
  capabilities: v.pipe(v.array(PluginCapabilitySchema), v.maxLength(50)),
  model_ids: v.pipe(v.array(Id), v.maxLength(100)),
});

/** A route that takes no query parameters, or a launch that takes no body (none, or `{}`). */
export const Empty = v.strictObject({});

/** GET /api/plugin-launches/content-actions */
export const InstanceQuery = v.strictObject({ instance_id: v.optional(Id) });

/** GET /api/member-names: up to 100 person ids, comma-separated. */
export const MemberNamesQuery = v.strictObject({
  ids: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}(?:,[A-Za-z0-9_-]{1,64}){0,99}$/, "ids: 1 to 100 person ids separated by commas")),
});

/** POST /api/invitations (docs/people.md). The email is trimmed and compared lower-case. */
export const CreateInvitationBody = v.strictObject({
  email: v.pipe(v.string(), v.trim(), v.minLength(3), v.maxLength(320), emailAddress()),
  role_id: Id,
});

/** POST /api/invitations/inspect */
export const InvitationTokenBody = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});

/**
 * POST /api/invitations/accept. `name` is needed when the invited email has no account yet; the
 * service then also asks a password of at least 12 characters (docs/people.md).
 */
export const AcceptInvitationBody = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  name: v.optional(v.pipe(v.string(), v.maxLength(1024), wellFormed(), noControls(), noBidiControls())),
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
});

/** PUT /api/people/{person_id}/role */
export const MemberRoleBody = v.strictObject({ role_id: Id });
