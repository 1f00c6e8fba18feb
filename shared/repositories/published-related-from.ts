import type { SiteScope } from "../db/site-scope";
import { assertScope } from "../db/site-scope";

/** Where a related-from page starts (inclusive): newest source first, then id, then field key. */
export interface RelatedFromPosition {
  sort_at: string;
  instance_id: string;
  field: string;
}

export interface PublishedRelatedFromQuery {
  targetGroupId: string;
  /** Languages served, in order: each source is listed in the first of them it is published in. */
  chain: readonly string[];
  /** Source models the reader may read (public ones, and private ones its token names). */
  modelIds: readonly string[];
  field?: string;
  limit: number;
  from?: RelatedFromPosition;
}

export interface PublishedRelatedFromRow {
  instance_id: string;
  translation_group_id: string;
  model_id: string;
  lang: string;
  field: string;
  sort_at: string;
  slug: string | null;
  label: string | null;
}

function placeholders(values: readonly unknown[], params: unknown[]): string {
  params.push(...values);
  return `(${values.map(() => "?").join(",")})`;
}

/**
 * Published items whose served snapshot links to an item, from the filter index `published_relations`
 * (written from the rendered snapshot, so links of private fields, and to private models' items, have
 * no row). Walks `idx_published_relations_from` in order: a page reads about limit + 1 rows.
 */
export function publishedRelatedFrom(d1: D1Database, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** The translation group of the published item with this slug in one of the chain's languages. */
    async targetGroup(modelId: string, slug: string, chain: readonly string[]): Promise<string | undefined> {
      const params: unknown[] = [siteId, modelId];
      const langs = placeholders(chain, params);
      params.push(slug);
      const row = await d1
        .prepare(`SELECT translation_group_id FROM published_items WHERE site_id = ? AND model_id = ? AND lang IN ${langs} AND slug = ? LIMIT 1`)
        .bind(...params)
        .first<{ translation_group_id: string }>();
      return row?.translation_group_id;
    },

    async page(q: PublishedRelatedFromQuery): Promise<{ rows: PublishedRelatedFromRow[]; next: PublishedRelatedFromRow | undefined }> {
      if (q.modelIds.length === 0 || q.chain.length === 0) return { rows: [], next: undefined };
      const params: unknown[] = [siteId, q.targetGroupId, q.targetGroupId];
      const where = ["r.site_id = ?", "r.target_group_id = ?", "r.translation_group_id <> ?"];
      where.push(`r.lang IN ${placeholders(q.chain, params)}`);
      where.push(`r.model_id IN ${placeholders(q.modelIds, params)}`);
      if (q.field !== undefined) {
        where.push("r.field = ?");
        params.push(q.field);
      }
      // A source is listed in the language a list would serve it in: the first of the chain it is published in.
      const rank = (col: string) => `CASE ${col} ${q.chain.map((lang, i) => { params.push(lang); return `WHEN ? THEN ${i}`; }).join(" ")} END`;
      const inChain = placeholders(q.chain, params);
      const rankB = rank("b.lang");
      const rankR = rank("r.lang");
      where.push(`NOT EXISTS (SELECT 1 FROM published_items b WHERE b.site_id = r.site_id AND b.translation_group_id = r.translation_group_id AND b.lang IN ${inChain} AND ${rankB} < ${rankR})`);
      if (q.from) {
        where.push("(r.sort_at, r.instance_id, r.field) <= (?, ?, ?)");
        params.push(q.from.sort_at, q.from.instance_id, q.from.field);
      }
      params.push(q.limit + 1);
      const sql = `SELECT r.instance_id, r.translation_group_id, r.model_id, r.lang, r.field, r.sort_at, p.slug, p.label
        FROM published_relations r JOIN published_items p ON p.site_id = r.site_id AND p.instance_id = r.instance_id
        WHERE ${where.join(" AND ")}
        ORDER BY r.sort_at DESC, r.instance_id DESC, r.field DESC LIMIT ?`;
      const { results } = await d1.prepare(sql).bind(...params).all<PublishedRelatedFromRow>();
      return { rows: results.slice(0, q.limit), next: results[q.limit] };
    },
  };
}
