import type { Kysely } from "kysely";
import type { Database } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

/**
 * Display names of a site's members, by person id (who holds an editing lease, who wrote a
 * version). Only people with a membership on the scope's site are answered, active or not (a
 * version's author may have left since): an id of anyone else is left out, so the answer tells
 * nothing about other sites' people.
 */
export async function findMemberNames(db: Kysely<Database>, scope: SiteScope, personIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  const siteId = assertScope(scope);
  const out: { id: string; name: string }[] = [];
  // D1 binds at most 100 parameters per statement: the site id plus a chunk of ids.
  for (let i = 0; i < personIds.length; i += CHUNK) {
    const chunk = personIds.slice(i, i + CHUNK);
    out.push(
      ...(await db
        .selectFrom("memberships")
        .innerJoin("persons", "persons.id", "memberships.person_id")
        .select(["persons.id as id", "persons.name as name"])
        .where("memberships.site_id", "=", siteId)
        .where("memberships.person_id", "in", chunk)
        .execute()),
    );
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const CHUNK = 50;

/** Every member's name of the scope's site (active or not: an owner or a writer may have left since). */
export async function allMemberNames(db: Kysely<Database>, scope: SiteScope): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("memberships")
    .innerJoin("persons", "persons.id", "memberships.person_id")
    .select(["persons.id as id", "persons.name as name"])
    .where("memberships.site_id", "=", assertScope(scope))
    .execute();
}
