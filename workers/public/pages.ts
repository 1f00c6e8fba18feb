import { AppError } from "../../shared/errors";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { parentField } from "../../shared/services/pages/page-model";
import { publishedPages, type PublishedPage } from "../../shared/services/pages/page-tree";
import { readItem } from "./item";
import { publicNotFound } from "./models";
import { checkNames } from "./params";
import type { PublicAnswer } from "./respond";

/** Tags of every answer built from the page tree: any publication of a page can move a path. */
function treeTags(site: Site, model: Model): string[] {
  return [cacheTag.site(site.id), cacheTag.model(model.id), cacheTag.list(model.id)];
}

/** A page as the public tree shows it (a page under an unpublished parent is left out: it has no path). */
function shown(page: PublishedPage) {
  return { id: page.id, slug: page.slug, title: page.title, locale: page.locale, path: page.path, parent_id: page.parent };
}

/** GET /v1/_pages?locale=: the published pages served in the language's chain, by path (docs/pages.md). */
export async function publicPageTree(d1: D1Database, site: Site, model: Model, chain: string[], url: URL, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale"]);
  const pages = await publishedPages(d1, site.id, model, parentField(model), chain);
  return { body: JSON.stringify({ data: pages.filter((p) => p.path !== null).map(shown) }), tags: treeTags(site, model), cacheable };
}

/** The `path` parameter of `/v1/_pages/resolve`: a site path without query, fragment or trailing slash. */
export function pagePathParam(url: URL): string {
  checkNames(url, ["path", "locale"]);
  const path = url.searchParams.get("path");
  if (path === null || !/^(\/[^\s/?#]+)+$/.test(path) || path.length > 1024) {
    throw new AppError("invalid_request", "path is a page path such as /about/team (starts with /, no trailing slash, query or fragment, at most 1024 characters).", { parameter: "path" });
  }
  return path;
}

/**
 * GET /v1/_pages/resolve?path=&locale=: the published page at that path, as `GET /v1/page/{slug}`
 * answers it, with `page` (path, parent, breadcrumbs from the top page down). No page there: 404.
 */
export async function resolvePublicPage(d1: D1Database, site: Site, model: Model, chain: string[], path: string, cacheable: boolean): Promise<PublicAnswer> {
  const pages = await publishedPages(d1, site.id, model, parentField(model), chain);
  const page = pages.find((p) => p.path === path);
  if (!page || page.slug === null) throw publicNotFound();
  const byGroup = new Map(pages.map((p) => [p.group, p]));
  const trail: PublishedPage[] = [];
  for (let at = page.parent === null ? undefined : byGroup.get(page.parent); at; at = at.parent === null ? undefined : byGroup.get(at.parent)) trail.unshift(at);
  // The page in the language the tree served it in (first of the chain it is published in).
  const item = await readItem(d1, site, model, page.slug, [page.locale, ...chain.filter((l) => l !== page.locale)], cacheable);
  const meta = { path: page.path, parent_id: page.parent, breadcrumbs: trail.map((p) => ({ id: p.id, title: p.title, path: p.path })) };
  return { body: `${item.body.slice(0, -1)},"page":${JSON.stringify(meta)}}`, tags: [...new Set([...item.tags, ...treeTags(site, model)])], cacheable };
}

