import { publicSurface } from "../../schema/public-api";
import type { Env } from "../../shared/env";
import type { Site } from "../../shared/repositories/site-repository";
import { carriesToken } from "../../shared/public/site-tokens";
import { json } from "../http/respond";
import { routeTable } from "../http/route-table";
import { queryIsUtf8 } from "../http/query-utf8";
import { AppError } from "../../shared/errors";
import { cacheMaxAge, withCache } from "../public/cache";
import { readItem } from "../public/item";
import { readPreview } from "../public/preview";
import { readSitemapIndex, readSitemapPart } from "../public/sitemap";
import { listItems } from "../public/list";
import { configCacheMs } from "../../shared/public/config-cache";
import { instanceGroupTtlMs } from "../../shared/repositories/instance-groups";
import { publicNotFound, readableModel, servedChain } from "../public/models";
import { embeds } from "../public/site-info";
import { richBlocks } from "../public/rich-blocks";
import { checkNames, locale, parseItemParams, parseListParams, parseNoParams } from "../public/params";
import { handleSearch, handleSuggest } from "../public/search";
import { serveMediaFile } from "../public/media-file";
import { readSync } from "../public/sync";
import { runSavedQuery } from "../public/saved-query";
import { readPublicMenu } from "../public/menu";
import { pagePathParam, publicPageTree, resolvePublicPage } from "../public/pages";
import { commentChallenge, listPublicComments, postPublicComment } from "../public/comments";
import { readItemSeo } from "../public/item-seo";
import { PAGE_MODEL_SLUG } from "../../shared/services/pages/page-model";
import { readSiteChrome, robotsResponse } from "../public/site-chrome";
import { publicResponse, type PublicAnswer } from "../public/respond";
import type { Model } from "../../shared/repositories/model-repository";
import { parseRelatedFromParams, readRelatedFrom } from "../public/related-from";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { publicRedirects, resolveParam, resolveRedirect } from "../public/redirects";

export { publicNotFound };

/** What every public handler gets: the request, its site (by Host) and its decoded path parameters. */
interface PublicCall {
  request: Request;
  env: Env;
  ctx: ExecutionContext;
  site: Site;
  url: URL;
  params: Record<string, string>;
}

type PublicHandler = (call: PublicCall) => Promise<Response>;

const MODEL_SLUG = /^[a-z][a-z0-9-]{0,63}$/;
const MAX_SLUG_LENGTH = 200;

/** The path's model slug, or the public 404 (a malformed slug names no model). */
function modelParam(call: PublicCall): string {
  const model = call.params.model ?? "";
  if (!MODEL_SLUG.test(model)) throw publicNotFound();
  return model;
}

/** The path's item slug, or the public 404. */
function slugParam(call: PublicCall): string {
  const slug = call.params.slug ?? "";
  if (slug.length === 0 || slug.length > MAX_SLUG_LENGTH) throw publicNotFound();
  return slug;
}

/** A read about one item (by model and slug) that takes only `locale` in its path's chain: its SEO, its comments. */
type ItemRead = (d1: D1Database, site: Site, model: Model, slug: string, chain: string[], url: URL, cacheable: boolean) => Promise<PublicAnswer>;

/** An item read, cached unless the request carries a token (which may name a private model). */
async function cachedItemRead(call: PublicCall, read: ItemRead): Promise<Response> {
  const { request, env, ctx, url, site } = call;
  const modelSlug = modelParam(call);
  const slug = slugParam(call);
  const bypass = carriesToken(request);
  return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
    const model = await readableModel(env, site, modelSlug, request);
    return read(await siteScopedDatabase(env, site.id), site, model, slug, servedChain(site, locale(url)), url, !bypass);
  });
}

/** One handler per operation of schema/public-api.ts. */
export const PUBLIC_HANDLERS: Readonly<Record<string, PublicHandler>> = {
  health: async ({ url, site }) => {
    parseNoParams(url);
    return json({ ok: true, site: site.slug });
  },
  listEmbeds: async ({ request, env, ctx, url, site }) => {
    parseNoParams(url);
    return withCache(request, cacheMaxAge(env), carriesToken(request), ctx, async () => embeds(site));
  },
  listRichBlocks: async ({ request, env, ctx, url, site }) => {
    parseNoParams(url);
    return withCache(request, cacheMaxAge(env), carriesToken(request), ctx, async () => richBlocks(await siteScopedDatabase(env, site.id), site));
  },
  listPublicRedirects: async ({ request, env, ctx, url, site }) => {
    parseNoParams(url);
    return withCache(request, cacheMaxAge(env), carriesToken(request), ctx, async () => publicRedirects(await siteScopedDatabase(env, site.id), site));
  },
  resolveRedirect: async ({ request, env, ctx, url, site }) => {
    const path = resolveParam(url);
    return withCache(request, cacheMaxAge(env), carriesToken(request), ctx, async () => resolveRedirect(await siteScopedDatabase(env, site.id), site, path));
  },
  search: ({ request, env, ctx, site }) => handleSearch(request, env, ctx, site),
  suggest: ({ request, env, ctx, site }) => handleSuggest(request, env, ctx, site),
  listItems: async (call) => {
    const { request, env, ctx, url, site } = call;
    const slug = modelParam(call);
    const params = parseListParams(url);
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
      const model = await readableModel(env, site, slug, request);
      return listItems(await siteScopedDatabase(env, site.id), site, model, servedChain(site, params.locale), params, !bypass, instanceGroupTtlMs(configCacheMs(env)));
    });
  },
  // Never cached: each answer depends on the log at the moment it is read (docs/sync.md).
  sync: async ({ request, env, url, site }) => publicResponse(await readSync(env, site, request, url), 0),
  runSavedQuery: async ({ request, env, ctx, url, site, params }) => {
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => runSavedQuery(env, await siteScopedDatabase(env, site.id), site, params.name ?? "", url, request, !bypass));
  },
  getMenu: async ({ request, env, ctx, url, site, params }) => {
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => readPublicMenu(await siteScopedDatabase(env, site.id), site, params.name ?? "", url, request, !bypass));
  },
  // Pages (docs/pages.md): the page model read like any model (public, or named by the token).
  listPages: async ({ request, env, ctx, url, site }) => {
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
      const model = await readableModel(env, site, PAGE_MODEL_SLUG, request);
      return publicPageTree(await siteScopedDatabase(env, site.id), site, model, servedChain(site, locale(url)), url, !bypass);
    });
  },
  getPageByPath: async ({ request, env, ctx, url, site }) => {
    const path = pagePathParam(url);
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
      const model = await readableModel(env, site, PAGE_MODEL_SLUG, request);
      return resolvePublicPage(await siteScopedDatabase(env, site.id), site, model, servedChain(site, locale(url)), path, !bypass);
    });
  },
  getItemSeo: (call) => cachedItemRead(call, readItemSeo),
  // Comments (docs/comments.md): the challenge and the post are never cached.
  getCommentChallenge: async ({ env, url, site }) => commentChallenge(await siteScopedDatabase(env, site.id), site, url),
  listComments: (call) => cachedItemRead(call, listPublicComments),
  postComment: async (call) => {
    const { request, env, url, site } = call;
    const modelSlug = modelParam(call);
    const slug = slugParam(call);
    checkNames(url, ["locale"]);
    const model = await readableModel(env, site, modelSlug, request);
    return postPublicComment(request, env, await siteScopedDatabase(env, site.id), site, model, slug, servedChain(site, locale(url)));
  },
  getSite: async ({ request, env, ctx, url, site }) => {
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => readSiteChrome(await siteScopedDatabase(env, site.id), site, url, !bypass));
  },
  getRobots: async ({ env, url, site }) => robotsResponse(site, url, await siteScopedDatabase(env, site.id)),
  // The sitemap (docs/sitemap.md): cacheable, tagged with its models' lists and the redirects.
  getSitemap: async ({ request, env, ctx, url, site }) => withCache(request, cacheMaxAge(env), false, ctx, async () => readSitemapIndex(await siteScopedDatabase(env, site.id), site, url)),
  getSitemapPart: async ({ request, env, ctx, url, site, params }) =>
    withCache(request, cacheMaxAge(env), false, ctx, async () => readSitemapPart(await siteScopedDatabase(env, site.id), site, url, params.part ?? "")),
  getMediaFile: ({ request, env, ctx, site, params }) => serveMediaFile(request, env, ctx, site, params),
  getItem: async (call) => {
    const { request, env, ctx, url, site } = call;
    const modelSlug = modelParam(call);
    const slug = slugParam(call);
    const params = parseItemParams(url);
    const bypass = carriesToken(request) || params.preview !== undefined;
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
      const model = await readableModel(env, site, modelSlug, request);
      if (params.preview !== undefined) return readPreview(await siteScopedDatabase(env, site.id), site, model, slug, params.preview, Date.now(), params.selection, servedChain(site, params.locale));
      return readItem(await siteScopedDatabase(env, site.id), site, model, slug, servedChain(site, params.locale), !bypass, params.selection);
    });
  },
  listItemRelatedFrom: async (call) => {
    const { request, env, ctx, url, site } = call;
    const modelSlug = modelParam(call);
    const slug = slugParam(call);
    const params = parseRelatedFromParams(url);
    const bypass = carriesToken(request);
    return withCache(request, cacheMaxAge(env), bypass, ctx, async () => {
      const model = await readableModel(env, site, modelSlug, request);
      return readRelatedFrom(await siteScopedDatabase(env, site.id), site, model, slug, servedChain(site, params.locale), params, request, !bypass);
    });
  },
};

const match = routeTable(publicSurface.basePath, publicSurface.routes, { headAsGet: true });

/** Whether a path names a public route (a CORS preflight is answered only for those). */
export async function isPublicRoute(url: string, method: "GET" | "POST" = "GET"): Promise<boolean> {
  return (await match({ method, url })).kind === "matched";
}

/**
 * Public read API of the site that owns the Host. Every refusal of a thing is the same 404: an
 * unknown host, path or method, and a path that is not valid percent-encoding.
 */
export async function handlePublic(request: Request, env: Env, ctx: ExecutionContext, site: Site | undefined): Promise<Response> {
  if (!site) throw publicNotFound();
  const matched = await match(request);
  if (matched.kind !== "matched") throw publicNotFound();
  const handler = PUBLIC_HANDLERS[matched.route.operationId];
  if (!handler) throw publicNotFound();
  const url = new URL(request.url);
  // Spec 1: a malformed value is 400 — a query byte that is not UTF-8 is never read as U+FFFD.
  if (!queryIsUtf8(url.search)) throw new AppError("invalid_request", "The query is not valid UTF-8 once percent-decoded.");
  return handler({ request, env, ctx, site, url, params: matched.params });
}
