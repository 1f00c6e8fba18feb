import { manageSurface } from "../../schema/manage-api";
import { bulkRoutes, RETIRED_BULK_SEGMENTS } from "../../schema/manage-bulk";
import { AppError } from "../../shared/errors";

/** Whether a route's answer is a list (`{ data: [...] }`, or `{ folders: [...] }` at `/media/folders`): its path is a collection. */
function listsItems(path: string, schema: unknown): boolean {
  const entries = (schema as { entries?: Record<string, { type?: string }> }).entries ?? {};
  const listKey = (key: string) => entries[key]?.type === "array";
  return listKey("data") || listKey(path.slice(path.lastIndexOf("/") + 1));
}

/** A route path as a whole-path pattern: each `{param}` is one non-empty segment. */
function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

/** The paths whose items are addressed right below them: `/imports` for `/imports/{id}`, `/media/{id}/originals` for `…/originals/{lang}`. */
function itemParents(paths: readonly string[]): string[] {
  const parents = new Set<string>();
  for (const path of paths) {
    const segments = path.split("/");
    segments.forEach((segment, i) => {
      if (i > 1 && /^\{[^}]+\}$/.test(segment)) parents.add(segments.slice(0, i).join("/"));
    });
  }
  return [...parents];
}

/**
 * Every collection of the management API — a GET route answering a list (`/entries`, `/models`,
 * `/media`, `/media/folders`, `/plugins`, and those under an item: `/entries/{id}/versions`,
 * `/imports/{id}/findings`, …), or a path whose items are addressed below it (`/imports`,
 * `/exports`: created by POST and read by id, with no list route) — from the route table, so a new
 * collection is covered without a word here. (Probe finding: `POST /imports/many` answered 405.)
 */
const COLLECTIONS = [
  ...manageSurface.routes.filter((r) => r.method === "get" && listsItems(r.path, r.response)).map((r) => r.path),
  ...itemParents(manageSurface.routes.map((r) => r.path)),
].map(pathPattern);

/** Where the named bulk routes are, as the 410 names them. */
const NAMED_ROUTES = bulkRoutes.map((r) => ({ operation: r.operationId, method: r.method.toUpperCase(), path: r.path }));

/**
 * Whether `path` (relative to the surface's base, `/entries/many`; one trailing slash allowed) is
 * a retired generic bulk route: `/many` or `/bulk` right under a collection.
 */
export function isRetiredBulkPath(path: string): boolean {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const cut = trimmed.lastIndexOf("/");
  const last = trimmed.slice(cut + 1);
  if (!(RETIRED_BULK_SEGMENTS as readonly string[]).includes(last)) return false;
  const collection = trimmed.slice(0, cut);
  return COLLECTIONS.some((pattern) => pattern.test(collection));
}

/**
 * Spec 3, Bulk actions: "generic `/many` and `/bulk` routes answer 410" — under every collection,
 * whether or not another route's pattern would read the segment as an id (`/entries/bulk`) or no
 * route matches at all (`/plugins/bulk`, `/entries/{id}/versions/many`); any method.
 */
export function requireNotRetiredBulkPath(path: string): void {
  if (!isRetiredBulkPath(path)) return;
  throw new AppError("bulk_route_gone", "Generic bulk routes are retired; use the named bulk action routes (at most 25 ids each).", { routes: NAMED_ROUTES });
}
