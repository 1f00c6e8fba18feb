import { AppError } from "../../shared/errors";
import { sha256Hex } from "../../shared/crypto/digest";
import { decodeCursor, encodeCursor } from "../../shared/public/cursor";
import { signingSecret } from "../../shared/public/signing-keys";
import { siteScope } from "../../shared/db/site-scope";
import { publishedRelatedFrom } from "../../shared/repositories/published-related-from";
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { createDb } from "../../shared/db/client";
import { tokenModelIds } from "../../shared/public/site-tokens";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { servedDisplay } from "../../shared/services/lifecycle/relation-targets";
import { checkNames, DEFAULT_PAGE_SIZE, locale, MAX_PAGE_SIZE, parseLimit } from "./params";
import { publicNotFound } from "./models";
import type { PublicAnswer } from "./respond";

const FIELD = /^[a-z][a-zA-Z0-9_]{0,63}$/;

export interface RelatedFromParams {
  locale: string | undefined;
  field: string | undefined;
  limit: number;
  cursor: string | undefined;
}

function bad(message: string, parameter: string): AppError {
  return new AppError("invalid_request", message, { parameter });
}

/** Parses `/v1/{model}/{slug}/related-from` parameters; anything else or malformed is a 400. */
export function parseRelatedFromParams(url: URL): RelatedFromParams {
  checkNames(url, ["locale", "field", "limit", "cursor"]);
  const limitText = url.searchParams.get("limit");
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== null) {
    limit = parseLimit(limitText, MAX_PAGE_SIZE);
  }
  const field = url.searchParams.get("field") ?? undefined;
  if (field !== undefined && !FIELD.test(field)) throw bad("field is a relation field key.", "field");
  const cursor = url.searchParams.get("cursor") ?? undefined;
  if (cursor !== undefined && cursor.length === 0) throw bad("cursor is the page.next_cursor of a previous page.", "cursor");
  return { locale: locale(url), field, limit, cursor };
}

/** A model may point at others if it has a served (not private) relation field. */
function servedRelationKeys(model: Model): string[] {
  return model.fields.filter((f) => f.type === "relation" && !f.private).map((f) => f.key);
}

/**
 * GET /v1/{model}/{slug}/related-from: published items of models the reader may read whose served
 * snapshot links to the item, newest first (docs/content-rules-reverse-single-unique.md).
 */
export async function readRelatedFrom(d1: D1Database, site: Site, model: Model, slug: string, chain: string[], params: RelatedFromParams, request: Request, cacheable: boolean): Promise<PublicAnswer> {
  const repo = publishedRelatedFrom(d1, siteScope(site.id));
  const target = await repo.targetGroup(model.id, slug, chain);
  if (!target) throw publicNotFound();
  const allowed = new Set(await tokenModelIds(d1, site.id, request));
  const readable = (await modelRepository(createDb(d1), siteScope(site.id)).list()).filter((m) => m.is_public || allowed.has(m.id));
  const sources = readable.filter((m) => servedRelationKeys(m).length > 0);
  // A field filter names a served relation field of a readable model; anything else (a private field
  // included) is refused exactly like an unknown field.
  if (params.field !== undefined && !sources.some((m) => servedRelationKeys(m).includes(params.field as string))) {
    throw bad(`"${params.field}" is not a relation field.`, "field");
  }
  const byId = new Map(sources.map((m) => [m.id, m]));
  const shape = (await sha256Hex(JSON.stringify(["related-from", target, chain, params.field ?? null]))).slice(0, 16);
  const secret = await signingSecret(d1, "cursor");
  let from;
  if (params.cursor !== undefined) {
    const state = await decodeCursor(secret, params.cursor);
    const sep = state?.g.indexOf("|") ?? -1;
    if (!state || state.q !== shape || sep <= 0) throw bad("This cursor is not valid for this list.", "cursor");
    from = { sort_at: state.s, instance_id: state.g.slice(0, sep), field: state.g.slice(sep + 1) };
  }
  const page = await repo.page({ targetGroupId: target, chain, modelIds: [...byId.keys()], limit: params.limit, ...(params.field !== undefined ? { field: params.field } : {}), ...(from ? { from } : {}) });
  const data = page.rows.flatMap((row) => {
    const source = byId.get(row.model_id);
    if (!source) return [];
    return [{ id: row.instance_id, model: source.slug, locale: row.lang, slug: row.slug, display: servedDisplay(source, row.label), field: row.field, first_published_at: row.sort_at }];
  });
  const next = page.next;
  const nextCursor = next ? await encodeCursor(secret, { q: shape, s: next.sort_at, g: `${next.instance_id}|${next.field}` }) : null;
  // Purged by: the item's own publication (i:), a source's unpublication or republication (i:, l:),
  // a new source's publication (l: of its model), model changes (m:).
  const tags = new Set([cacheTag.site(site.id), cacheTag.model(model.id), cacheTag.item(target)]);
  // Every readable model: one that gains a relation field later gains sources by publications only.
  for (const m of readable) tags.add(cacheTag.model(m.id)).add(cacheTag.list(m.id));
  for (const row of page.rows) tags.add(cacheTag.item(row.translation_group_id));
  return {
    body: JSON.stringify({ data, page: { limit: params.limit, has_more: next !== undefined, next_cursor: nextCursor } }),
    tags: [...tags],
    cacheable,
  };
}
