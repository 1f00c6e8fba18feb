/**
 * Worker side of the search figures (issue #14, item 4; docs/benchmarks.md, "Search at scale"):
 * server time and rows read of the public search and suggest queries at 1,000 and 100,000
 * published articles of one site.
 *
 * Growing to 100,000: `growArticles` (seed-bench.ts) copies the published rows; `growSearch` copies
 * their search documents (same text, each copy's rowid offset by a multiple of 10,000,000) and adds
 * them to the words index (`search_words`: the default mode and suggestions). The stems and parts
 * indexes are not grown: their modes are not measured at 100,000.
 */
import { siteScope } from "../../shared/db/site-scope";
import { matchPlan, queryTerms, suggestMatch } from "../../shared/search/query";
import { searchRepository } from "../../shared/search/search-repository";

const COPY_STRIDE = 10_000_000;
/** Runs of one query per timed sample (see measureSearch). */
const REPEAT = 10;
const COLUMNS = "title, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10";

interface Metered {
  d1: D1Database;
  rowsRead: () => number;
}

/** A D1 binding that sums `meta.rows_read` of the statements run through it (prepare → bind → all/first/run). */
function metered(d1: D1Database): Metered {
  let rows = 0;
  const count = <T extends { meta?: { rows_read?: number } }>(result: T): T => {
    rows += result.meta?.rows_read ?? 0;
    return result;
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values));
        if (key === "all") return async () => count(await target.all());
        if (key === "run") return async () => count(await target.run());
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const proxy = new Proxy(d1, {
    get(target, key) {
      if (key === "prepare") return (sql: string) => wrap(target.prepare(sql));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { d1: proxy, rowsRead: () => rows };
}

async function benchSite(d1: D1Database, host: string): Promise<{ site_id: string; model_id: string }> {
  const row = await d1
    .prepare("SELECT m.site_id, m.id AS model_id FROM models m JOIN site_hosts h ON h.site_id = m.site_id WHERE h.host = ? AND m.slug = 'article'")
    .bind(host)
    .first<{ site_id: string; model_id: string }>();
  if (!row) throw new Error(`no article model on ${host}`);
  return row;
}

/**
 * Copies the original articles' search documents for published copies `from`..`to` (`-x<k>`, made
 * by `growArticles`), and adds them to the words index. Called in chunks so no request runs long.
 */
export async function growSearch(d1: D1Database, host: string, from: number, to: number): Promise<{ documents: number }> {
  const { site_id, model_id } = await benchSite(d1, host);
  const k = "WITH RECURSIVE k(n) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT n + 1 FROM k WHERE n < CAST(?2 AS INTEGER))";
  await d1.batch([
    d1
      .prepare(
        `${k} INSERT INTO search_documents (id, site_id, instance_id, model_id, translation_group_id, lang, version_id, ${COLUMNS})
         SELECT d.id + k.n * ${COPY_STRIDE}, d.site_id, d.instance_id || '-x' || k.n, d.model_id, d.translation_group_id || '-x' || k.n, d.lang, d.version_id, ${COLUMNS.split(", ").map((c) => `d.${c}`).join(", ")}
         FROM search_documents d, k WHERE d.site_id = ?3 AND d.model_id = ?4 AND d.id < ${COPY_STRIDE}
           AND EXISTS (SELECT 1 FROM published_items p WHERE p.site_id = d.site_id AND p.instance_id = d.instance_id || '-x' || k.n)`,
      )
      .bind(from, to, site_id, model_id),
    d1
      .prepare(`INSERT INTO search_words (rowid, ${COLUMNS}) SELECT id, ${COLUMNS} FROM search_documents WHERE site_id = ?1 AND id >= ?2 AND id < ?3`)
      .bind(site_id, from * COPY_STRIDE, (to + 1) * COPY_STRIDE),
  ]);
  const n = await d1.prepare("SELECT count(*) AS n FROM search_documents WHERE site_id = ? AND model_id = ?").bind(site_id, model_id).first<{ n: number }>();
  return { documents: n?.n ?? 0 };
}

export interface SearchTimes {
  kind: "search" | "suggest";
  queries: number;
  rounds: number;
  /** Milliseconds of the query (wall time around the D1 call, as the route spends it), per run. */
  p50_ms: number;
  p99_ms: number;
  mean_rows_read: number;
  mean_hits: number;
}

/**
 * Runs each query `rounds` times through the same repository functions the public routes call
 * (words mode, English chain, the article model, a page of 20 / 10 suggestions) and times each call.
 */
export async function measureSearch(d1Raw: D1Database, host: string, kind: "search" | "suggest", queries: string[], rounds: number): Promise<SearchTimes> {
  const { site_id, model_id } = await benchSite(d1Raw, host);
  const times: number[] = [];
  let rows = 0;
  let hits = 0;
  // One untimed pass first: the first runs of a query shape pay for statement preparation and a cold page cache.
  for (const q of queries) await searchRepository(d1Raw, siteScope(site_id)).search({ plan: matchPlan(queryTerms(q), "words"), modelIds: [model_id], chain: ["en"], limit: 20 });
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const m = metered(d1Raw);
      const repo = searchRepository(m.d1, siteScope(site_id));
      const terms = queryTerms(q);
      const once = async () =>
        kind === "search"
          ? (await repo.search({ plan: matchPlan(terms, "words"), modelIds: [model_id], chain: ["en"], limit: 20 })).rows
          : await repo.suggest({ match: suggestMatch(terms), modelIds: [model_id], chain: ["en"], limit: 10 });
      // workerd's clock advances only at I/O, in whole milliseconds: one sample is the mean of
      // REPEAT back-to-back runs of the same query, which resolves tenths of a millisecond.
      const t0 = performance.now();
      let found = await once();
      for (let i = 1; i < REPEAT; i++) found = await once();
      times.push((performance.now() - t0) / REPEAT);
      rows += m.rowsRead() / REPEAT;
      hits += found.length;
    }
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
  const runs = times.length || 1;
  return { kind, queries: queries.length, rounds, p50_ms: at(0.5), p99_ms: at(0.99), mean_rows_read: rows / runs, mean_hits: hits / runs };
}
