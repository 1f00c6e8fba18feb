import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { peopleRepository, type MemberRow } from "../../repositories/people-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";
import { assertWithinActor, lastAdministrator, memberView, requirePeopleManage, storedSet, type MemberView } from "./rules";

/**
 * Members of a site (docs/people.md): list, change role, deactivate, reactivate, remove. Each
 * write checks in order: `role:manage` (403) → the member on this site (404 `not_found`, the same
 * for a person of another site) → not oneself for deactivate and remove (409 `own_membership`) →
 * the member's current role within the actor's (403 `escalation_refused`) → for a role change, the
 * new role (422 `unknown_role`, 403 `escalation_refused`). It then commits one batch with its audit
 * row and a guard that the site keeps an administrator (409 `last_administrator`), read after the
 * change inside the batch, so racing demotions cannot leave the site without one.
 */

function repo(ctx: LifecycleContext) {
  return peopleRepository(ctx.db, ctx.scope);
}

/** GET /api/people: every membership of the site, active and deactivated. */
export async function listMembers(ctx: LifecycleContext): Promise<MemberView[]> {
  requirePeopleManage(ctx.actor);
  return (await repo(ctx).listMembers()).map(memberView);
}

/** The member a write acts on: found on this site and within the actor's permissions. */
async function actOn(ctx: LifecycleContext, personId: string, options: { notSelf: boolean }): Promise<MemberRow> {
  requirePeopleManage(ctx.actor);
  const member = await repo(ctx).findMember(personId);
  if (!member) throw new AppError("not_found", "No such member of this site.");
  if (options.notSelf && member.person_id === ctx.actor.id) {
    throw new AppError("own_membership", "You cannot deactivate or remove your own membership; ask another administrator.");
  }
  assertWithinActor(ctx.actor, storedSet(member.role_permissions), "This member's role");
  return member;
}

/** Commits a membership change with the administrator guard; the guard's refusal gets its message here. */
async function commitChange(ctx: LifecycleContext, statements: CompiledQuery[], answer: MemberView, audit: { action: string; targetId: string; details: Record<string, unknown> }): Promise<MemberView> {
  try {
    await commitPlan(ctx, {
      statements: [...statements, repo(ctx).administratorRemains()],
      answer,
      events: [],
      purgeTags: [],
      audit: { action: audit.action, targetKind: "membership", targetId: audit.targetId, details: audit.details },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "last_administrator") {
      throw lastAdministrator();
    }
    throw error;
  }
  return answer;
}

function setMembership(ctx: LifecycleContext, personId: string, values: { role_id?: string; active?: number }): CompiledQuery {
  return ctx.db.updateTable("memberships").set(values).where("site_id", "=", ctx.site.id).where("person_id", "=", personId).compile();
}

/** PUT /api/people/{person_id}/role: the same role again answers unchanged without writing. */
export async function changeMemberRole(ctx: LifecycleContext, personId: string, roleId: string): Promise<MemberView> {
  const member = await actOn(ctx, personId, { notSelf: false });
  const role = await repo(ctx).findRole(roleId);
  if (!role) throw new AppError("unknown_role", "No such role on this site.", { role_id: roleId });
  assertWithinActor(ctx.actor, storedSet(role.permissions), "The role");
  const next = memberView({ ...member, role_id: role.id, role_slug: role.slug, role_name: role.name, role_permissions: role.permissions });
  if (role.id === member.role_id) return next;
  return commitChange(ctx, [setMembership(ctx, personId, { role_id: role.id })], next, {
    action: "membership.role_change",
    targetId: personId,
    details: { from_role_id: member.role_id, to_role_id: role.id },
  });
}

/**
 * POST /api/people/{person_id}/deactivate: the membership on this site stops; the person's other
 * sites are untouched. Their admin session is refused on this site at its next request (403
 * `forbidden`), their management credentials and OAuth connections on it answer
 * `creator_unauthorized` — both re-read the membership on every request. Already deactivated:
 * answered unchanged, nothing written.
 */
export async function deactivateMember(ctx: LifecycleContext, personId: string): Promise<MemberView> {
  const member = await actOn(ctx, personId, { notSelf: true });
  const next = memberView({ ...member, membership_active: 0 });
  if (member.membership_active === 0) return next;
  return commitChange(ctx, [setMembership(ctx, personId, { active: 0 })], next, { action: "membership.deactivate", targetId: personId, details: { role_id: member.role_id } });
}

/** POST /api/people/{person_id}/reactivate: access comes back at the next request (credentials included). */
export async function reactivateMember(ctx: LifecycleContext, personId: string): Promise<MemberView> {
  const member = await actOn(ctx, personId, { notSelf: false });
  const next = memberView({ ...member, membership_active: 1 });
  if (member.membership_active === 1) return next;
  return commitChange(ctx, [setMembership(ctx, personId, { active: 1 })], next, { action: "membership.reactivate", targetId: personId, details: { role_id: member.role_id } });
}

/**
 * DELETE /api/people/{person_id}: removes the membership, and revokes the person's management
 * credentials and OAuth connections on this site in the same batch (a later invitation must not
 * bring old credentials back). The person's account and other sites stay.
 */
export async function removeMember(ctx: LifecycleContext, personId: string): Promise<MemberView & { removed: true }> {
  const member = await actOn(ctx, personId, { notSelf: true });
  const at = isoAt(ctx.clock.now());
  const siteId = ctx.site.id;
  const statements = [
    ctx.db.deleteFrom("memberships").where("site_id", "=", siteId).where("person_id", "=", personId).compile(),
    ctx.db.updateTable("management_credentials").set({ revoked_at: at }).where("site_id", "=", siteId).where("created_by", "=", personId).where("revoked_at", "is", null).compile(),
    ctx.db
      .updateTable("oauth_connections")
      .set({ revoked_at: at, revoked_reason: "person" })
      .where("site_id", "=", siteId)
      .where("person_id", "=", personId)
      .where("revoked_at", "is", null)
      .compile(),
  ];
  const answer = { ...memberView(member), removed: true as const };
  await commitChange(ctx, statements, answer, { action: "membership.remove", targetId: personId, details: { role_id: member.role_id } });
  return answer;
}
