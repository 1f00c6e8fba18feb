import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { readableName } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const RoleSlug = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "1..40 characters: lower-case letters, digits, - and _"));
const RoleName = v.pipe(v.string(), v.minLength(1), v.maxLength(80), readableName());
const Description = v.nullable(v.pipe(v.string(), v.maxLength(500)));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
/** Checked by the service, so every problem is listed in `invalid_permissions` (docs/permissions.md). */
const PermissionsInput = v.pipe(
  v.unknown(),
  v.description("A whole permission set { models: { <model id>: [operations] }, system: [permissions], limits?: { fields?, languages? } }."),
);

const PermissionSetOut = v.object({
  models: v.record(v.string(), v.array(v.string())),
  system: v.array(v.string()),
  limits: v.optional(
    v.object({
      fields: v.optional(v.record(v.string(), v.object({ read: v.optional(v.array(v.string())), write: v.optional(v.array(v.string())) }))),
      languages: v.optional(v.record(v.string(), v.array(v.string()))),
    }),
  ),
});

export const Role = v.pipe(
  v.object({
    id: v.string(),
    slug: v.string(),
    name: v.string(),
    description: v.nullable(v.string()),
    permissions: PermissionSetOut,
    seeded: v.boolean(),
    revision: v.number(),
    holders: v.number(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("Role"),
);

export const CreateRoleBody = v.strictObject({ slug: RoleSlug, name: RoleName, description: v.optional(Description), permissions: PermissionsInput });
export const UpdateRoleBody = v.strictObject({
  slug: v.optional(RoleSlug),
  name: v.optional(RoleName),
  description: v.optional(Description),
  permissions: v.optional(PermissionsInput),
  expected_revision: v.optional(Revision),
});

const RolePath = v.strictObject({ id: Id });
const common = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission"] as const;

/** Role operations of the management API (docs/management-api.md, "Roles"). */
export const roleRoutes: readonly RouteSpec[] = [
  { operationId: "listRoles", method: "get", path: "/roles", summary: "Roles with their whole permission sets and holder counts", scope: "content:read", response: v.strictObject({ data: v.array(Role) }), errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  { operationId: "createRole", method: "post", path: "/roles", summary: "Create a role (only what the credential holds can be handed out)", scope: "roles:write", idempotent: true, body: CreateRoleBody, status: 201, response: Role, errors: [...common, "invalid_permissions", "escalation_refused", "role_slug_taken"] },
  { operationId: "updateRole", destructive: true, method: "put", path: "/roles/{id}", summary: "Change a role within what the caller holds: only named fields; permissions replaces the whole set", scope: "roles:write", idempotent: true, params: RolePath, body: UpdateRoleBody, response: Role, errors: [...common, "not_found", "invalid_permissions", "escalation_refused", "role_slug_taken", "role_changed", "role_seeded", "last_granting_role", "last_administrator"] },
  { operationId: "removeRole", destructive: true, repeatable: true, method: "post", path: "/roles/{id}/remove", summary: "Delete a role nobody holds, within what the caller holds (never a seeded role, the last role granting access or the last administrators' role)", scope: "roles:write", idempotent: true, params: RolePath, body: v.strictObject({}), response: v.object({ id: v.string(), slug: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }), errors: [...common, "not_found", "escalation_refused", "role_seeded", "role_in_use", "last_granting_role", "last_administrator", "role_in_access_rule"] },
];
