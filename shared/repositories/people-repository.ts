import type { CompiledQuery, Kysely } from "kysely";
import type { Database, InvitationsTable } from "../db/database";
import { guard } from "../db/batch";
import { assertScope, type SiteScope } from "../db/site-scope";

/**
 * Reads and guards of the people of a site (docs/people.md): memberships with their person and
 * role, roles, invitations. The repository is built for one site scope: a person, role or
 * invitation of another site is never found. The two lookups by token digest and by email
 * (`invitationByDigest`, `personByEmail`) are directory reads that name no site.
 */

/** A membership of the site with its person and role. */
export interface MemberRow {
  person_id: string;
  name: string;
  email: string;
  person_active: number;
  membership_active: number;
  joined_at: string;
  role_id: string;
  role_slug: string;
  role_name: string;
  role_permissions: string;
}

/** A role of the site as people writes need it. */
export interface RoleRow {
  id: string;
  slug: string;
  name: string;
  permissions: string;
}

/** An invitation with its role. */
export interface InvitationRow extends InvitationsTable {
  role_slug: string;
  role_name: string;
  /** The invited role's permission set now (JSON), for the grant bound on revoking and replacing. */
  role_permissions: string;
}

function membersQuery(db: Kysely<Database>, siteId: string) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("persons as p", "p.id", "m.person_id")
    .innerJoin("roles as r", (join) => join.onRef("r.id", "=", "m.role_id").onRef("r.site_id", "=", "m.site_id"))
    .select([
      "p.id as person_id",
      "p.name as name",
      "p.email as email",
      "p.active as person_active",
      "m.active as membership_active",
      "m.created_at as joined_at",
      "r.id as role_id",
      "r.slug as role_slug",
      "r.name as role_name",
      "r.permissions as role_permissions",
    ])
    .where("m.site_id", "=", siteId);
}

function invitationsQuery(db: Kysely<Database>, siteId: string) {
  return db
    .selectFrom("invitations as i")
    .innerJoin("roles as r", (join) => join.onRef("r.id", "=", "i.role_id").onRef("r.site_id", "=", "i.site_id"))
    .selectAll("i")
    .select(["r.slug as role_slug", "r.name as role_name", "r.permissions as role_permissions"])
    .where("i.site_id", "=", siteId);
}

/**
 * An administrator of the site: an active membership of an active person whose role holds both
 * `role:manage` and `site:settings` (the `m` row of the select).
 */
const ADMINISTRATOR = `SELECT 1 FROM memberships m
  JOIN persons p ON p.id = m.person_id
  JOIN roles r ON r.id = m.role_id AND r.site_id = m.site_id
  WHERE m.site_id = ? AND m.active = 1 AND p.active = 1
    AND EXISTS (SELECT 1 FROM json_each(r.permissions, '$.system') WHERE json_each.value = 'role:manage')
    AND EXISTS (SELECT 1 FROM json_each(r.permissions, '$.system') WHERE json_each.value = 'site:settings')`;

/**
 * The guard SQL that holds while the site keeps an administrator. Read inside the batch, after the
 * batch's own membership change, so two concurrent demotions cannot both pass.
 */
const ADMINISTRATOR_REMAINS = `EXISTS (${ADMINISTRATOR})`;

/**
 * The guard SQL of a role write that takes administration away from a role (it loses `role:manage`
 * or `site:settings`, or is deleted; the plan adds it only when the role's current set makes its
 * holders administrators): no active member of an active account holds the role, or an
 * administrator holding another role remains. It does not read the role's stored set, so it holds
 * wherever it stands in the batch — before a delete (which the memberships' foreign key would
 * refuse first) as after an update.
 */
const ADMINISTRATOR_BESIDES_ROLE = `NOT EXISTS (SELECT 1 FROM memberships h JOIN persons q ON q.id = h.person_id
    WHERE h.site_id = ? AND h.role_id = ? AND h.active = 1 AND q.active = 1)
  OR EXISTS (${ADMINISTRATOR} AND m.role_id <> ?)`;

const INVITATION_PENDING = "EXISTS (SELECT 1 FROM invitations WHERE id = ? AND site_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?)";

/** Reads and batch guards of one site's members, roles and invitations. */
export function peopleRepository(db: Kysely<Database>, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** Every membership of the site (active and deactivated), by name then email. */
    listMembers: (): Promise<MemberRow[]> => membersQuery(db, siteId).orderBy("p.name").orderBy("p.email").execute(),

    findMember: (personId: string): Promise<MemberRow | undefined> =>
      membersQuery(db, siteId).where("m.person_id", "=", personId).executeTakeFirst(),

    findMemberByEmail: (email: string): Promise<MemberRow | undefined> =>
      membersQuery(db, siteId).where("p.email", "=", email).executeTakeFirst(),

    findRole: (roleId: string): Promise<RoleRow | undefined> =>
      db.selectFrom("roles").select(["id", "slug", "name", "permissions"]).where("site_id", "=", siteId).where("id", "=", roleId).executeTakeFirst(),

    /** Invitations neither accepted nor revoked that expire after `nowIso`, newest first. */
    listPendingInvitations: (nowIso: string): Promise<InvitationRow[]> =>
      invitationsQuery(db, siteId)
        .where("i.accepted_at", "is", null)
        .where("i.revoked_at", "is", null)
        .where("i.expires_at", ">", nowIso)
        .orderBy("i.created_at", "desc")
        .orderBy("i.id")
        .execute(),

    findInvitation: (id: string): Promise<InvitationRow | undefined> =>
      invitationsQuery(db, siteId).where("i.id", "=", id).executeTakeFirst(),

    /** Aborts the batch with `last_administrator` unless the site still has an administrator. */
    administratorRemains: (): CompiledQuery => guard(db, "last_administrator", ADMINISTRATOR_REMAINS, [siteId]),

    /**
     * Aborts the batch with `last_administrator` when the role's active holders are the site's
     * only administrators: for a role write that takes `role:manage` or `site:settings` off the
     * role, or deletes it.
     */
    administratorBesidesRole: (roleId: string): CompiledQuery =>
      guard(db, "last_administrator", ADMINISTRATOR_BESIDES_ROLE, [siteId, roleId, siteId, roleId]),

    /** Aborts the batch with `role_in_use` when any membership of the site (active or not) holds the role. */
    roleUnheld: (roleId: string): CompiledQuery =>
      guard(db, "role_in_use", "NOT EXISTS (SELECT 1 FROM memberships WHERE site_id = ? AND role_id = ?)", [siteId, roleId]),

    /** Aborts the batch with `invitation_not_found` unless the invitation is still pending at `nowIso`. */
    invitationPending: (id: string, nowIso: string): CompiledQuery =>
      guard(db, "invitation_not_found", INVITATION_PENDING, [id, siteId, nowIso]),

    /** Aborts the batch with `already_member` when the person holds a membership of the site. */
    notAMember: (personId: string): CompiledQuery =>
      guard(db, "already_member", "NOT EXISTS (SELECT 1 FROM memberships WHERE site_id = ? AND person_id = ?)", [siteId, personId]),

    /** Aborts the batch with `account_exists` when a person with this email exists. */
    noPersonWithEmail: (email: string): CompiledQuery => guard(db, "account_exists", "NOT EXISTS (SELECT 1 FROM persons WHERE email = ?)", [email]),
  };
}

/** The invitation of a token digest on any site, with its role and site name (the public accept routes name no site). */
export function invitationByDigest(db: Kysely<Database>, digest: string) {
  return db
    .selectFrom("invitations as i")
    .innerJoin("roles as r", (join) => join.onRef("r.id", "=", "i.role_id").onRef("r.site_id", "=", "i.site_id"))
    .innerJoin("sites as s", "s.id", "i.site_id")
    .selectAll("i")
    .select(["r.slug as role_slug", "r.name as role_name", "r.permissions as role_permissions", "s.name as site_name"])
    .where("i.digest", "=", digest)
    .executeTakeFirst();
}

/** The person with this (normalised) email, on any site. */
export function personByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom("persons").select(["id", "email", "name", "active"]).where("email", "=", email).executeTakeFirst();
}
