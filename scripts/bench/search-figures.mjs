/**
 * The Node side of the search figures of `npm run bench` (issue #14, item 4; the worker side is
 * search-bench.ts): server time of the search and suggest queries at 1,000 and 100,000 published
 * articles, and rows read per page.
 *
 * The queries are article numbers in the titles ("Article 537: …"): at 1,000 items each matches
 * one article, at 100,000 the hundred copies of it — a selective query, as site searches are. The
 * worst case, a word every article holds ("harbour", each document matching), is reported beside
 * them and is not a target: a ranked full-text search is linear in the number of matches.
 */
export const SEARCH_ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 5);
export const SEARCH_TARGET_MS = 5;
export const SEARCH_TARGET_GROWTH = 2;

/** 20 article numbers spread over the seeded articles (each a whole word of exactly one original title). */
export function searchQueries(items) {
  const queries = [];
  for (let i = 1; queries.length < Math.min(20, items) && i < 400; i++) {
    const q = String((i * 37) % items);
    if (!queries.includes(q)) queries.push(q);
  }
  return queries;
}

/** search and suggest times over the selective queries, and the worst-case common word. */
export async function searchFigures(bench, items) {
  const queries = searchQueries(items);
  return {
    search: await bench("POST", "/_bench/search/measure", { kind: "search", queries, rounds: SEARCH_ROUNDS }),
    suggest: await bench("POST", "/_bench/search/measure", { kind: "suggest", queries, rounds: SEARCH_ROUNDS }),
    common: await bench("POST", "/_bench/search/measure", { kind: "search", queries: ["harbour"], rounds: SEARCH_ROUNDS }),
  };
}

const ms = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2));

/** BENCH lines of one size. */
export function searchLines(size, figures) {
  const line = (name, f) =>
    `BENCH search.${name}@${size} p50=${ms(f.p50_ms)}ms p99=${ms(f.p99_ms)}ms rows_read=${Math.round(f.mean_rows_read)} hits=${f.mean_hits.toFixed(1)} (${f.queries} queries × ${f.rounds})`;
  return [line("words", figures.search), line("suggest", figures.suggest), `${line("words_common_word", figures.common)} (worst case, not a target)`];
}

/** TARGET lines: p50 at the large size ≤ 5 ms and ≤ 2 × the small size's. */
export function searchTargets(small, smallSize, large, largeSize) {
  const lines = [];
  for (const kind of ["search", "suggest"]) {
    const a = small[kind].p50_ms;
    const b = large[kind].p50_ms;
    lines.push(`  TARGET search.${kind} p50 at ${largeSize} <= ${SEARCH_TARGET_MS} ms: ${ms(b)} ms ${b <= SEARCH_TARGET_MS ? "met" : "MISSED"}`);
    const growth = a > 0 ? b / a : Infinity;
    lines.push(`  TARGET search.${kind} p50 at ${largeSize} <= ${SEARCH_TARGET_GROWTH} x at ${smallSize}: ${growth.toFixed(2)} ${growth <= SEARCH_TARGET_GROWTH ? "met" : "MISSED"}`);
  }
  return lines;
}
