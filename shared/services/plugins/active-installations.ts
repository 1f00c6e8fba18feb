import type { Kysely } from "kysely";
import type { Database, PluginInstallationsTable } from "../../db/database";

/**
 * The site's active plugin installations, oldest first (then by id): the order in which their
 * operations, content policies and media sources are offered and asked.
 */
export function activeInstallations(db: Kysely<Database>, siteId: string): Promise<PluginInstallationsTable[]> {
  return db.selectFrom("plugin_installations").selectAll().where("site_id", "=", siteId).where("state", "=", "active").orderBy("created_at", "asc").orderBy("id", "asc").execute();
}
