import { titleField } from "../../shared/content/title-field";
import { siteScope } from "../../shared/db/site-scope";
import { publishedRepository } from "../../shared/repositories/published-repository";
import type { Model } from "../../shared/repositories/model-repository";
import type { Site } from "../../shared/repositories/site-repository";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { storedSeo } from "../../shared/services/site-chrome/chrome-settings";
import { publicNotFound } from "./models";
import { checkNames } from "./params";
import type { PublicAnswer } from "./respond";
import { mediaOut, pick } from "./site-chrome";

/** The key of the component field whose values override the site's SEO defaults (docs/site-chrome.md, "Per-item SEO"). */
export const SEO_FIELD = "seo";

interface ServedBody {
  id: string;
  slug: string | null;
  locale: string;
  translation_group_id?: string;
  fields: Record<string, unknown>;
}

interface ShareImage {
  id: string;
  url: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt: string;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

/** The first image of a media value as the public item serves it (an array of media refs). */
function imageOf(value: unknown): ShareImage | null {
  const first = Array.isArray(value) ? (value[0] as Record<string, unknown> | undefined) : undefined;
  if (!first || typeof first.id !== "string" || typeof first.url !== "string") return null;
  return { id: first.id, url: first.url, mime_type: String(first.mime_type ?? ""), width: typeof first.width === "number" ? first.width : null, height: typeof first.height === "number" ? first.height : null, alt: String(first.alt ?? "") };
}

/**
 * GET /v1/{model}/{slug}/seo?locale=: the item's SEO as a page head needs it — its own `seo`
 * component (`title`, `description`, `share_image`, `noindex`) merged over the site's SEO defaults
 * of the language (docs/site-chrome.md, "Per-item SEO"): `title` is the template with the item's SEO
 * title (else its title field) in place of `%s`; `description` and `share_image` are the item's,
 * else the defaults'; `canonical_path` follows the model's `site_path`. Only what the public item
 * serves is read, so a private `seo` field leaves the defaults.
 */
export async function readItemSeo(d1: D1Database, site: Site, model: Model, slug: string, chain: string[], url: URL, cacheable: boolean): Promise<PublicAnswer> {
  checkNames(url, ["locale"]);
  const row = await publishedRepository(d1, siteScope(site.id)).bySlug(model.id, slug, chain);
  if (!row) throw publicNotFound();
  const item = JSON.parse(row.body) as ServedBody;
  const own = item.fields[SEO_FIELD];
  const seo = own !== null && typeof own === "object" && !Array.isArray(own) ? (own as Record<string, unknown>) : {};
  const defaults = storedSeo(site.settings.seo);
  const texts = pick(defaults.languages, [item.locale, ...chain]);
  const titleKey = titleField(model.fields)?.key;
  const name = text(seo.title) ?? (titleKey ? text(item.fields[titleKey]) : null) ?? item.slug ?? "";
  const template = texts?.title_template ?? "%s";
  const canonical = model.settings.site_path && item.slug ? model.settings.site_path.replace("{slug}", item.slug).replace("{lang}", item.locale) : null;
  const data = {
    locale: item.locale,
    title: template.replace("%s", name),
    description: text(seo.description) ?? texts?.description ?? null,
    share_image: imageOf(seo.share_image) ?? (await mediaOut(d1, site, defaults.share_image_media_id, item.locale)),
    noindex: seo.noindex === true,
    canonical_path: canonical,
  };
  const tags = [cacheTag.site(site.id), cacheTag.model(model.id), ...(JSON.parse(row.mentions) as string[]).map(cacheTag.item)];
  return { body: JSON.stringify({ data }), tags, cacheable };
}
