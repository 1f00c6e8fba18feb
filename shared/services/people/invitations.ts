import { isoAt } from "../../clock";
import { newSecret, sha256Hex } from "../../crypto/digest";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { peopleRepository, type InvitationRow } from "../../repositories/people-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";
import { assertWithinActor, requirePeopleManage, storedSet, type RoleRef } from "./rules";

/**
 * Invitations to a site (docs/people.md), the inviter's side: create, list pending, revoke. The
 * token (`dwi_` + 43 base64url characters, 32 random bytes) is answered once inside the link
 * `{admin origin}/invite#<token>` and stored only as its SHA-256 digest. No mail is sent: the
 * inviter hands the link on. The invitee's side is `accept.ts`.
 */

/**
 * The inviter of an invitation an operator made (POST /api/ops/sites/{id}/invitations,
 * docs/operations-api.md): not a person, so acceptance does not look for the inviter's membership;
 * the operators' token is the authority, and it may name a site's first administrator.
 */
export const OPERATOR_INVITER = "operators";

/** An invitation lives 7 days from its creation. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The path of the admin page that opens an invitation; the token travels in the fragment, never to a server log. */
export const INVITE_PATH = "/invite";

/** A pending invitation as lists show it: never the token or its digest. */
export interface InvitationView {
  id: string;
  email: string;
  role: RoleRef;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

/** The answer of a creation: the only time the link (and so the token) is shown. */
export interface CreatedInvitation extends InvitationView {
  link: string;
}

function view(row: InvitationRow): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: { id: row.role_id, slug: row.role_slug, name: row.role_name },
    invited_by: row.invited_by,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

/**
 * POST /api/invitations. Checks in order: `role:manage` (403) → the role on this site (422
 * `unknown_role`) → the role within the inviter's permissions (403 `escalation_refused`) → the
 * email not already a member, active or deactivated (409 `already_member`, `state`). A pending
 * invitation of the same email to this site is revoked in the same batch: the newest link is the
 * one that works.
 */
export async function createInvitation(ctx: LifecycleContext, input: { email: string; role_id: string }, adminOrigin: string): Promise<CreatedInvitation> {
  requirePeopleManage(ctx.actor);
  const people = peopleRepository(ctx.db, ctx.scope);
  const role = await people.findRole(input.role_id);
  if (!role) throw new AppError("unknown_role", "No such role on this site.", { role_id: input.role_id });
  assertWithinActor(ctx.actor, storedSet(role.permissions), "The role");
  const email = input.email.trim().toLowerCase();
  const member = await people.findMemberByEmail(email);
  if (member) {
    const state = member.membership_active === 1 ? "active" : "deactivated";
    throw new AppError("already_member", state === "active" ? "This email is already a member of the site." : "This email is a deactivated member of the site; reactivate them instead.", { state });
  }
  const now = ctx.clock.now();
  const at = isoAt(now);
  // A new invitation replaces the email's pending one: like revoking it, only within what the actor holds.
  for (const pending of await people.listPendingInvitations(at)) {
    if (pending.email === email) assertWithinActor(ctx.actor, storedSet(pending.role_permissions), "The pending invitation's role");
  }
  const id = newId("inv");
  const token = newSecret("dwi_");
  const row: InvitationRow = {
    id,
    site_id: ctx.site.id,
    email,
    role_id: role.id,
    digest: await sha256Hex(token),
    invited_by: ctx.actor.id,
    created_at: at,
    expires_at: isoAt(now + INVITATION_TTL_MS),
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
    role_slug: role.slug,
    role_name: role.name,
    role_permissions: role.permissions,
  };
  const { role_slug: _slug, role_name: _name, role_permissions: _permissions, ...stored } = row;
  const answer: CreatedInvitation = { ...view(row), link: `${adminOrigin}${INVITE_PATH}#${token}` };
  await commitPlan(ctx, {
    statements: [
      ctx.db
        .updateTable("invitations")
        .set({ revoked_at: at })
        .where("site_id", "=", ctx.site.id)
        .where("email", "=", email)
        .where("accepted_at", "is", null)
        .where("revoked_at", "is", null)
        .compile(),
      ctx.db.insertInto("invitations").values(stored).compile(),
    ],
    answer,
    events: [],
    purgeTags: [],
    audit: { action: "invitation.create", targetKind: "invitation", targetId: id, details: { email, role_id: role.id } },
  });
  return answer;
}

/** GET /api/invitations: pending invitations (not accepted, revoked or expired), newest first. */
export async function listInvitations(ctx: LifecycleContext): Promise<InvitationView[]> {
  requirePeopleManage(ctx.actor);
  return (await peopleRepository(ctx.db, ctx.scope).listPendingInvitations(isoAt(ctx.clock.now()))).map(view);
}

/**
 * DELETE /api/invitations/{id}: its link stops at once. An invitation of another site, an unknown
 * id and one already accepted are 404 `not_found`; revoking a revoked or expired one answers it
 * without writing.
 */
export async function revokeInvitation(ctx: LifecycleContext, id: string): Promise<InvitationView & { revoked: true }> {
  requirePeopleManage(ctx.actor);
  const row = await peopleRepository(ctx.db, ctx.scope).findInvitation(id);
  if (!row || row.accepted_at !== null) throw new AppError("not_found", "No such invitation, or it was accepted.");
  // As for members: a lesser manager does not cancel the invitation of a wider role.
  assertWithinActor(ctx.actor, storedSet(row.role_permissions), "This invitation's role");
  const answer = { ...view(row), revoked: true as const };
  const now = ctx.clock.now();
  if (row.revoked_at !== null || row.expires_at <= isoAt(now)) return answer;
  await commitPlan(ctx, {
    statements: [ctx.db.updateTable("invitations").set({ revoked_at: isoAt(now) }).where("site_id", "=", ctx.site.id).where("id", "=", id).where("accepted_at", "is", null).compile()],
    answer,
    events: [],
    purgeTags: [],
    audit: { action: "invitation.revoke", targetKind: "invitation", targetId: id, details: { email: row.email } },
  });
  return answer;
}
