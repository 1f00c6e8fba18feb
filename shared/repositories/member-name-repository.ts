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
  if (personIds.length === 0) return [];
  return db
    .selectFrom("memberships")
    .innerJoin("persons", "persons.id", "memberships.person_id")
    .select(["persons.id as id", "persons.name as name"])
    .where("memberships.site_id", "=", siteId)
    .where("memberships.person_id", "in", [...personIds])
    .orderBy("persons.id")
    .execute();
}
