/**
 * Site Chrome defaults, SEO defaults and robots rules as stored in the site settings (keys `chrome`,
 * `seo`, `robots`; docs/site-chrome.md). Kept beside the other site settings so every public read
 * of the site (already cached per isolate) has them without another query.
 */
export interface ChromeLink {
  label: string;
  url: string;
}

export interface SiteChrome {
  /** Per language: the site's name and tagline, header and footer links. */
  languages: Record<string, { site_name: string; tagline: string | null; header_links: ChromeLink[]; footer_links: ChromeLink[] }>;
  logo_media_id: string | null;
  social_links: { network: string; url: string }[];
}

export interface SeoDefaults {
  /** Per language: the title template (`%s` is the page title) and the default description. */
  languages: Record<string, { title_template: string; description: string | null }>;
  share_image_media_id: string | null;
}

export interface RobotsRule {
  user_agent: string;
  allow: string[];
  disallow: string[];
}

export interface RobotsRules {
  rules: RobotsRule[];
}

export const EMPTY_CHROME: SiteChrome = { languages: {}, logo_media_id: null, social_links: [] };
export const EMPTY_SEO: SeoDefaults = { languages: {}, share_image_media_id: null };
/** No rules stored: every crawler may read everything. */
export const DEFAULT_ROBOTS: RobotsRules = { rules: [{ user_agent: "*", allow: ["/"], disallow: [] }] };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Stored values, or the defaults when absent or malformed (never a half-read value). */
export function storedChrome(raw: unknown): SiteChrome {
  return isObject(raw) && isObject(raw.languages) && Array.isArray(raw.social_links) ? (raw as unknown as SiteChrome) : EMPTY_CHROME;
}
export function storedSeo(raw: unknown): SeoDefaults {
  return isObject(raw) && isObject(raw.languages) ? (raw as unknown as SeoDefaults) : EMPTY_SEO;
}
export function storedRobots(raw: unknown): RobotsRules {
  return isObject(raw) && Array.isArray(raw.rules) ? (raw as unknown as RobotsRules) : DEFAULT_ROBOTS;
}

/** robots.txt text: one group per rule, and the sitemap's address when the site has one. */
export function robotsText(robots: RobotsRules, sitemapUrl: string | null): string {
  const groups = robots.rules.map((rule) => [`User-agent: ${rule.user_agent}`, ...rule.allow.map((p) => `Allow: ${p}`), ...rule.disallow.map((p) => `Disallow: ${p}`)].join("\n"));
  return `${groups.join("\n\n")}\n${sitemapUrl ? `\nSitemap: ${sitemapUrl}\n` : ""}`;
}
