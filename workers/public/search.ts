import { AppError } from "../../shared/errors";
import type { Env } from "../../shared/env";
import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { decodeCursor, encodeCursor } from "../../shared/public/cursor";
import { signingSecret } from "../../shared/public/signing-keys";
import { carriesToken } from "../../shared/public/site-tokens";
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { matchPlan, MAX_QUERY_TERMS, queryTerms, suggestMatch } from "../../shared/search/query";
import { searchRepository, type SearchPosition } from "../../shared/search/search-repository";
import { SEARCH_MODES, searchSettings, type SearchMode, type SearchSettings } from "../../shared/search/settings";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { cacheMaxAge, withCache } from "./cache";
import { servedChain } from "./models";
import { checkNames, locale, parseLimit } from "./params";
import type { PublicAnswer } from "./respond";
import { siteScopedDatabase } from "../../shared/db/site-databases";

/** Page size of search when none is asked for, and the most one page holds (asking for more gets this). */
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
/** Suggestions per answer, at most. */
export const SUGGEST_LIMIT = 10;
export const MAX_QUERY_LENGTH = 200;

const MODEL_SLUG = /^[a-z][a-z0-9-]{0,63}$/;

export interface SuggestParams {
  terms: string[];
  locale: string | undefined;
  /** Model slugs asked for; undefined: every searchable model. */
  models: string[] | undefined;
}

export interface SearchParams extends SuggestParams {
  mode: SearchMode | undefined;
  limit: number;
  cursor: string | undefined;
}

function bad(message: string, parameter: string): AppError {
  return new AppError("invalid_request", message, { parameter });
}

function parseQ(url: URL): string[] {
  const q = url.searchParams.get("q");
  if (q === null) throw bad("q is required.", "q");
  const length = [...q].length;
  if (length === 0 || length > MAX_QUERY_LENGTH) throw bad(`q holds 1 to ${MAX_QUERY_LENGTH} characters.`, "q");
  const terms = queryTerms(q);
  if (terms.length === 0) throw bad("q needs at least one letter or digit.", "q");
  if (terms.length > MAX_QUERY_TERMS) throw bad(`q holds at most ${MAX_QUERY_TERMS} words.`, "q");
  return terms;
}

function parseModels(url: URL): string[] | undefined {
  const text = url.searchParams.get("models");
  if (text === null) return undefined;
  const slugs = text.split(",");
  if (slugs.length > 16 || slugs.some((s) => !MODEL_SLUG.test(s))) throw bad("models is a comma-separated list of up to 16 model slugs.", "models");
  return [...new Set(slugs)];
}

function parseCommon(url: URL): SuggestParams {
  return { terms: parseQ(url), locale: locale(url), models: parseModels(url) };
}

/** Parses `/v1/_search/suggest` parameters; anything not accepted or malformed is a 400. */
export function parseSuggestParams(url: URL): SuggestParams {
  checkNames(url, ["q", "locale", "models"]);
  return parseCommon(url);
}

/** Parses `/v1/_search` parameters; anything not accepted or malformed is a 400. */
export function parseSearchParams(url: URL): SearchParams {
  checkNames(url, ["q", "locale", "models", "mode", "limit", "cursor"]);
  const modeText = url.searchParams.get("mode");
  const mode = modeText === null ? undefined : SEARCH_MODES.find((m) => m === modeText);
  if (modeText !== null && mode === undefined) throw bad(`mode is ${SEARCH_MODES.join(", ")}.`, "mode");
  const limitText = url.searchParams.get("limit");
  let limit = SEARCH_DEFAULT_LIMIT;
  if (limitText !== null) {
    limit = parseLimit(limitText, SEARCH_MAX_LIMIT);
  }
  const cursor = url.searchParams.get("cursor") ?? undefined;
  if (cursor !== undefined && cursor.length === 0) throw bad("cursor is the page.next_cursor of a previous page.", "cursor");
  return { ...parseCommon(url), mode, limit, cursor };
}

/** Search settings of a site where search is on; 404 search_off otherwise. */
function enabledSettings(site: Site): SearchSettings {
  const settings = searchSettings(site.settings);
  if (!settings.enabled) throw new AppError("search_off", "Search is not enabled for this site.");
  return settings;
}

/**
 * The models a request searches: the site's chosen models that are public (private models never
 * are, whatever token comes with the request), narrowed by `models`. A slug that is not one of them
 * is refused like a malformed value.
 */
async function searchedModels(d1: D1Database, site: Site, settings: SearchSettings, slugs: string[] | undefined): Promise<Model[]> {
  const found = await modelRepository(createDb(d1), siteScope(site.id)).findMany(settings.models);
  const byId = new Map(found.filter((m) => m.is_public).map((m) => [m.id, m]));
  const searchable = settings.models.flatMap((id) => byId.get(id) ?? []);
  if (slugs === undefined) return searchable;
  return slugs.map((slug) => {
    const model = searchable.find((m) => m.slug === slug);
    if (!model) throw bad(`"${slug}" is not a searchable model.`, "models");
    return model;
  });
}

/** Languages searched: as lists serve them (fallback included), minus the languages hidden from search. */
function searchedChain(site: Site, settings: SearchSettings, lang: string | undefined): string[] {
  return servedChain(site, lang).filter((l) => !settings.hidden_languages.includes(l));
}

function modelTags(site: Site, models: readonly Model[]): Set<string> {
  return new Set([cacheTag.site(site.id), ...models.flatMap((m) => [cacheTag.model(m.id), cacheTag.list(m.id)])]);
}

const invalidCursor = () => bad("This cursor is not valid for this search.", "cursor");

/** GET /v1/_search: one cursor page of published items matching q, best first. */
export async function searchItems(d1: D1Database, site: Site, settings: SearchSettings, params: SearchParams, cacheable: boolean): Promise<PublicAnswer> {
  const models = await searchedModels(d1, site, settings, params.models);
  const chain = searchedChain(site, settings, params.locale);
  const mode = params.mode ?? settings.mode;
  const modelIds = models.map((m) => m.id);
  // The cursor continues only the search it came from: same terms, mode, models and languages.
  const shape = (await sha256Hex(JSON.stringify(["search", params.terms, mode, modelIds, chain]))).slice(0, 16);
  const secret = await signingSecret(d1, "cursor");
  let after: SearchPosition | undefined;
  if (params.cursor !== undefined) {
    const state = await decodeCursor(secret, params.cursor);
    const score = state ? Number(state.s) : Number.NaN;
    if (!state || state.q !== shape || !Number.isFinite(score)) throw invalidCursor();
    after = { score, group_id: state.g };
  }
  const page = await searchRepository(d1, siteScope(site.id)).search({
    plan: matchPlan(params.terms, mode),
    modelIds,
    chain,
    limit: params.limit,
    ...(after ? { after } : {}),
  });
  const last = page.rows.at(-1);
  const nextCursor = page.hasMore && last ? await encodeCursor(secret, { q: shape, s: String(last.score), g: last.group_id }) : null;
  const slugOf = new Map(models.map((m) => [m.id, m.slug]));
  const tags = modelTags(site, models);
  for (const row of page.rows) for (const group of JSON.parse(row.mentions) as string[]) tags.add(cacheTag.item(group));
  const data = page.rows.map((r) => `{"item":${r.body},"score":${JSON.stringify(r.score)},"model":${JSON.stringify(slugOf.get(r.model_id) ?? "")}}`);
  return {
    body: `{"data":[${data.join(",")}],"page":${JSON.stringify({ limit: params.limit, has_more: page.hasMore, next_cursor: nextCursor })}}`,
    tags: [...tags],
    cacheable,
  };
}

/** GET /v1/_search/suggest: up to 10 items whose words start like q, title matches first. */
export async function suggestItems(d1: D1Database, site: Site, settings: SearchSettings, params: SuggestParams, cacheable: boolean): Promise<PublicAnswer> {
  const models = await searchedModels(d1, site, settings, params.models);
  const chain = searchedChain(site, settings, params.locale);
  const rows = await searchRepository(d1, siteScope(site.id)).suggest({ match: suggestMatch(params.terms), modelIds: models.map((m) => m.id), chain, limit: SUGGEST_LIMIT });
  const slugOf = new Map(models.map((m) => [m.id, m.slug]));
  const tags = modelTags(site, models);
  for (const row of rows) tags.add(cacheTag.item(row.group_id));
  const data = rows.map((r) => ({ text: r.title.length > 0 ? r.title : (r.slug ?? ""), model: slugOf.get(r.model_id) ?? "", slug: r.slug, instance_id: r.instance_id }));
  return { body: JSON.stringify({ data }), tags: [...tags], cacheable };
}

/** Route handler of GET /v1/_search (site by Host only). */
export async function handleSearch(request: Request, env: Env, ctx: ExecutionContext, site: Site): Promise<Response> {
  const settings = enabledSettings(site);
  const params = parseSearchParams(new URL(request.url));
  const bypass = carriesToken(request);
  return withCache(request, cacheMaxAge(env), bypass, ctx, async () => searchItems(await siteScopedDatabase(env, site.id), site, settings, params, !bypass));
}

/** Route handler of GET /v1/_search/suggest (site by Host only). */
export async function handleSuggest(request: Request, env: Env, ctx: ExecutionContext, site: Site): Promise<Response> {
  const settings = enabledSettings(site);
  const params = parseSuggestParams(new URL(request.url));
  const bypass = carriesToken(request);
  return withCache(request, cacheMaxAge(env), bypass, ctx, async () => suggestItems(await siteScopedDatabase(env, site.id), site, settings, params, !bypass));
}
