import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";
import { AcceptInvitationBody, CreateInvitationBody, InvitationTokenBody, MemberRoleBody } from "./admin-bodies";
import { Id, IdPath, list, SessionAnswer, siteErrors, withId } from "./admin-common";

/**
 * Admin routes of the site's people (docs/people.md): members and their roles, invitations, and the
 * invitee's public inspect and accept. Joined to the admin table in admin-api.ts.
 */

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

export const peopleRoutes: readonly AdminRouteSpec[] = [
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
