import type { Model } from "../../repositories/model-repository";
import type { RedirectRule } from "../redirects/rules";
import { findRule } from "../redirects/rules";
import { siteAddress } from "../redirects/addresses";

/** Spec 3, "Redirects and sitemap": "sitemap index parts of 5000 addresses". */
export const SITEMAP_PART_SIZE = 5000;

/** Models whose items have a website address: public, with a `site_path` (docs/sitemap.md). */
export function sitemapModels(models: readonly Model[]): Model[] {
  return models.filter((m) => m.is_public && m.settings.site_path !== null);
}

/** One published language of an item in a sitemap part, with the group's other published languages. */
export interface SitemapRow {
  model_id: string;
  lang: string;
  slug: string;
  published_at: string;
  /** JSON `[{ "lang", "slug" }]`: every published language of the item's group (itself included). */
  alternates: string;
}

/** How many published addresses the models hold (the index's parts). */
export async function countAddresses(d1: D1Database, siteId: string, modelIds: readonly string[]): Promise<number> {
  if (modelIds.length === 0) return 0;
  const row = await d1
    .prepare(`SELECT COUNT(*) AS n FROM published_items WHERE site_id = ? AND slug IS NOT NULL AND model_id IN (${modelIds.map(() => "?").join(",")})`)
    .bind(siteId, ...modelIds)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * The rows of part `part` (1-based), in a stable order (model, first publication, item, language),
 * each with its group's published languages read in the same statement (one read per part). The
 * group index is named: left to itself SQLite searched the alternates by (site, model) — every
 * row of the model for each row, 107 s for a part of 5,000 in workerd.
 */
export async function partRows(d1: D1Database, siteId: string, modelIds: readonly string[], part: number): Promise<SitemapRow[]> {
  if (modelIds.length === 0) return [];
  const rows = await d1
    .prepare(
      `SELECT p.model_id, p.lang, p.slug, p.published_at,
        (SELECT json_group_array(json_object('lang', o.lang, 'slug', o.slug)) FROM published_items o INDEXED BY idx_published_group
          WHERE o.site_id = p.site_id AND o.translation_group_id = p.translation_group_id AND o.slug IS NOT NULL) AS alternates
       FROM published_items p
       WHERE p.site_id = ? AND p.slug IS NOT NULL AND p.model_id IN (${modelIds.map(() => "?").join(",")})
       ORDER BY p.model_id, p.sort_at, p.instance_id
       LIMIT ? OFFSET ?`,
    )
    .bind(siteId, ...modelIds, SITEMAP_PART_SIZE, (part - 1) * SITEMAP_PART_SIZE)
    .all<SitemapRow>();
  return rows.results;
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** An address on the host asked, percent-encoded as a URL (sitemaps.org: entity-escaped, absolute). */
function absolute(origin: string, path: string): string {
  return escapeXml(new URL(path, origin).href);
}

/** `/sitemap.xml`: the index of `/sitemap-<n>.xml` parts. */
export function renderIndex(origin: string, parts: number): string {
  const entries = Array.from({ length: parts }, (_, i) => `<sitemap><loc>${absolute(origin, `/sitemap-${i + 1}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</sitemapindex>\n`;
}

/**
 * A part: each published language at its website address, with `lastmod` (its publication) and
 * `xhtml:link rel="alternate" hreflang` for every published language of the item (itself too, as
 * search engines ask); an address a redirect holds is left out, and so is an alternate at one.
 */
export function renderPart(origin: string, rows: readonly SitemapRow[], models: ReadonlyMap<string, Model>, rules: readonly RedirectRule[]): string {
  const redirected = (path: string) => findRule(rules, path) !== undefined;
  const urls: string[] = [];
  for (const row of rows) {
    const model = models.get(row.model_id);
    const path = model ? siteAddress(model, row.lang, row.slug) : null;
    if (!model || path === null || redirected(path)) continue;
    const alternates = (JSON.parse(row.alternates) as { lang: string; slug: string }[])
      .map((a) => ({ lang: a.lang, path: siteAddress(model, a.lang, a.slug) }))
      .filter((a): a is { lang: string; path: string } => a.path !== null && !redirected(a.path))
      .sort((a, b) => a.lang.localeCompare(b.lang));
    const links = alternates.length > 1 ? alternates.map((a) => `<xhtml:link rel="alternate" hreflang="${escapeXml(a.lang)}" href="${absolute(origin, a.path)}"/>`).join("") : "";
    urls.push(`<url><loc>${absolute(origin, path)}</loc><lastmod>${escapeXml(row.published_at)}</lastmod>${links}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls.join("")}</urlset>\n`;
}
