import { parseSiteSettings } from "../../shared/content/site-settings";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById } from "../../shared/repositories/site-repository";
import { reindexSite } from "../../shared/search/reindex";

/**
 * Search is off until a site enables it; the demo searches its public collections. Runs on every
 * seed (also for a demo seeded before search existed) but only while search was never configured.
 */
export async function ensureDemoSearch(d1: D1Database, demoSiteId: string): Promise<void> {
  const row = await d1.prepare("SELECT settings FROM sites WHERE id = ?").bind(demoSiteId).first<{ settings: string }>();
  if (!row) return;
  const settings = parseSiteSettings(row.settings);
  if (settings.search.models.length > 0) return;
  const { results } = await d1
    .prepare("SELECT id FROM models WHERE site_id = ? AND slug IN ('article', 'author', 'category') ORDER BY slug")
    .bind(demoSiteId)
    .all<{ id: string }>();
  const search = { ...settings.search, enabled: true, models: results.map((r) => r.id) };
  await d1.prepare("UPDATE sites SET settings = ? WHERE id = ?").bind(JSON.stringify({ ...settings, search }), demoSiteId).run();
  // A demo published before the search index existed has nothing indexed yet.
  const site = await findSiteById(createDb(d1), demoSiteId);
  if (site) await reindexSite({ db: createDb(d1), d1, scope: siteScope(site.id), site });
}
