import * as v from "valibot";
import { PermissionSet } from "../../../schema/permissions";
import { hasSystemPermission, isWithin } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { MemberRow } from "../../repositories/people-repository";
import type { Actor } from "../lifecycle/context";

/**
 * The rules every people write shares (docs/people.md): the permission (`role:manage`, "creating
 * and changing roles and who holds them"), the grant bound (a person hands out and acts on only
 * roles within what they hold now), and the views the routes answer.
 */

/** A role as people answers name it. */
export interface RoleRef {
  id: string;
  slug: string;
  name: string;
}

/** A member of the site as GET /api/people lists them. */
export interface MemberView {
  person_id: string;
  name: string;
  email: string;
  role: RoleRef;
  /** The membership's state on this site. */
  state: "active" | "deactivated";
  /** Whether the person's account is active (false: no site works for them). */
  account_active: boolean;
  joined_at: string;
}

/** 403 `missing_permission` unless the actor holds `role:manage`. */
export function requirePeopleManage(actor: Actor): void {
  if (!hasSystemPermission(actor.permissions, "role:manage")) {
    throw new AppError("missing_permission", 'Managing people needs the permission "role:manage".');
  }
}

/** A stored permission set; one that does not parse grants nothing (and is within everything). */
export function storedSet(json: string): PermissionSet {
  try {
    const result = v.safeParse(PermissionSet, JSON.parse(json));
    if (result.success) return result.output;
  } catch {
    // an unreadable stored set grants nothing
  }
  return { models: {}, system: [] };
}

/**
 * 403 `escalation_refused` (with `reasons`) unless `set` grants nothing beyond what the actor holds
 * now: as for role writes, one may only hand out what one holds — and, for a member, only act on
 * someone whose role is within one's own (else a lesser manager could demote or lock out a wider one).
 */
export function assertWithinActor(actor: Actor, set: PermissionSet, what: string): void {
  const { reasons } = isWithin(set, actor.permissions);
  if (reasons.length > 0) throw new AppError("escalation_refused", `${what} goes beyond what you hold.`, { reasons });
}

/**
 * Whether holding `set` makes a member an administrator of the site: `role:manage` and
 * `site:settings` both (the SQL twin is `people-repository.ts`, `ADMINISTRATOR`).
 */
export function administers(set: PermissionSet): boolean {
  return set.system.includes("role:manage") && set.system.includes("site:settings");
}

/** 409 `last_administrator`, as every write that would leave the site without one answers. */
export function lastAdministrator(): AppError {
  return new AppError("last_administrator", "The site must keep an active administrator (a role with role:manage and site:settings).");
}

/** A membership row as the routes answer it. */
export function memberView(row: MemberRow): MemberView {
  return {
    person_id: row.person_id,
    name: row.name,
    email: row.email,
    role: { id: row.role_id, slug: row.role_slug, name: row.role_name },
    state: row.membership_active === 1 ? "active" : "deactivated",
    account_active: row.person_active === 1,
    joined_at: row.joined_at,
  };
}
