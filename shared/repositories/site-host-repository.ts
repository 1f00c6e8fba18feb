import type { Kysely } from "kysely";
import type { Database } from "../db/database";
import { assertScope, type SiteScope } from "../db/site-scope";

/** The public hosts of the scope's site, in name order (the admin UI opens preview links on the first). */
export async function listSiteHosts(db: Kysely<Database>, scope: SiteScope): Promise<{ host: string }[]> {
  const siteId = assertScope(scope);
  return db.selectFrom("site_hosts").select("host").where("site_id", "=", siteId).orderBy("host").execute();
}
