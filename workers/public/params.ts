import { AppError } from "../../shared/errors";
import { PUBLIC_LIMIT } from "../../schema/public-shapes";
import { parseSelection } from "./field-selection";

/** Page size when none is asked for, and the most one page holds (asking for more gets this). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** relation= and tag= pairs per request, counted with repeats. */
export const MAX_FILTERS = 16;

export type ListOrder = "asc" | "desc" | "manual";

export interface ListFilter {
  kind: "relation" | "tag";
  field: string;
  value: string;
}

export interface ListParams {
  locale: string | undefined;
  limit: number;
  cursor: string | undefined;
  order: ListOrder;
  filters: ListFilter[];
  /** `fields=`: the field keys each item keeps; undefined serves every public field. */
  selection: string[] | undefined;
}

export interface ItemParams {
  locale: string | undefined;
  preview: string | undefined;
  selection: string[] | undefined;
}

const LOCALE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const FIELD = /^[a-z][a-zA-Z0-9_]{0,63}$/;

/**
 * A public `limit` (docs/public-api.md): any well-formed positive whole number, capped at `cap` —
 * spec 1, "asking for more returns the cap", however many digits it has; anything else is 400.
 */
export function parseLimit(text: string, cap: number): number {
  if (!PUBLIC_LIMIT.test(text)) throw bad(`limit is a whole number from 1 (at most ${cap} are served).`, "limit");
  // Compared as digits first: a value of hundreds of digits is simply over the cap.
  return text.length > String(cap).length ? cap : Math.min(Number(text), cap);
}

function bad(message: string, parameter: string): AppError {
  return new AppError("invalid_request", message, { parameter });
}

/**
 * The query in its one canonical order: by name, then value (code units). Parameters of these
 * endpoints are either single or ANDed repeats, so the order of a request's query never changes
 * its answer; the edge cache key and the list cursor both read this order, so two requests that
 * share a cached page also share its cursor.
 */
export function canonicalQuery(url: URL): [string, string][] {
  const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...url.searchParams.entries()].sort(([a, x], [b, y]) => byCodeUnits(a, b) || byCodeUnits(x, y));
}

/** Refuses parameters an endpoint does not take, and repeats of those that take one value. */
export function checkNames(url: URL, single: readonly string[], repeatable: readonly string[] = []): void {
  const seen = new Set<string>();
  for (const name of url.searchParams.keys()) {
    if (repeatable.includes(name)) continue;
    if (!single.includes(name)) throw bad(`Unknown parameter "${name}".`, name);
    if (seen.has(name)) throw bad(`Parameter "${name}" may appear once.`, name);
    seen.add(name);
  }
}

export function locale(url: URL): string | undefined {
  const value = url.searchParams.get("locale");
  if (value === null) return undefined;
  if (!LOCALE.test(value)) throw bad("locale is a language code such as en or pt-BR.", "locale");
  return value;
}

/** Parses `/v1/{model}` parameters; anything not accepted or malformed is a 400. */
export function parseListParams(url: URL): ListParams {
  checkNames(url, ["locale", "limit", "cursor", "order", "fields"], ["relation", "tag"]);
  const limitText = url.searchParams.get("limit");
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== null) {
    limit = parseLimit(limitText, MAX_PAGE_SIZE);
  }
  const orderText = url.searchParams.get("order") ?? "desc";
  if (orderText !== "asc" && orderText !== "desc" && orderText !== "manual") throw bad("order is asc, desc or manual.", "order");
  const cursor = url.searchParams.get("cursor") ?? undefined;
  if (cursor !== undefined && cursor.length === 0) throw bad("cursor is the page.next_cursor of a previous page.", "cursor");

  // Filters in canonical order: the cursor is bound to them, and a cached page is shared by every order.
  const filters: ListFilter[] = [];
  for (const [kind, raw] of canonicalQuery(url)) {
    if (kind !== "relation" && kind !== "tag") continue;
    const colon = raw.indexOf(":");
    const field = colon > 0 ? raw.slice(0, colon) : "";
    const value = colon > 0 ? raw.slice(colon + 1) : "";
    if (!FIELD.test(field) || value.length === 0 || value.length > 200) throw bad(`${kind} is <field>:<value>.`, kind);
    filters.push({ kind, field, value });
  }
  if (filters.length > MAX_FILTERS) {
    throw new AppError("public_filter_too_many", `At most ${MAX_FILTERS} relation and tag filters per request.`, { max: MAX_FILTERS });
  }
  return { locale: locale(url), limit, cursor, order: orderText, filters, selection: parseSelection(url) };
}

/** Parses `/v1/{model}/{slug}` parameters. */
export function parseItemParams(url: URL): ItemParams {
  checkNames(url, ["locale", "preview", "fields"]);
  const preview = url.searchParams.get("preview") ?? undefined;
  if (preview !== undefined && (preview.length === 0 || preview.length > 4096)) throw bad("preview is a preview capability.", "preview");
  return { locale: locale(url), preview, selection: parseSelection(url) };
}

/** Endpoints without parameters refuse any. */
export function parseNoParams(url: URL): void {
  checkNames(url, []);
}
