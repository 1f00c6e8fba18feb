/**
 * Rows read by the public list query (D1 meta `rows_read` of publishedRepository.list), for the
 * plain list, the relation-filtered list and the fallback-locale list, on the first page and on a
 * page further down (reached with keyset `after` positions, as cursors do).
 */
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { modelRepository } from "../../shared/repositories/model-repository";
import { publishedRepository, type PublishedFilter, type PublishedPosition } from "../../shared/repositories/published-repository";
import { findSiteByHost } from "../../shared/repositories/site-repository";
import { servedChain } from "../../workers/public/models";
import { DEFAULT_PAGE_SIZE } from "../../workers/public/params";

export interface RowsReadFigure {
  list: "plain" | "relation" | "fallback";
  page: number;
  rows: number;
  rows_read: number;
}

export interface RowsReadReport {
  page_size: number;
  items: number;
  figures: RowsReadFigure[];
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
  const lists: { list: RowsReadFigure["list"]; chain: string[]; filters: PublishedFilter[] }[] = [
    { list: "plain", chain: servedChain(site, undefined), filters: [] },
    { list: "relation", chain: servedChain(site, undefined), filters: [{ kind: "relation", field: "author", target: author.i }] },
    { list: "fallback", chain: servedChain(site, "fr"), filters: [] },
  ];
  const figures: RowsReadFigure[] = [];
  for (const { list, chain, filters } of lists) {
    let from: PublishedPosition | undefined;
    for (let page = 1; page <= deepPage; page++) {
      const result = await repo.list({ modelId: model.id, chain, order: "desc", limit: DEFAULT_PAGE_SIZE, filters, ...(from ? { from } : {}) });
      if (page === 1 || page === deepPage) figures.push({ list, page, rows: result.rows.length, rows_read: result.rowsRead });
      if (!result.next) break;
      from = { sort_at: result.next.sort_at, instance_id: result.next.instance_id };
    }
  }
  return { page_size: DEFAULT_PAGE_SIZE, items, figures };
}
