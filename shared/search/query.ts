import type { SearchMode } from "./settings";

/** The FTS5 index each mode reads. */
export type SearchIndex = "search_words" | "search_stems" | "search_parts";

export const MAX_QUERY_TERMS = 16;
/** The trigram index cannot match shorter strings; parts mode matches them as word prefixes instead. */
export const MIN_PART_LENGTH = 3;

/** The terms of a query: runs of letters and digits, case folded. Everything else separates terms. */
export function queryTerms(q: string): string[] {
  return q.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const phrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** An FTS5 match: terms are quoted (never parsed as operators), all of them must match. */
export interface MatchPlan {
  index: SearchIndex;
  match: string;
  /** A second condition on the words index (parts mode: short terms as word prefixes). */
  also?: string;
}

/** How `terms` are matched in `mode`. */
export function matchPlan(terms: readonly string[], mode: SearchMode): MatchPlan {
  if (mode === "words") return { index: "search_words", match: terms.map(phrase).join(" ") };
  if (mode === "stems") return { index: "search_stems", match: terms.map(phrase).join(" ") };
  const long = terms.filter((t) => [...t].length >= MIN_PART_LENGTH);
  const short = terms.filter((t) => [...t].length < MIN_PART_LENGTH).map((t) => `${phrase(t)}*`);
  if (long.length === 0) return { index: "search_words", match: short.join(" ") };
  return { index: "search_parts", match: long.map(phrase).join(" "), ...(short.length > 0 ? { also: short.join(" ") } : {}) };
}

/** Suggestions: every term a whole word except the last, which is a word prefix. */
export function suggestMatch(terms: readonly string[]): string {
  return terms.map((t, i) => (i === terms.length - 1 ? `${phrase(t)}*` : phrase(t))).join(" ");
}

/** The same match, on the title column only (suggestions list title matches first). */
export function titleOnly(match: string): string {
  return `{title} : (${match})`;
}
