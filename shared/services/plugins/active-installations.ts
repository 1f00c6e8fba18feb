import { sql, type Kysely } from "kysely";
import type { Database, PluginInstallationsTable } from "../../db/database";

/** Manifest lists a caller may require to be non-empty (stored manifests are validated ones). */
export type DeclaredList = "content_policies";

/**
 * The site's active plugin installations, oldest first (then by id): the order in which their
 * operations, content policies and media sources are offered and asked. With `declaring`, only
 * installations whose manifest declares at least one of that list: every write asks the content
 * policies, so a site's other plugins are neither sent nor parsed per write
 * (docs/write-fairness.md, "CPU per write").
 */
export function activeInstallations(db: Kysely<Database>, siteId: string, declaring?: DeclaredList): Promise<PluginInstallationsTable[]> {
  let query = db.selectFrom("plugin_installations").selectAll().where("site_id", "=", siteId).where("state", "=", "active");
  if (declaring) query = query.where(declaresList(declaring));
  return query.orderBy("created_at", "asc").orderBy("id", "asc").execute();
}

/**
 * An installation whose stored manifest declares at least one item of `list` (SQL, for a where
 * clause). The path is a literal, not a parameter: with `state = 'active'` it is the WHERE of the
 * partial index idx_plugin_installations_policies (migration 0065), which SQLite uses only for a
 * query that repeats it with the same literals.
 */
export function declaresList(list: DeclaredList) {
  return sql<boolean>`json_array_length(manifest, ${sql.lit(`$.${list}`)}) > 0`;
}
