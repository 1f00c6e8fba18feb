// The served-per-language view of public lists (`served_items`, migration 0051; docs/scale.md
// "Served lists"): for each language a reader may ask for, the instance each item is served in (the
// locale fallback applied once, at write time) and one row per relation or tag filter it matches,
// each carrying the body. A list page is then one index range: page + 1 rows read.
//
// Written beside every change of `published_items` in the same batch: a publish or a re-render
// (snapshotStatements), a withdrawal (withdrawStatements), the manual order (manual-order.ts), a
// change of the locale chains (settings.ts) and a site copy (site-copy/step.ts).
import { sql, type CompiledQuery, type Kysely, type RawBuilder } from "kysely";
import type { Database } from "../../db/database";
import { localeChain } from "../../content/site-settings";
import { createDb } from "../../db/client";
import { commit } from "../../db/batch";
import { toSite, type Site } from "../../repositories/site-repository";

// The list keys are servedListKey's (shared/repositories/published-repository.ts), made in SQL here.
type ChainSite = Pick<Site, "default_lang" | "languages" | "settings">;

/** (asked language, served language, rank) for each asked language of `asked`, as servedChain makes it. */
function chainRows(site: ChainSite, asked: readonly string[]): [string, string, number][] {
  const rows: [string, string, number][] = [];
  for (const req of asked) {
    localeChain(site, req)
      .filter((l) => site.languages.includes(l))
      .forEach((served, rank) => rows.push([req, served, rank]));
  }
  return rows;
}

/** The site's languages whose chain serves `lang`: only their rows can change when an instance of `lang` does. */
export function languagesServing(site: ChainSite, lang: string): string[] {
  return site.languages.filter((req) => localeChain(site, req).includes(lang));
}

/**
 * INSERT … SELECT of the served rows: `best` picks each (asked language, group) its first published
 * chain language; the plain row, one row per relation and one per tag filter follow from it.
 * `group` narrows the published rows read to one translation group (else the whole site).
 *
 * The rows read must be the group's, not the site's (a publish runs this for its group: an import
 * of 20,000 posts publishes 20,000 times). D1 keeps no statistics, and left to itself SQLite's
 * planner walked every published row of the site (a covering index led by site_id) and every
 * relation row of the site once per branch (the inlined `chosen` joined from the relation side). So
 * the order is spelled out: `best` and `chosen` are MATERIALIZED (a few rows for a group, read
 * once), CROSS JOIN keeps each join's left side outside, the group's published rows are found by
 * `idx_published_group`, and their relation rows by `idx_published_relations_instance` (migration
 * 0063). test/integration/served-group-rows-read.test.ts holds the bound.
 */
function insertServed(db: Kysely<Database>, chain: [string, string, number][], siteId: string, group: string | undefined): CompiledQuery {
  // The chains as one JSON parameter: D1 binds at most 100 parameters, and sites × chains could pass it.
  const chainJson = JSON.stringify(chain);
  // One group: its published rows by idx_published_group. The whole site: every row is read anyway.
  const published: RawBuilder<unknown> = group === undefined ? sql`published_items p` : sql`published_items p INDEXED BY idx_published_group`;
  const inGroup: RawBuilder<unknown> = group === undefined ? sql`` : sql` AND p.translation_group_id = ${group}`;
  return sql`INSERT OR IGNORE INTO served_items (site_id, model_id, lang, list_key, translation_group_id, instance_id, sort_at, manual_position, body, mentions)
WITH chain(req, served, rank) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(${chainJson})),
best AS MATERIALIZED (
  SELECT c.req, p.instance_id, ROW_NUMBER() OVER (PARTITION BY c.req, p.translation_group_id ORDER BY c.rank) AS n
  FROM chain c CROSS JOIN ${published} ON p.site_id = ${siteId} AND p.lang = c.served${inGroup}
),
chosen AS MATERIALIZED (SELECT b.req, p.* FROM best b CROSS JOIN published_items p ON p.site_id = ${siteId} AND p.instance_id = b.instance_id WHERE b.n = 1)
SELECT site_id, model_id, req, '', translation_group_id, instance_id, sort_at, manual_position, body, mentions FROM chosen
UNION ALL
SELECT s.site_id, s.model_id, s.req, 'r:' || r.field || ':' || r.target_group_id, s.translation_group_id, s.instance_id, s.sort_at, s.manual_position, s.body, s.mentions
  FROM chosen s CROSS JOIN published_relations r INDEXED BY idx_published_relations_instance ON r.site_id = s.site_id AND r.instance_id = s.instance_id
UNION ALL
SELECT s.site_id, s.model_id, s.req, 't:' || r.field || ':' || r.target_slug, s.translation_group_id, s.instance_id, s.sort_at, s.manual_position, s.body, s.mentions
  FROM chosen s CROSS JOIN published_relations r INDEXED BY idx_published_relations_instance ON r.site_id = s.site_id AND r.instance_id = s.instance_id
  WHERE r.target_slug IS NOT NULL`.compile(db);
}

/**
 * Statements rebuilding one translation group's served rows for the languages that can serve
 * `lang` (the language of the instance that changed). Placed after the published rows' writes.
 */
export function servedGroupStatements(db: Kysely<Database>, site: ChainSite & Pick<Site, "id">, groupId: string, lang: string): CompiledQuery[] {
  const asked = languagesServing(site, lang);
  if (asked.length === 0) return [];
  return [
    sql`DELETE FROM served_items WHERE site_id = ${site.id} AND translation_group_id = ${groupId} AND lang IN (SELECT value FROM json_each(${JSON.stringify(asked)}))`.compile(db),
    insertServed(db, chainRows(site, asked), site.id, groupId),
  ];
}

/**
 * Statements rebuilding a whole site's view (its chains changed, or its content was copied in) and
 * marking the site as reading it: one DELETE and one INSERT … SELECT over its published rows.
 */
export function servedSiteStatements(db: Kysely<Database>, site: ChainSite & Pick<Site, "id">): CompiledQuery[] {
  return [
    db.deleteFrom("served_items").where("site_id", "=", site.id).compile(),
    insertServed(db, chainRows(site, site.languages), site.id, undefined),
    db.updateTable("sites").set({ served_view: 1 }).where("id", "=", site.id).where("served_view", "=", 0).compile(),
  ];
}

/**
 * Rebuilds a site's view outside a write (a finished site copy; an operator's repair of a site moved
 * before migration 0051): its row from the control database, its rows in its own database.
 */
export async function rebuildServedView(control: D1Database, siteDb: D1Database, siteId: string): Promise<void> {
  const site = await createDb(control).selectFrom("sites").selectAll().where("id", "=", siteId).executeTakeFirst();
  if (!site) return;
  const [remove, insert, mark] = servedSiteStatements(createDb(siteDb), toSite(site));
  await commit(siteDb, [remove, insert].filter((s) => s !== undefined));
  if (mark) await commit(control, [mark]);
}
