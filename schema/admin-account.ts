import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";

/**
 * Admin routes of a person's account (docs/people.md, "Password reset" and "Sessions"): one-time
 * reset links an administrator creates for a member, the public page's inspect and complete, and
 * the signed-in person's own sessions. Declared here, joined to the admin table in admin-api.ts.
 */

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Token = v.pipe(v.string(), v.minLength(1), v.maxLength(200));

/** POST /api/password-resets/inspect */
export const PasswordResetTokenBody = v.strictObject({ token: Token });
/** POST /api/password-resets/complete: the service asks at least 12 characters (400 naming `password`). */
export const CompletePasswordResetBody = v.strictObject({ token: Token, password: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)) });

const CreatedPasswordReset = v.pipe(
  v.strictObject({ person_id: v.string(), email: v.string(), created_at: v.string(), expires_at: v.string(), link: v.string() }),
  v.title("CreatedPasswordReset"),
);
const PasswordResetPreview = v.pipe(v.strictObject({ email: v.string(), name: v.string(), expires_at: v.string() }), v.title("PasswordResetPreview"));
const SessionView = v.pipe(
  v.strictObject({ id: v.string(), user_agent: v.nullable(v.string()), created_at: v.string(), expires_at: v.string(), current: v.boolean() }),
  v.title("SessionView"),
);

const sessionErrors = ["unauthorized", "csrf_failed"] as const;
const siteErrors = [...sessionErrors, "invalid_request", "forbidden", "missing_permission"] as const;

/** The routes; `sessionAnswer` is sign-in's answer, whose shape admin-api.ts owns (completing a reset signs in). */
export const accountRoutes = (sessionAnswer: v.GenericSchema): readonly AdminRouteSpec[] => [
  {
    operationId: "createPasswordReset",
    method: "post",
    path: "/api/people/{person_id}/password-reset",
    access: "site",
    summary: "A one-time password reset link for a member (24 hours; shown this once; no mail is sent); needs role:manage",
    params: v.strictObject({ person_id: Id }),
    status: 201,
    response: CreatedPasswordReset,
    errors: [...siteErrors, "not_found", "escalation_refused", "password_reset_refused", "rate_limited"],
  },
  { operationId: "inspectPasswordReset", method: "post", path: "/api/password-resets/inspect", access: "public", summary: "Whose password a reset token sets, and until when, without a session", body: PasswordResetTokenBody, response: PasswordResetPreview, errors: ["invalid_request", "password_reset_not_found"] },
  {
    operationId: "completePasswordReset",
    method: "post",
    path: "/api/password-resets/complete",
    access: "public",
    summary: "Set a new password with a reset token (once); every session of the person ends, and a new one starts: the session cookie and the session answer",
    body: CompletePasswordResetBody,
    response: sessionAnswer,
    errors: ["invalid_request", "password_reset_not_found"],
  },
  { operationId: "listSessions", method: "get", path: "/api/sessions", access: "session", summary: "The signed-in person's unexpired sessions, newest first (never a secret or digest)", response: v.strictObject({ data: v.array(SessionView) }), errors: ["unauthorized"] },
  { operationId: "revokeSession", method: "delete", path: "/api/sessions/{id}", access: "session", summary: "End one of your sessions (its next request is 401)", params: v.strictObject({ id: Id }), response: v.strictObject({ id: v.string(), revoked: v.literal(true) }), errors: [...sessionErrors, "not_found"] },
];
