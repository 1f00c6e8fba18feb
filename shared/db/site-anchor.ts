import type { CompiledQuery, Kysely } from "kysely";
import type { Database } from "./database";

/**
 * The foreign-key anchor of a site in a site database other than the control one.
 *
 * Every content table's `site_id` references `sites(id)` (migrations 0001–0022, shipped, never
 * edited), and D1 always enforces foreign keys, so a site database needs a `sites` row for each site
 * whose content it holds. The anchor is that row and nothing more: slug = the site id (unique), no
 * name, no languages, no settings. Nothing reads it — every read of `sites` goes to the control
 * database (shared/db/routed-d1.ts) — and a move writes it before the first content row and deletes
 * it after the last (docs/scale.md, "More than one database").
 */
function anchorRow(site: { id: string; default_lang: string }, at: string) {
  return { id: site.id, slug: site.id, name: "", default_lang: site.default_lang, languages: "[]", settings: "{}", settings_revision: 0, created_at: at, updated_at: at };
}

/** The anchor as a compiled statement (provisioning commits it to the site's database). */
export function siteAnchor(db: Kysely<Database>, site: { id: string; default_lang: string }, at: string): CompiledQuery {
  return db.insertInto("sites").values(anchorRow(site, at)).onConflict((oc) => oc.column("id").doNothing()).compile();
}

/** The anchor as a D1 statement (a move writes it into the target). */
export function anchorStatement(d1: D1Database, site: { id: string; default_lang: string }, at: string): D1PreparedStatement {
  const row = anchorRow(site, at);
  const columns = Object.keys(row);
  return d1.prepare(`INSERT INTO sites (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ON CONFLICT (id) DO NOTHING`).bind(...Object.values(row));
}

/** Whether a `sites` row is an anchor (slug = id, no name) rather than a directory row. */
export const ANCHOR_CONDITION = "slug = id AND name = ''";
