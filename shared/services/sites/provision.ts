import type { CompiledQuery, Kysely } from "kysely";
import { SEEDED_ROLES } from "../../auth/seeded-roles";
import { hashPassword, type PasswordHash } from "../../auth/passwords";
import type { Database } from "../../db/database";
import { newId } from "../../ids";
import { AppError } from "../../errors";
import { DEFAULT_SITE_DATABASE, isSiteDatabaseBinding } from "../../db/site-databases";
import { siteAnchor } from "../../db/site-anchor";
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "../../content/site-settings";

export interface NewSite {
  slug: string;
  name: string;
  default_lang: string;
  languages: string[];
  hosts: string[];
  settings?: Partial<SiteSettings>;
  /**
   * The D1 binding that will hold the site's content (one of SITE_DATABASE_BINDINGS; default `DB`):
   * written to the site map in the provisioning batch (docs/scale.md, "More than one database").
   */
  database?: string;
}

/**
 * Statements creating a site, its hosts and its seeded roles; returns the ids chosen.
 * `statements` go to the control database in one batch; `siteStatements` (the foreign-key anchor of
 * a site placed on another database, shared/db/site-anchor.ts) go to that database first.
 */
export function provisionSite(
  db: Kysely<Database>,
  input: NewSite,
  at: string,
): { siteId: string; roleIds: Record<string, string>; statements: CompiledQuery[]; siteStatements: CompiledQuery[] } {
  const siteId = newId("site");
  const languages = [input.default_lang, ...input.languages.filter((l) => l !== input.default_lang)];
  const statements: CompiledQuery[] = [
    db
      .insertInto("sites")
      .values({
        id: siteId,
        slug: input.slug,
        name: input.name,
        default_lang: input.default_lang,
        languages: JSON.stringify(languages),
        settings: JSON.stringify({ ...DEFAULT_SITE_SETTINGS, ...(input.settings ?? {}) }),
        settings_revision: 0,
        created_at: at,
        updated_at: at,
      })
      .compile(),
    ...input.hosts.map((host) => db.insertInto("site_hosts").values({ host: host.toLowerCase(), site_id: siteId }).compile()),
  ];
  const siteStatements: CompiledQuery[] = [];
  if (input.database !== undefined) {
    if (!isSiteDatabaseBinding(input.database)) throw new AppError("unknown_database", `No site database is bound as "${input.database}".`, { binding: input.database });
    statements.push(db.insertInto("site_databases").values({ site_id: siteId, binding: input.database, created_at: at, moved_at: null }).compile());
    if (input.database !== DEFAULT_SITE_DATABASE) siteStatements.push(siteAnchor(db, { id: siteId, default_lang: input.default_lang }, at));
  }
  const roleIds: Record<string, string> = {};
  for (const role of SEEDED_ROLES) {
    const id = newId("role");
    roleIds[role.slug] = id;
    statements.push(
      db
        .insertInto("roles")
        .values({
          id,
          site_id: siteId,
          slug: role.slug,
          name: role.name,
          description: role.description,
          permissions: JSON.stringify(role.permissions),
          seeded: 1,
          revision: 0,
          created_at: at,
          updated_at: at,
        })
        .compile(),
    );
  }
  return { siteId, roleIds, statements, siteStatements };
}

/**
 * Statements creating a person with a hashed password. `passwordHash`, when given, is the hash of
 * `input.password` made earlier: the test fixtures hash each of their few passwords once per
 * runtime (a PBKDF2 hash costs ≈ 20–40 ms of CPU, and the workerd suite creates thousands of
 * people; docs/testing.md).
 */
export async function provisionPerson(
  db: Kysely<Database>,
  input: { email: string; name: string; password: string; is_superadmin?: boolean },
  at: string,
  passwordHash?: Promise<PasswordHash>,
): Promise<{ personId: string; statements: CompiledQuery[] }> {
  const personId = newId("per");
  const password = await (passwordHash ?? hashPassword(input.password));
  return {
    personId,
    statements: [
      db
        .insertInto("persons")
        .values({
          id: personId,
          email: input.email.toLowerCase(),
          name: input.name,
          password_hash: password.hash,
          password_salt: password.salt,
          password_iterations: password.iterations,
          is_superadmin: input.is_superadmin ? 1 : 0,
          active: 1,
          created_at: at,
          updated_at: at,
        })
        .compile(),
    ],
  };
}

/** Statement giving a person a role on a site. */
export function grantMembership(db: Kysely<Database>, siteId: string, personId: string, roleId: string, at: string): CompiledQuery {
  return db.insertInto("memberships").values({ site_id: siteId, person_id: personId, role_id: roleId, active: 1, created_at: at }).compile();
}
