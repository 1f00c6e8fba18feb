import { AppError } from "../../shared/errors";
import { sha256Hex } from "../../shared/crypto/digest";
import { decodeCursor, encodeCursor } from "../../shared/public/cursor";
import { signingSecret } from "../../shared/public/signing-keys";
import { siteScope } from "../../shared/db/site-scope";
import { groupOfInstance } from "../../shared/repositories/instance-groups";
import { publishedRepository, type PublishedFilter, type PublishedListQuery, type ServedFilter } from "../../shared/repositories/published-repository";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { checkSelection, selectItem } from "./field-selection";
import type { ListParams } from "./params";
import type { PublicAnswer } from "./respond";

/** Filters name public relation fields only; anything else is refused like an unknown parameter value. */
function filterField(model: Model, field: string, parameter: string) {
  const def = model.fields.find((f) => f.key === field);
  if (!def || def.type !== "relation" || def.private) {
    throw new AppError("invalid_request", `"${field}" is not a relation field of ${model.slug}.`, { parameter });
  }
  return def;
}

/** GET /v1/{model}: one cursor page of published items. */
/**
 * A page from the served view: relation targets named by an instance id are resolved to their group
 * first (kept per isolate: an instance never changes group). A target that names no entry matches
 * nothing, as in the read-time query.
 */
async function servedPage(d1: D1Database, siteId: string, repo: ReturnType<typeof publishedRepository>, query: Omit<PublishedListQuery, "filters">, filters: PublishedFilter[], groupTtlMs: number) {
  const served: ServedFilter[] = [];
  for (const f of filters) {
    if (f.kind === "tag") served.push(f);
    else {
      const group = f.target.startsWith("grp_") ? f.target : await groupOfInstance(d1, siteId, f.target, groupTtlMs);
      if (group === undefined) return { rows: [], next: undefined, rowsRead: 0 };
      served.push({ kind: "relation", field: f.field, group });
    }
  }
  return repo.servedList({ ...query, filters: served });
}

/** GET /v1/{model}: one cursor page of published items. `groupTtlMs`: how long an instance's group is kept (instanceGroupTtlMs). */
export async function listItems(d1: D1Database, site: Site, model: Model, chain: string[], params: ListParams, cacheable: boolean, groupTtlMs = 0): Promise<PublicAnswer> {
  const repo = publishedRepository(d1, siteScope(site.id));
  if (params.selection) checkSelection(model, params.selection);
  const filters: PublishedFilter[] = params.filters.map((f) => {
    filterField(model, f.field, f.kind);
    return f.kind === "tag" ? { kind: "tag", field: f.field, slug: f.value } : { kind: "relation", field: f.field, target: f.value };
  });
  // The cursor continues only the list it came from: same model, languages, order and filters (in
  // their canonical order, as the cache key has them), and the same kind of position ("id": the
  // instance id tie-break of list order; cursors of the group tie-break are refused).
  const shape = (await sha256Hex(JSON.stringify(["id", model.id, chain, params.order, params.filters]))).slice(0, 16);
  const secret = await signingSecret(d1, "cursor");
  let from;
  if (params.cursor !== undefined) {
    const state = await decodeCursor(secret, params.cursor);
    if (!state || state.q !== shape) throw new AppError("invalid_request", "This cursor is not valid for this list.", { parameter: "cursor" });
    from = { sort_at: state.s, instance_id: state.g, ...(state.p !== undefined ? { manual_position: state.p } : {}) };
  }
  const query = { modelId: model.id, chain, order: params.order, limit: params.limit, ...(from ? { from } : {}) };
  const page = site.served_view ? await servedPage(d1, site.id, repo, query, filters, groupTtlMs) : await repo.list({ ...query, filters });
  const next = page.next;
  const nextCursor = next
    ? await encodeCursor(secret, { q: shape, s: next.sort_at, g: next.instance_id, ...(params.order === "manual" ? { p: next.manual_position } : {}) })
    : null;
  const tags = new Set([cacheTag.site(site.id), cacheTag.model(model.id), cacheTag.list(model.id)]);
  for (const row of page.rows) for (const group of JSON.parse(row.mentions) as string[]) tags.add(cacheTag.item(group));
  const selected = params.selection ? new Set(params.selection) : undefined;
  const bodies = page.rows.map((r) => (selected ? selectItem(r.body, selected) : r.body));
  return {
    body: `{"data":[${bodies.join(",")}],"page":${JSON.stringify({ limit: params.limit, has_more: next !== undefined, next_cursor: nextCursor })}}`,
    tags: [...tags],
    cacheable,
  };
}
