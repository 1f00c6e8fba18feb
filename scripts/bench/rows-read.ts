/**
 * Rows read by the public list query (D1 meta `rows_read`), for the plain list, the relation-filtered
 * list and the fallback-locale list, on the first page and on a page further down (reached with
 * keyset `after` positions, as cursors do): the served view the route reads
 * (publishedRepository.servedList, the targets) and, for comparison, the read-time query it
 * replaced (publishedRepository.list, `read_time`). The relation list names its author by an
 * instance id, as clients do: the route resolves it to the group once per isolate (the lookup's
 * rows are reported apart, `target_lookup`).
 */
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { modelRepository } from "../../shared/repositories/model-repository";
import { publishedRepository, type PublishedFilter, type PublishedPosition, type ServedFilter } from "../../shared/repositories/published-repository";
import { findSiteByHost } from "../../shared/repositories/site-repository";
import { servedChain } from "../../workers/public/models";
import { DEFAULT_PAGE_SIZE } from "../../workers/public/params";

export interface RowsReadFigure {
  list: "plain" | "relation" | "fallback";
  /** `served`: the served view (what the route reads); `read_time`: the query before it. */
  query: "served" | "read_time";
  page: number;
  rows: number;
  rows_read: number;
}

export interface RowsReadReport {
  page_size: number;
  items: number;
  figures: RowsReadFigure[];
  /** Rows read resolving the relation filter's instance id to its group (once per isolate and target). */
  target_lookup: number;
}

/** Walks `deepPage` pages of each list and reports rows read for page 1 and page `deepPage`. */
export async function measureRowsRead(d1: D1Database, host: string, modelSlug: string, authorSlug: string, deepPage: number): Promise<RowsReadReport> {
  const db = createDb(d1);
  const site = await findSiteByHost(db, host);
  if (!site) throw new Error(`no site on ${host}`);
  const scope = siteScope(site.id);
  const model = await modelRepository(db, scope).findBySlug(modelSlug);
  if (!model) throw new Error(`no model ${modelSlug}`);
  const author = await d1
    .prepare("SELECT p.instance_id AS i FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = 'author' AND p.slug = ?")
    .bind(site.id, authorSlug)
    .first<{ i: string }>();
  if (!author) throw new Error(`no published author ${authorSlug}`);
  const items =
    (await d1.prepare("SELECT count(DISTINCT translation_group_id) AS n FROM published_items WHERE site_id = ? AND model_id = ?").bind(site.id, model.id).first<{ n: number }>())?.n ?? 0;

  const repo = publishedRepository(d1, scope);
  const lookup = await d1.prepare("SELECT translation_group_id AS g FROM entries WHERE site_id = ? AND instance_id = ?").bind(site.id, author.i).all<{ g: string }>();
  const group = lookup.results[0]?.g;
  if (!group) throw new Error(`no entry for author ${author.i}`);
  const lists: { list: RowsReadFigure["list"]; chain: string[]; filters: PublishedFilter[]; served: ServedFilter[] }[] = [
    { list: "plain", chain: servedChain(site, undefined), filters: [], served: [] },
    { list: "relation", chain: servedChain(site, undefined), filters: [{ kind: "relation", field: "author", target: author.i }], served: [{ kind: "relation", field: "author", group }] },
    { list: "fallback", chain: servedChain(site, "fr"), filters: [], served: [] },
  ];
  const figures: RowsReadFigure[] = [];
  for (const query of ["served", "read_time"] as const) {
    for (const { list, chain, filters, served } of lists) {
      let from: PublishedPosition | undefined;
      for (let page = 1; page <= deepPage; page++) {
        const base = { modelId: model.id, chain, order: "desc" as const, limit: DEFAULT_PAGE_SIZE, ...(from ? { from } : {}) };
        const result = query === "served" ? await repo.servedList({ ...base, filters: served }) : await repo.list({ ...base, filters });
        if (page === 1 || page === deepPage) figures.push({ list, query, page, rows: result.rows.length, rows_read: result.rowsRead });
        if (!result.next) break;
        from = { sort_at: result.next.sort_at, instance_id: result.next.instance_id };
      }
    }
  }
  return { page_size: DEFAULT_PAGE_SIZE, items, figures, target_lookup: lookup.meta.rows_read ?? 0 };
}
