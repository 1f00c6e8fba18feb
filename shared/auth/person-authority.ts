import type { Expression, Kysely } from "kysely";
import * as v from "valibot";
import { PermissionSet } from "../../schema/permissions";
import type { Database } from "../db/database";
import type { Actor } from "../services/lifecycle/context";

/** The role a person holds on a site, as answers name it. */
export interface HeldRole {
  id: string;
  slug: string;
  name: string;
  /** The role's revision when read: a guard on it notices a role changed before a write commits. */
  revision: number;
}

/** A site a person may work on, with the role they hold there. */
export interface PersonSite {
  id: string;
  slug: string;
  name: string;
  role: string;
  /** The operators suspended the site: the admin reads it, every write is 403 site_suspended (docs/operations-api.md). */
  suspended: boolean;
}

/**
 * What a person may do on a site right now. `person_inactive`: the person is deactivated (or gone);
 * `no_membership`: no active membership on the site (or no such site). Each surface maps these to
 * its own refusal (admin: 401 / 403; management: `creator_unauthorized`).
 */
export type PersonAuthority =
  | { ok: true; actor: Actor; role: HeldRole }
  | { ok: false; reason: "person_inactive" | "no_membership" };

function parsePermissions(roleId: string, json: string): PermissionSet {
  const result = v.safeParse(PermissionSet, JSON.parse(json));
  // A stored role that does not parse is a fault, never a reason to grant anything.
  if (!result.success) throw new Error(`role ${roleId} holds an invalid permission set`);
  return result.output;
}

/** A person id or site id given as a value, or as a subquery of the same batch (`authorityQuery`). */
type Key = string | Expression<string>;

/** The membership row that decides a person's authority on a site (none: no active membership). */
export function authorityQuery(db: Kysely<Database>, personId: Key, siteId: Key) {
  return db
    .selectFrom("memberships")
    .innerJoin("persons", "persons.id", "memberships.person_id")
    .innerJoin("roles", (join) => join.onRef("roles.id", "=", "memberships.role_id").onRef("roles.site_id", "=", "memberships.site_id"))
    .select(["persons.active as person_active", "roles.id as role_id", "roles.slug as role_slug", "roles.name as role_name", "roles.revision as role_revision", "roles.permissions"])
    .where("memberships.site_id", "=", siteId)
    .where("memberships.person_id", "=", personId)
    .where("memberships.active", "=", 1);
}

export type AuthorityRow = NonNullable<Awaited<ReturnType<ReturnType<typeof authorityQuery>["executeTakeFirst"]>>>;

/**
 * The authority an `authorityQuery` row grants. Without a row, the person's own `active` flag
 * (read only then) tells a deactivated person from one without membership.
 */
export async function authorityFrom(
  db: Kysely<Database>,
  personId: string,
  row: AuthorityRow | undefined,
): Promise<PersonAuthority> {
  if (!row) {
    const person = await db.selectFrom("persons").select("active").where("id", "=", personId).executeTakeFirst();
    return { ok: false, reason: person?.active === 1 ? "no_membership" : "person_inactive" };
  }
  if (row.person_active !== 1) return { ok: false, reason: "person_inactive" };
  return {
    ok: true,
    actor: { kind: "person", id: personId, permissions: parsePermissions(row.role_id, row.permissions) },
    role: { id: row.role_id, slug: row.role_slug, name: row.role_name, revision: row.role_revision },
  };
}

/**
 * Reads a person's authority on a site from D1: the person must be active and hold an active
 * membership; the permissions are those of the role as stored now. Nothing is cached, so a role
 * change, a removed membership or a deactivation holds on the very next request. A superadmin
 * gets no bypass: site access always comes from a membership.
 */
export async function personAuthority(db: Kysely<Database>, personId: string, siteId: string): Promise<PersonAuthority> {
  return authorityFrom(db, personId, await authorityQuery(db, personId, siteId).executeTakeFirst());
}

/** The sites a person holds an active membership on, with the role's slug, ordered by site name. */
export async function personSites(db: Kysely<Database>, personId: string): Promise<PersonSite[]> {
  const rows = await db
    .selectFrom("memberships")
    .innerJoin("sites", "sites.id", "memberships.site_id")
    .innerJoin("roles", (join) => join.onRef("roles.id", "=", "memberships.role_id").onRef("roles.site_id", "=", "memberships.site_id"))
    .select(["sites.id as id", "sites.slug as slug", "sites.name as name", "roles.slug as role", "sites.suspended_at as suspended_at"])
    .where("memberships.person_id", "=", personId)
    .where("memberships.active", "=", 1)
    .orderBy("sites.name")
    .orderBy("sites.id")
    .execute();
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, role: r.role, suspended: r.suspended_at !== null && r.suspended_at !== undefined }));
}
