import type { Env } from "../../shared/env";
import type { Site } from "../../shared/repositories/site-repository";
import { carriesToken } from "../../shared/public/site-tokens";
import { json } from "../http/respond";
import { cacheMaxAge, withCache } from "../public/cache";
import { readItem } from "../public/item";
import { readPreview } from "../public/preview";
import { listItems } from "../public/list";
import { publicNotFound, readableModel, servedChain } from "../public/models";
import { embeds } from "../public/site-info";
import { richBlocks } from "../public/rich-blocks";
import { parseItemParams, parseListParams, parseNoParams } from "../public/params";
import { handleSearch, handleSuggest } from "../public/search";

export { publicNotFound };

const MODEL_PATH = /^\/v1\/([a-z][a-z0-9-]{0,63})$/;
const ITEM_PATH = /^\/v1\/([a-z][a-z0-9-]{0,63})\/([^/]{1,200})$/;

/** Public read API of the site that owns the Host. Every refusal of a thing is the same 404. */
export async function handlePublic(request: Request, env: Env, ctx: ExecutionContext, site: Site | undefined): Promise<Response> {
  if (!site) throw publicNotFound();
  if (request.method !== "GET" && request.method !== "HEAD") throw publicNotFound();
  const url = new URL(request.url);
  const path = url.pathname;
  if (path === "/health") {
    parseNoParams(url);
    return json({ ok: true, site: site.slug });
  }
  const maxAge = cacheMaxAge(env);
  if (path === "/v1/_embeds") {
    parseNoParams(url);
    return withCache(request, maxAge, carriesToken(request), ctx, async () => embeds(site));
  }
  if (path === "/v1/_rich-blocks") {
    parseNoParams(url);
    return withCache(request, maxAge, carriesToken(request), ctx, () => richBlocks(env.DB, site));
  }
  if (path === "/v1/_search") return handleSearch(request, env, ctx, site);
  if (path === "/v1/_search/suggest") return handleSuggest(request, env, ctx, site);
  const list = MODEL_PATH.exec(path);
  if (list?.[1]) {
    const params = parseListParams(url);
    const bypass = carriesToken(request);
    return withCache(request, maxAge, bypass, ctx, async () => {
      const model = await readableModel(env, site, list[1] ?? "", request);
      return listItems(env.DB, site, model, servedChain(site, params.locale), params, !bypass);
    });
  }
  const item = ITEM_PATH.exec(path);
  if (item?.[1] && item[2]) {
    const params = parseItemParams(url);
    const bypass = carriesToken(request) || params.preview !== undefined;
    return withCache(request, maxAge, bypass, ctx, async () => {
      const model = await readableModel(env, site, item[1] ?? "", request);
      const slug = decodeURIComponent(item[2] ?? "");
      if (params.preview !== undefined) return readPreview(env.DB, site, model, slug, params.preview, Date.now());
      return readItem(env.DB, site, model, slug, servedChain(site, params.locale), !bypass);
    });
  }
  throw publicNotFound();
}
