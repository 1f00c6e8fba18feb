import type { SiteScope } from "../db/site-scope";
import { assertScope } from "../db/site-scope";

/** A filter the public list applies, already resolved to what the index holds. */
export type PublishedFilter =
  /** `target`: a translation group id, or an instance id of any language of the target. */
  | { kind: "relation"; field: string; target: string }
  | { kind: "tag"; field: string; slug: string };

export type PublishedOrder = "asc" | "desc" | "manual";

/** A row's place in list order: (first publication, item id), after the manual position if any. */
export interface PublishedPosition {
  manual_position?: number;
  sort_at: string;
  /** The served instance's id (the item's `id`): ties of the first publication are ordered by it. */
  instance_id: string;
}

export interface PublishedListQuery {
  modelId: string;
  /** Languages to serve, in order of preference; each item is served in the first it has. */
  chain: readonly string[];
  order: PublishedOrder;
  limit: number;
  /** Where the page starts: the position of its first item (inclusive), from the previous page. */
  from?: PublishedPosition;
  filters: readonly PublishedFilter[];
}

export interface PublishedListRow {
  body: string;
  mentions: string;
  sort_at: string;
  instance_id: string;
  manual_position: number;
}

interface Sql {
  text: string;
  params: unknown[];
}

/** `CASE <col> WHEN l0 THEN 0 WHEN l1 THEN 1 … END`: a language's rank in the chain. */
function rank(column: string, chain: readonly string[], params: unknown[]): string {
  return `CASE ${column} ${chain.map((lang, i) => { params.push(lang); return `WHEN ? THEN ${i}`; }).join(" ")} END`;
}

function inList(values: readonly string[], params: unknown[]): string {
  params.push(...values);
  return `(${values.map(() => "?").join(",")})`;
}

function filterMatch(alias: string, siteId: string, filter: PublishedFilter, params: unknown[]): string {
  if (filter.kind === "tag") {
    params.push(filter.field, filter.slug);
    return `${alias}.field = ? AND ${alias}.target_slug = ?`;
  }
  if (filter.target.startsWith("grp_")) {
    params.push(filter.field, filter.target);
    return `${alias}.field = ? AND ${alias}.target_group_id = ?`;
  }
  // An instance id names its whole item: resolved in the same statement, no extra round trip.
  params.push(filter.field, siteId, filter.target);
  return `${alias}.field = ? AND ${alias}.target_group_id = (SELECT translation_group_id FROM entries WHERE site_id = ? AND instance_id = ?)`;
}

/*
 * List order is (first_published_at, id) as items serve them: `sort_at` is the item's
 * `first_published_at` and `instance_id` its `id`, so a client can check the order it is given.
 */

/**
 * Keyset condition: rows from `from` on (inclusive) in list order. The cursor holds the first row of
 * the next page (the extra row each page fetches), so a page reads exactly limit + 1 rows.
 */
function keyset(alias: string, order: PublishedOrder, from: PublishedPosition, params: unknown[]): string {
  if (order === "manual") {
    params.push(from.manual_position ?? 0, from.manual_position ?? 0, from.sort_at, from.instance_id);
    return `(${alias}.manual_position > ? OR (${alias}.manual_position = ? AND (${alias}.sort_at, ${alias}.instance_id) <= (?, ?)))`;
  }
  params.push(from.sort_at, from.instance_id);
  return `(${alias}.sort_at, ${alias}.instance_id) ${order === "asc" ? ">=" : "<="} (?, ?)`;
}

function orderBy(alias: string, order: PublishedOrder): string {
  if (order === "manual") return `${alias}.manual_position ASC, ${alias}.sort_at DESC, ${alias}.instance_id DESC`;
  const dir = order === "asc" ? "ASC" : "DESC";
  return `${alias}.sort_at ${dir}, ${alias}.instance_id ${dir}`;
}

/**
 * One page of a model's published items, newest first by default, plus the first row of the next
 * page. Read-time locale fallback: an item is served in the first language of `chain` it is
 * published in (NOT EXISTS of a better one). With a filter, the walk is driven by the filter's
 * covering index, which holds the sort key, so a page reads about a page of rows whatever the size.
 */
function listSql(siteId: string, q: PublishedListQuery): Sql {
  const params: unknown[] = [];
  const [driver, ...rest] = q.order === "manual" ? [undefined, ...q.filters] : q.filters;
  const base = driver ? "r" : "p";
  const from = driver
    ? "published_relations r JOIN published_items p ON p.site_id = r.site_id AND p.instance_id = r.instance_id"
    : "published_items p";
  const where: string[] = [];
  params.push(siteId, q.modelId);
  where.push(`${base}.site_id = ? AND ${base}.model_id = ?`);
  if (driver) where.push(filterMatch("r", siteId, driver, params));
  if (q.chain.length === 1) {
    params.push(q.chain[0]);
    where.push(`${base}.lang = ?`);
  } else {
    where.push(`${base}.lang IN ${inList(q.chain, params)}`);
    const langs = inList(q.chain, params);
    const better = rank("b.lang", q.chain, params);
    const current = rank("p.lang", q.chain, params);
    where.push(
      `NOT EXISTS (SELECT 1 FROM published_items b WHERE b.site_id = p.site_id AND b.translation_group_id = p.translation_group_id AND b.lang IN ${langs} AND ${better} < ${current})`,
    );
  }
  for (const filter of rest) {
    if (!filter) continue;
    where.push(`EXISTS (SELECT 1 FROM published_relations f WHERE f.site_id = p.site_id AND f.instance_id = p.instance_id AND ${filterMatch("f", siteId, filter, params)})`);
  }
  if (q.from) where.push(keyset(base, q.order, q.from, params));
  params.push(q.limit + 1);
  return {
    text: `SELECT p.body, p.mentions, p.sort_at, p.instance_id, p.manual_position FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${orderBy(base, q.order)} LIMIT ?`,
    params,
  };
}

/**
 * A list of the served view (`served_items.list_key`): '' the plain list; a relation filter by
 * target group; a tag filter by target slug (shared/services/lifecycle/served-view.ts writes them).
 */
export const servedListKey = {
  plain: "",
  relation: (field: string, targetGroupId: string) => `r:${field}:${targetGroupId}`,
  tag: (field: string, targetSlug: string) => `t:${field}:${targetSlug}`,
};

/** A filter as the served view keys it: a relation target already resolved to its group. */
export type ServedFilter = { kind: "relation"; field: string; group: string } | { kind: "tag"; field: string; slug: string };

function listKey(filter: ServedFilter): string {
  return filter.kind === "tag" ? servedListKey.tag(filter.field, filter.slug) : servedListKey.relation(filter.field, filter.group);
}

/**
 * One page from the served view (`served_items`, migration 0051): one index range of the asked
 * language's list — the plain one or the first filter's — holding the bodies, so a page reads
 * page + 1 rows whatever the filter or fallback. Further filters cost one lookup per candidate.
 */
function servedListSql(siteId: string, q: Omit<PublishedListQuery, "filters"> & { filters: readonly ServedFilter[] }): Sql {
  const params: unknown[] = [siteId, q.modelId, q.chain[0], q.filters[0] ? listKey(q.filters[0]) : servedListKey.plain];
  const where = ["s.site_id = ? AND s.model_id = ? AND s.lang = ? AND s.list_key = ?"];
  for (const filter of q.filters.slice(1)) {
    params.push(listKey(filter));
    where.push("EXISTS (SELECT 1 FROM served_items f WHERE f.site_id = s.site_id AND f.model_id = s.model_id AND f.lang = s.lang AND f.list_key = ? AND f.sort_at = s.sort_at AND f.instance_id = s.instance_id)");
  }
  if (q.from) where.push(keyset("s", q.order, q.from, params));
  params.push(q.limit + 1);
  return {
    text: `SELECT s.body, s.mentions, s.sort_at, s.instance_id, s.manual_position FROM served_items s WHERE ${where.join(" AND ")} ORDER BY ${orderBy("s", q.order)} LIMIT ?`,
    params,
  };
}

/** Reads of the published snapshots that the public API serves; always within one site. */
export function publishedRepository(d1: D1Database, scope: SiteScope) {
  const siteId = assertScope(scope);
  return {
    /** A page and, when there is more, the first row of the next page (the next cursor's position). */
    async list(q: PublishedListQuery): Promise<{ rows: PublishedListRow[]; next: PublishedListRow | undefined; rowsRead: number }> {
      const sql = listSql(siteId, q);
      const result = await d1.prepare(sql.text).bind(...sql.params).all<PublishedListRow>();
      const rows = result.results;
      return { rows: rows.slice(0, q.limit), next: rows[q.limit], rowsRead: result.meta.rows_read ?? 0 };
    },

    /** The same page from the served view (a site whose view is built: `Site.served_view`). */
    async servedList(q: Omit<PublishedListQuery, "filters"> & { filters: readonly ServedFilter[] }): Promise<{ rows: PublishedListRow[]; next: PublishedListRow | undefined; rowsRead: number }> {
      const sql = servedListSql(siteId, q);
      const result = await d1.prepare(sql.text).bind(...sql.params).all<PublishedListRow>();
      const rows = result.results;
      return { rows: rows.slice(0, q.limit), next: rows[q.limit], rowsRead: result.meta.rows_read ?? 0 };
    },

    /** The item with this slug, served in the first chain language its translation group is published in. */
    async bySlug(modelId: string, slug: string, chain: readonly string[]): Promise<{ body: string; mentions: string } | undefined> {
      const params: unknown[] = [siteId, modelId];
      const langs = inList(chain, params);
      params.push(slug);
      const order = rank("lang", chain, params);
      const hit = await d1
        .prepare(`SELECT body, mentions, lang, translation_group_id FROM published_items WHERE site_id = ? AND model_id = ? AND lang IN ${langs} AND slug = ? ORDER BY ${order} LIMIT 1`)
        .bind(...params)
        .first<{ body: string; mentions: string; lang: string; translation_group_id: string }>();
      if (!hit || hit.lang === chain[0]) return hit ?? undefined;
      // The slug matched in a fallback language: serve the group's best language instead.
      const p2: unknown[] = [siteId, hit.translation_group_id];
      const langs2 = inList(chain, p2);
      const order2 = rank("lang", chain, p2);
      const best = await d1
        .prepare(`SELECT body, mentions FROM published_items WHERE site_id = ? AND translation_group_id = ? AND lang IN ${langs2} ORDER BY ${order2} LIMIT 1`)
        .bind(...p2)
        .first<{ body: string; mentions: string }>();
      return best ?? hit;
    },
  };
}
