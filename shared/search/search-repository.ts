import { assertScope, type SiteScope } from "../db/site-scope";
import { MAX_WEIGHT } from "./settings";
import { titleOnly, type MatchPlan, type SearchIndex } from "./query";

/** bm25 weights of (title, w1 … w10): the title copy counts 0, column wN counts N. */
const WEIGHTS = ["0", ...Array.from({ length: MAX_WEIGHT }, (_, i) => String(i + 1))].join(", ");
/** Higher is better. */
const score = (index: SearchIndex) => `(-bm25(${index}, ${WEIGHTS}))`;

export interface SearchPosition {
  score: number;
  group_id: string;
}

export interface SearchQuery {
  plan: MatchPlan;
  modelIds: readonly string[];
  /** Languages served, in order: a translation group is searched in the first one it is published in. */
  chain: readonly string[];
  limit: number;
  after?: SearchPosition;
}

export interface SearchRow {
  instance_id: string;
  model_id: string;
  group_id: string;
  slug: string | null;
  title: string;
  body: string;
  mentions: string;
  score: number;
}

export interface SuggestQuery {
  match: string;
  modelIds: readonly string[];
  chain: readonly string[];
  limit: number;
}

export type SuggestRow = Omit<SearchRow, "body">;

function inList(values: readonly string[], params: unknown[]): string {
  params.push(...values);
  return `(${values.map(() => "?").join(",")})`;
}

function rank(column: string, chain: readonly string[], params: unknown[]): string {
  return `CASE ${column} ${chain.map((lang, i) => { params.push(lang); return `WHEN ? THEN ${i}`; }).join(" ")} END`;
}

/** Rowids of this site's documents matching `match` in `index` (an uncorrelated, site-scoped subquery). */
function matching(index: SearchIndex, match: string, siteId: string, params: unknown[]): string {
  params.push(match, siteId);
  return `(SELECT x.id FROM ${index} JOIN search_documents x ON x.id = ${index}.rowid WHERE ${index} MATCH ? AND x.site_id = ?)`;
}

/**
 * FROM and WHERE shared by search and suggest: the site's documents of the given models matching
 * `match`, joined to the published row they describe, each group in the first chain language it has.
 */
function scoped(siteId: string, index: SearchIndex, match: string, modelIds: readonly string[], chain: readonly string[], params: unknown[]): { from: string; where: string[] } {
  const where: string[] = [];
  params.push(match, siteId);
  where.push(`${index} MATCH ?`, "d.site_id = ?");
  where.push(`d.model_id IN ${inList(modelIds, params)}`);
  where.push(`d.lang IN ${inList(chain, params)}`);
  if (chain.length > 1) {
    const better = `${rank("b.lang", chain, params)} < ${rank("d.lang", chain, params)}`;
    where.push(
      `NOT EXISTS (SELECT 1 FROM published_items b WHERE b.site_id = d.site_id AND b.translation_group_id = d.translation_group_id AND b.lang IN ${inList(chain, params)} AND ${better})`,
    );
  }
  return {
    from: `${index} JOIN search_documents d ON d.id = ${index}.rowid JOIN published_items p ON p.site_id = d.site_id AND p.instance_id = d.instance_id`,
    where,
  };
}

/** Search reads; every query is bound to one site. */
export function searchRepository(d1: D1Database, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** One page of matches, best first (score, then translation group), and whether more follow. */
    async search(q: SearchQuery): Promise<{ rows: SearchRow[]; hasMore: boolean }> {
      if (q.modelIds.length === 0 || q.chain.length === 0) return { rows: [], hasMore: false };
      const params: unknown[] = [];
      const { index } = q.plan;
      const { from, where } = scoped(siteId, index, q.plan.match, q.modelIds, q.chain, params);
      if (q.plan.also !== undefined) where.push(`d.id IN ${matching("search_words", q.plan.also, siteId, params)}`);
      if (q.after) {
        params.push(q.after.score, q.after.score, q.after.group_id);
        where.push(`(${score(index)} < ? OR (${score(index)} = ? AND d.translation_group_id > ?))`);
      }
      params.push(q.limit + 1);
      const sql = `SELECT d.instance_id, d.model_id, d.translation_group_id AS group_id, p.slug, d.title, p.body, p.mentions, ${score(index)} AS score FROM ${from} WHERE ${where.join(" AND ")} ORDER BY score DESC, d.translation_group_id ASC LIMIT ?`;
      const rows = (await d1.prepare(sql).bind(...params).all<SearchRow>()).results;
      return { rows: rows.slice(0, q.limit), hasMore: rows.length > q.limit };
    },

    /** Up to `limit` suggestions: title matches first, then by score. */
    async suggest(q: SuggestQuery): Promise<SuggestRow[]> {
      if (q.modelIds.length === 0 || q.chain.length === 0) return [];
      const params: unknown[] = [];
      const titleFirst = `CASE WHEN d.id IN ${matching("search_words", titleOnly(q.match), siteId, params)} THEN 0 ELSE 1 END`;
      const { from, where } = scoped(siteId, "search_words", q.match, q.modelIds, q.chain, params);
      params.push(q.limit);
      const sql = `SELECT d.instance_id, d.model_id, d.translation_group_id AS group_id, p.slug, d.title, p.mentions, ${score("search_words")} AS score, ${titleFirst} AS title_rank FROM ${from} WHERE ${where.join(" AND ")} ORDER BY title_rank ASC, score DESC, d.translation_group_id ASC LIMIT ?`;
      return (await d1.prepare(sql).bind(...params).all<SuggestRow>()).results;
    },
  };
}
