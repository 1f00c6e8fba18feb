import { manageSurface } from "../../schema/manage-api";
import { bulkRoutes, RETIRED_BULK_SEGMENTS } from "../../schema/manage-bulk";
import { AppError } from "../../shared/errors";

/** Whether a route's answer is a list (`{ data: [...] }`, or `{ folders: [...] }` at `/media/folders`): its path is a collection. */
function listsItems(path: string, schema: unknown): boolean {
  const entries = (schema as { entries?: Record<string, { type?: string }> }).entries ?? {};
  const listKey = (key: string) => entries[key]?.type === "array";
  return listKey("data") || listKey(path.slice(path.lastIndexOf("/") + 1));
}

/**
 * Every collection of the management API (a GET route without parameters answering a list:
 * `/entries`, `/models`, `/media`, `/media/folders`, …), from the route table, so a new
 * collection is covered without a word here.
 */
const COLLECTIONS = new Set(manageSurface.routes.filter((r) => r.method === "get" && !r.path.includes("{") && listsItems(r.path, r.response)).map((r) => r.path));

/** Where the named bulk routes are, as the 410 names them. */
const NAMED_ROUTES = bulkRoutes.map((r) => ({ operation: r.operationId, method: r.method.toUpperCase(), path: r.path }));

/**
 * Spec 3, Bulk actions: "generic `/many` and `/bulk` routes answer 410". `path` is relative to
 * the surface's base (`/entries/many`); any method. A path another route names is left to it.
 */
export function requireNotRetiredBulkPath(path: string): void {
  const cut = path.lastIndexOf("/");
  const last = path.slice(cut + 1);
  if (!(RETIRED_BULK_SEGMENTS as readonly string[]).includes(last) || !COLLECTIONS.has(path.slice(0, cut))) return;
  throw new AppError("bulk_route_gone", "Generic bulk routes are retired; use the named bulk action routes (at most 25 ids each).", { routes: NAMED_ROUTES });
}
