import * as v from "valibot";
import type { RouteSpec } from "./contract";

/**
 * Editing leases through the management API (spec 2: "four routes under /entries/{id}/editing",
 * taking no Idempotency-Key; docs/management-api.md, "Editing leases"). A lease says who is editing
 * an entry language; writes by anyone else meet 423 `locked`, and a writer whose lease was taken
 * over meets 423 `lock_lost` (docs/content-rules.md, "Editing locks"). Taking one needs update or
 * create on the entry's language.
 */

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Token = v.pipe(v.string(), v.minLength(1), v.maxLength(200));

export const LeaseView = v.pipe(
  v.object({ instance_id: v.string(), token: v.string(), holder: v.string(), expires_at: v.string() }),
  v.title("EditingLease"),
);

const errors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited", "not_found", "forbidden", "missing_permission", "not_owner", "locale_denied"] as const;
const params = v.strictObject({ id: Id });

export const editingRoutes: readonly RouteSpec[] = [
  {
    operationId: "startEditing",
    method: "post",
    path: "/entries/{id}/editing",
    summary: "Take the editing lease of an entry language (2 minutes; renew to keep it)",
    scope: "content:write",
    noKey: true,
    params,
    body: v.strictObject({}),
    status: 201,
    response: v.strictObject({ lease: LeaseView }),
    errors: [...errors, "locked", "too_many_leases"],
  },
  {
    operationId: "renewEditing",
    method: "put",
    path: "/entries/{id}/editing",
    summary: "Renew the editing lease with its token",
    scope: "content:write",
    noKey: true,
    params,
    body: v.strictObject({ token: Token }),
    response: v.strictObject({ lease: LeaseView }),
    errors: [...errors, "lock_lost"],
  },
  {
    operationId: "stopEditing",
    method: "delete",
    path: "/entries/{id}/editing",
    summary: "Release the editing lease with its token",
    scope: "content:write",
    noKey: true,
    params,
    body: v.strictObject({ token: Token }),
    response: v.strictObject({ released: v.boolean() }),
    errors: [...errors],
  },
  {
    operationId: "takeOverEditing",
    destructive: true,
    method: "post",
    path: "/entries/{id}/editing/take-over",
    summary: "Take the editing lease from whoever holds it (their next write is lock_lost)",
    scope: "content:write",
    noKey: true,
    params,
    body: v.strictObject({}),
    response: v.strictObject({ lease: LeaseView }),
    errors: [...errors],
  },
];
