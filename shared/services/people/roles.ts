import { requireRoleNotInAccessRules } from "../access-rules/access-rules";
import { roleOperationsBeyondScopes } from "../../auth/scope-ceiling";
import type { CompiledQuery } from "kysely";
import { PermissionSet, describePermissionProblems } from "../../../schema/permissions";
import * as v from "valibot";
import { hasSystemPermission, isWithin } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { peopleRepository } from "../../repositories/people-repository";
import type { Actor, LifecycleContext, WritePlan } from "../lifecycle/context";
import { administers, lastAdministrator } from "./rules";

/**
 * Role writes (docs/management-api.md, "Roles"; docs/permissions.md; docs/people.md, "Roles").
 * Every write runs in the site's object, and every surface (the admin's session bridge, the
 * management API, MCP) builds its plan here. The checks, in order: `role:manage` held →
 * permission names known (`invalid_permissions`, every reason) → the new set within the caller's
 * ceiling (`escalation_refused`) → for a change or delete, the role's **current** set within the
 * caller's ceiling too (`escalation_refused`): one acts only on roles within one's own, as on
 * members, else a lesser manager could narrow a wider role — the administrators' — under its
 * holders. The ceiling is the actor's own permissions — for a management credential already
 * narrowed by its scopes, so without `content:write` it cannot give create/update, without
 * `lifecycle:publish` it cannot give publish/unpublish — and the model wildcard `"*"` is never
 * within a credential's ceiling as a set it hands out. A change or delete that takes
 * administration (`role:manage` with `site:settings`) off a role checks in its batch that an
 * administrator remains (`last_administrator`). Seeded roles may be changed except their slug;
 * they are never deleted.
 */

/** A role as every surface answers it. */
export interface RoleView {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  permissions: PermissionSet;
  seeded: boolean;
  revision: number;
  holders: number;
}

export interface CreateRoleInput {
  slug: string;
  name: string;
  description?: string | null;
  permissions: unknown;
}

export interface UpdateRoleInput {
  role_id: string;
  slug?: string;
  name?: string;
  description?: string | null;
  permissions?: unknown;
  expected_revision?: number;
}

export interface RemoveRoleInput {
  role_id: string;
}

interface RoleRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  permissions: string;
  seeded: number;
  revision: number;
}

const EVERY_MODEL = "*";

function parseStoredSet(text: string): PermissionSet {
  try {
    const result = v.safeParse(PermissionSet, JSON.parse(text));
    if (result.success) return result.output;
  } catch {
    // fall through: an unreadable stored set grants nothing
  }
  return { models: {}, system: [] };
}

async function roleRows(ctx: LifecycleContext): Promise<RoleRow[]> {
  return ctx.db
    .selectFrom("roles")
    .select(["id", "slug", "name", "description", "permissions", "seeded", "revision"])
    .where("site_id", "=", ctx.site.id)
    .orderBy("created_at")
    .orderBy("slug")
    .execute();
}

async function holderCounts(ctx: LifecycleContext): Promise<Map<string, number>> {
  const rows = await ctx.db
    .selectFrom("memberships")
    .select(["role_id"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("site_id", "=", ctx.site.id)
    .groupBy("role_id")
    .execute();
  return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
}

function view(row: RoleRow, holders: number): RoleView {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    permissions: parseStoredSet(row.permissions),
    seeded: row.seeded === 1,
    revision: row.revision,
    holders,
  };
}

/** Every role of the site with its whole permission set and how many people hold it. */
export async function listRoles(ctx: LifecycleContext): Promise<RoleView[]> {
  const [rows, counts] = await Promise.all([roleRows(ctx), holderCounts(ctx)]);
  return rows.map((row) => view(row, counts.get(row.id) ?? 0));
}

function requireRoleManage(actor: Actor): void {
  if (!hasSystemPermission(actor.permissions, "role:manage")) throw new AppError("missing_permission", "Writing roles needs role:manage.");
}

/**
 * A raw permission set checked for a role write: known names (else 400 `invalid_permissions`
 * listing every reason) and within the actor's ceiling (else 403 `escalation_refused` with reasons).
 */
export function checkGrantable(actor: Actor, raw: unknown): PermissionSet {
  const problems = describePermissionProblems(raw);
  if (problems.length > 0) throw new AppError("invalid_permissions", "The permission set is not valid.", { reasons: problems });
  const set = v.parse(PermissionSet, raw);
  const reasons: string[] = [];
  if (actor.kind !== "person" && set.models[EVERY_MODEL] !== undefined) {
    reasons.push(`the model wildcard "*" is never within a credential's ceiling; name the models`);
  }
  if (actor.scopes !== undefined) reasons.push(...roleOperationsBeyondScopes(actor.scopes, set));
  reasons.push(...isWithin(set, actor.permissions).reasons);
  if (reasons.length > 0) throw new AppError("escalation_refused", "The permission set goes beyond what you may hand out.", { reasons });
  return set;
}

/**
 * 403 `escalation_refused` unless the role as it stands now is within the caller's ceiling: its
 * own permissions and, for a credential, the operations its scopes may hand out. The wildcard rule
 * of {@link checkGrantable} is left out here: it is about what a credential hands out, and a
 * credential for every model holds `"*"` itself (a role it changes gets named models only).
 */
function checkActsOn(actor: Actor, row: RoleRow): void {
  const current = parseStoredSet(row.permissions);
  const reasons = [...isWithin(current, actor.permissions).reasons];
  if (actor.scopes !== undefined) reasons.push(...roleOperationsBeyondScopes(actor.scopes, current));
  if (reasons.length > 0) {
    throw new AppError("escalation_refused", `The role "${row.slug}" goes beyond what you hold: you may change or delete only roles within your own.`, { reasons });
  }
}

const grantsAccess = (set: PermissionSet) => set.system.includes("role:manage");

/** Whether another role of the site (not `roleId`) can still grant access. */
function otherGrantingRole(rows: readonly RoleRow[], roleId: string): boolean {
  return rows.some((row) => row.id !== roleId && grantsAccess(parseStoredSet(row.permissions)));
}

function slugTaken(rows: readonly RoleRow[], slug: string, except?: string): boolean {
  return rows.some((row) => row.slug === slug && row.id !== except);
}

/** POST /roles */
export async function createRole(ctx: LifecycleContext, input: CreateRoleInput): Promise<WritePlan<RoleView>> {
  requireRoleManage(ctx.actor);
  const permissions = checkGrantable(ctx.actor, input.permissions);
  const rows = await roleRows(ctx);
  if (slugTaken(rows, input.slug)) throw new AppError("role_slug_taken", `A role with slug "${input.slug}" exists.`, { slug: input.slug });
  const at = isoAt(ctx.clock.now());
  const id = newId("role");
  const row: RoleRow = { id, slug: input.slug, name: input.name, description: input.description ?? null, permissions: JSON.stringify(permissions), seeded: 0, revision: 0 };
  return {
    statements: [ctx.db.insertInto("roles").values({ ...row, site_id: ctx.site.id, created_at: at, updated_at: at }).compile()],
    answer: view(row, 0),
    events: [{ name: "role.created", payload: { role_id: id, slug: row.slug } }],
    purgeTags: [],
    audit: { action: "role.create", targetKind: "role", targetId: id, details: { slug: row.slug, name: row.name, permissions } },
  };
}

async function findRole(ctx: LifecycleContext, id: string): Promise<{ row: RoleRow; rows: RoleRow[] }> {
  const rows = await roleRows(ctx);
  const row = rows.find((r) => r.id === id);
  if (!row) throw new AppError("not_found", "No such role.");
  return { row, rows };
}

/** PUT /roles/{id}: replaces only named fields; `permissions` replaces the whole set. */
export async function updateRole(ctx: LifecycleContext, input: UpdateRoleInput): Promise<WritePlan<RoleView>> {
  requireRoleManage(ctx.actor);
  const permissions = input.permissions === undefined ? undefined : checkGrantable(ctx.actor, input.permissions);
  const { row, rows } = await findRole(ctx, input.role_id);
  checkActsOn(ctx.actor, row);
  if (input.expected_revision !== undefined && input.expected_revision !== row.revision) {
    throw new AppError("role_changed", "The role changed since you read it.", { current_revision: row.revision });
  }
  if (input.slug !== undefined && input.slug !== row.slug) {
    if (row.seeded === 1) throw new AppError("role_seeded", "A seeded role keeps its slug.", { slug: row.slug });
    if (slugTaken(rows, input.slug, row.id)) throw new AppError("role_slug_taken", `A role with slug "${input.slug}" exists.`, { slug: input.slug });
  }
  if (permissions !== undefined && !grantsAccess(permissions) && grantsAccess(parseStoredSet(row.permissions)) && !otherGrantingRole(rows, row.id)) {
    throw new AppError("last_granting_role", "This is the last role that can grant access (role:manage); keep role:manage on it.");
  }
  const next: RoleRow = {
    ...row,
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(permissions !== undefined ? { permissions: JSON.stringify(permissions) } : {}),
    revision: row.revision + 1,
  };
  const at = isoAt(ctx.clock.now());
  const holders = (await holderCounts(ctx)).get(row.id) ?? 0;
  const changed = (["slug", "name", "description", "permissions"] as const).filter((key) => input[key] !== undefined);
  const takesAdministration = permissions !== undefined && administers(parseStoredSet(row.permissions)) && !administers(permissions);
  return {
    statements: [
      ctx.db
        .updateTable("roles")
        .set({ slug: next.slug, name: next.name, description: next.description, permissions: next.permissions, revision: next.revision, updated_at: at })
        .where("site_id", "=", ctx.site.id)
        .where("id", "=", row.id)
        .where("revision", "=", row.revision)
        .compile(),
      // Read after the change, in the batch: people writes commit from the worker, not this queue.
      ...(takesAdministration ? [peopleRepository(ctx.db, ctx.scope).administratorBesidesRole(row.id)] : []),
    ],
    ...(takesAdministration ? { explain: explainRoleRefusal(ctx, row.id) } : {}),
    answer: view(next, holders),
    events: [{ name: "role.updated", payload: { role_id: row.id, slug: next.slug, changed } }],
    purgeTags: [],
    audit: { action: "role.update", targetKind: "role", targetId: row.id, details: { changed, ...(permissions !== undefined ? { permissions } : {}) } },
  };
}

/**
 * The answers of a role write's batch guards, which refuse with a bare code: `last_administrator`
 * gets the people routes' words, `role_in_use` the holders counted now.
 */
function explainRoleRefusal(ctx: LifecycleContext, roleId: string): (refusal: AppError) => Promise<AppError> {
  return async (refusal) => {
    if (refusal.code === "last_administrator") return lastAdministrator();
    if (refusal.code === "role_in_use") {
      const holders = (await holderCounts(ctx)).get(roleId) ?? 0;
      return new AppError("role_in_use", "People hold this role; give them another role first.", { holders });
    }
    return refusal;
  };
}

/**
 * POST /roles/{id}/remove: never a seeded role, a role beyond the caller's, the last role granting
 * access, the role of the last administrators, or a held role. The last two are guards in the
 * delete's batch, the administrator first (the stronger reason): a membership given the role
 * after this plan was read still refuses the delete.
 */
export async function removeRole(ctx: LifecycleContext, input: RemoveRoleInput): Promise<WritePlan<{ id: string; slug: string; deleted: true }>> {
  requireRoleManage(ctx.actor);
  const { row, rows } = await findRole(ctx, input.role_id);
  if (row.seeded === 1) throw new AppError("role_seeded", "A seeded role cannot be deleted.", { slug: row.slug });
  // A role the website's access-proxy rules name (docs/access-rules.md).
  requireRoleNotInAccessRules(ctx.site.settings, row.id);
  checkActsOn(ctx.actor, row);
  const current = parseStoredSet(row.permissions);
  if (grantsAccess(current) && !otherGrantingRole(rows, row.id)) {
    throw new AppError("last_granting_role", "This is the last role that can grant access (role:manage).");
  }
  const people = peopleRepository(ctx.db, ctx.scope);
  const statements: CompiledQuery[] = [
    ...(administers(current) ? [people.administratorBesidesRole(row.id)] : []),
    people.roleUnheld(row.id),
    ctx.db.deleteFrom("roles").where("site_id", "=", ctx.site.id).where("id", "=", row.id).compile(),
  ];
  return {
    statements,
    explain: explainRoleRefusal(ctx, row.id),
    answer: { id: row.id, slug: row.slug, deleted: true },
    events: [{ name: "role.deleted", payload: { role_id: row.id, slug: row.slug } }],
    purgeTags: [],
    audit: { action: "role.delete", targetKind: "role", targetId: row.id, details: { slug: row.slug } },
  };
}
