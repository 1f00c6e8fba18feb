import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import { modelRepository, type Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { loadRules } from "../../shared/services/redirects/redirects";
import { countAddresses, partRows, renderIndex, renderPart, SITEMAP_PART_SIZE, sitemapModels } from "../../shared/services/sitemap/sitemap";
import { publicNotFound } from "./models";
import type { PublicAnswer } from "./respond";

const XML = "application/xml; charset=utf-8";

/** The site's models with website addresses, and the tags every sitemap answer carries (purged by publications, model and redirect changes). */
async function sitemapScope(d1: D1Database, site: Site): Promise<{ models: Model[]; tags: string[] }> {
  const models = sitemapModels(await modelRepository(createDb(d1), siteScope(site.id)).list());
  return { models, tags: [cacheTag.site(site.id), cacheTag.redirects(site.id), ...models.flatMap((m) => [cacheTag.model(m.id), cacheTag.list(m.id)])] };
}

/** Whether the site has a sitemap (robots.txt names it): a public model with a `site_path`. */
export async function hasSitemap(d1: D1Database, site: Site): Promise<boolean> {
  return (await sitemapScope(d1, site)).models.length > 0;
}

/** GET /sitemap.xml on a site host (docs/sitemap.md): the index of its parts; no addresses: the public 404. */
export async function readSitemapIndex(d1: D1Database, site: Site, url: URL): Promise<PublicAnswer> {
  if ([...url.searchParams.keys()].length > 0) throw publicNotFound();
  const { models, tags } = await sitemapScope(d1, site);
  const count = await countAddresses(d1, site.id, models.map((m) => m.id));
  if (count === 0) throw publicNotFound();
  return { body: renderIndex(url.origin, Math.ceil(count / SITEMAP_PART_SIZE)), tags, cacheable: true, contentType: XML };
}

/** GET /sitemap-<n>.xml: at most 5,000 addresses; a part past the last: the public 404. */
export async function readSitemapPart(d1: D1Database, site: Site, url: URL, partParam: string): Promise<PublicAnswer> {
  if ([...url.searchParams.keys()].length > 0 || !/^[1-9][0-9]{0,5}$/.test(partParam)) throw publicNotFound();
  const part = Number(partParam);
  const { models, tags } = await sitemapScope(d1, site);
  const rows = await partRows(d1, site.id, models.map((m) => m.id), part);
  if (rows.length === 0) throw publicNotFound();
  const rules = await loadRules({ db: createDb(d1), site });
  return { body: renderPart(url.origin, rows, new Map(models.map((m) => [m.id, m])), rules), tags, cacheable: true, contentType: XML };
}
