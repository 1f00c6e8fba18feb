import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { robotsText, storedChrome, storedRobots, storedSeo } from "../../shared/services/site-chrome/chrome-settings";
import { publicNotFound, servedChain } from "./models";
import { checkNames, locale } from "./params";
import type { PublicAnswer } from "./respond";
import { hasSitemap } from "./sitemap";

interface MediaOut {
  id: string;
  url: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/**
 * A media item the chrome names (logo, share image) with its public address: its current file when
 * the site's library is public, else a file published content pins, else `url: null` (public
 * delivery serves only those; docs/media.md, "Public delivery").
 */
export async function mediaOut(d1: D1Database, site: Site, id: string | null, lang: string): Promise<MediaOut | null> {
  if (id === null) return null;
  const row = await d1
    .prepare("SELECT id, object_key, file_name, mime_type, width, height, alt_texts FROM media WHERE site_id = ? AND id = ?")
    .bind(site.id, id)
    .first<{ id: string; object_key: string; file_name: string; mime_type: string; width: number | null; height: number | null; alt_texts: string }>();
  if (!row) return null;
  let file: { object_key: string; file_name: string } | null = site.settings.media.public_library ? row : null;
  file ??= await d1
    .prepare("SELECT p.object_key, p.file_name FROM published_media p JOIN published_items i ON i.site_id = p.site_id AND i.instance_id = p.instance_id WHERE p.site_id = ? AND p.media_id = ? LIMIT 1")
    .bind(site.id, id)
    .first<{ object_key: string; file_name: string }>();
  const alts = JSON.parse(row.alt_texts || "{}") as Record<string, string>;
  const url = file ? `/media/${row.id}/${file.object_key.split("/").pop() ?? ""}/${encodeURIComponent(file.file_name)}` : null;
  return { id: row.id, url, mime_type: row.mime_type, width: row.width, height: row.height, alt: alts[lang] ?? alts[site.default_lang] ?? "" };
}

/** The first language of the chain the value has, else the chain's first. */
export function pick<T>(values: Record<string, T>, chain: readonly string[]): T | undefined {
  for (const lang of chain) if (values[lang] !== undefined) return values[lang];
  return undefined;
}

/** GET /v1/_site?locale= (docs/site-chrome.md): Site Chrome and SEO defaults in one language. */
export async function readSiteChrome(d1: D1Database, site: Site, url: URL, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale"]);
  const chain = servedChain(site, locale(url));
  const lang = chain[0] ?? site.default_lang;
  const chrome = storedChrome(site.settings.chrome);
  const seo = storedSeo(site.settings.seo);
  const texts = pick(chrome.languages, chain);
  const seoTexts = pick(seo.languages, chain);
  const data = {
    locale: lang,
    name: texts?.site_name ?? site.name,
    tagline: texts?.tagline ?? null,
    logo: await mediaOut(d1, site, chrome.logo_media_id, lang),
    header_links: texts?.header_links ?? [],
    footer_links: texts?.footer_links ?? [],
    social_links: chrome.social_links,
    seo: { title_template: seoTexts?.title_template ?? "%s", description: seoTexts?.description ?? null, share_image: await mediaOut(d1, site, seo.share_image_media_id, lang) },
  };
  return { body: JSON.stringify({ data }), tags: [cacheTag.site(site.id)], cacheable };
}

/**
 * GET /robots.txt on a site host: the stored rules (default: everything allowed), and the
 * `Sitemap:` line on the host asked when the site has a sitemap (docs/sitemap.md).
 */
export async function robotsResponse(site: Site, url: URL, d1: D1Database): Promise<Response> {
  if ([...url.searchParams.keys()].length > 0) throw publicNotFound();
  const sitemap = (await hasSitemap(d1, site)) ? new URL("/sitemap.xml", url.origin).href : null;
  return new Response(robotsText(storedRobots(site.settings.robots), sitemap), { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
