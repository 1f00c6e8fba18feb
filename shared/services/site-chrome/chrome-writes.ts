import type { CompiledQuery } from "kysely";
import type { SiteSettings } from "../../content/site-settings";
import { AppError } from "../../errors";
import { isMenuUrl } from "../menus/menu-items";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import type { ChromeLink, RobotsRules, SeoDefaults, SiteChrome } from "./chrome-settings";
import { checkRevision, requireSettings, settingsUpdate } from "../settings/settings-revision";

/**
 * Site Chrome defaults, SEO defaults and robots rules (spec 2: `settings:write` covers them;
 * issue #29 item 4; docs/site-chrome.md). Each PUT replaces its whole value in the site settings,
 * bumps the settings revision (`expected_revision`, 409 `settings_changed`) and purges the site's
 * cached answers (GET /v1/_site and /robots.txt carry the site tag). Needs `site:settings`.
 */

type Issue = { path: string; message: string };
type Setting = "chrome" | "seo" | "robots" | "comments";

function languageIssues(ctx: LifecycleContext, languages: readonly string[], path: string): Issue[] {
  return languages.filter((l) => !ctx.site.languages.includes(l)).map((l) => ({ path: `${path}.${l}`, message: `"${l}" is not a language of the site` }));
}

function linkIssues(links: readonly ChromeLink[], path: string): Issue[] {
  return links.flatMap((link, i) => (isMenuUrl(link.url) ? [] : [{ path: `${path}[${i}].url`, message: "an https URL or a path on the site (/…)" }]));
}

/** A media item of this site (the logo, the share image). */
async function mediaIssue(ctx: LifecycleContext, id: string | null, path: string): Promise<Issue[]> {
  if (id === null) return [];
  const row = await ctx.d1.prepare("SELECT 1 AS ok FROM media WHERE site_id = ? AND id = ?").bind(ctx.site.id, id).first();
  return row ? [] : [{ path, message: `"${id}" is not a media item of this site` }];
}

/** The statements and answer of replacing one setting (also the comment settings, docs/comments.md). */
export function writeSetting<K extends Setting, V>(ctx: LifecycleContext, key: K, value: V, action: string): WritePlan<{ [P in K]: V } & { revision: number }> {
  const site = ctx.site;
  const after: SiteSettings = { ...site.settings, [key]: value };
  const revision = site.settings_revision + 1;
  const statements: CompiledQuery[] = [settingsUpdate(ctx, after)];
  return {
    statements,
    answer: { [key]: value, revision } as { [P in K]: V } & { revision: number },
    events: [{ name: "site.settings_updated", payload: { revision, changed: [key] } }],
    purgeTags: [cacheTag.site(site.id)],
    audit: { action, targetKind: "site", targetId: site.id, details: { [key]: value } },
  };
}

export interface PutSiteChromeInput {
  languages: Record<string, { site_name: string; tagline?: string | null; header_links?: ChromeLink[]; footer_links?: ChromeLink[] }>;
  logo_media_id?: string | null;
  social_links?: { network: string; url: string }[];
  expected_revision?: number;
}

/** PUT /settings/chrome */
export async function putSiteChrome(ctx: LifecycleContext, input: PutSiteChromeInput): Promise<WritePlan<{ chrome: SiteChrome; revision: number }>> {
  requireSettings(ctx, "Site Chrome");
  checkRevision(ctx, input.expected_revision);
  const issues: Issue[] = [...languageIssues(ctx, Object.keys(input.languages), "languages")];
  for (const [lang, value] of Object.entries(input.languages)) {
    issues.push(...linkIssues(value.header_links ?? [], `languages.${lang}.header_links`), ...linkIssues(value.footer_links ?? [], `languages.${lang}.footer_links`));
  }
  (input.social_links ?? []).forEach((link, i) => {
    if (!link.url.startsWith("https://") || !isMenuUrl(link.url)) issues.push({ path: `social_links[${i}].url`, message: "an https URL" });
  });
  issues.push(...(await mediaIssue(ctx, input.logo_media_id ?? null, "logo_media_id")));
  if (issues.length > 0) throw new AppError("invalid_request", "The Site Chrome settings are not valid.", { issues });
  const chrome: SiteChrome = {
    languages: Object.fromEntries(
      Object.entries(input.languages).map(([lang, v]) => [lang, { site_name: v.site_name, tagline: v.tagline ?? null, header_links: v.header_links ?? [], footer_links: v.footer_links ?? [] }]),
    ),
    logo_media_id: input.logo_media_id ?? null,
    social_links: input.social_links ?? [],
  };
  return writeSetting(ctx, "chrome", chrome, "site.chrome_update");
}

export interface PutSeoSettingsInput {
  languages: Record<string, { title_template: string; description?: string | null }>;
  share_image_media_id?: string | null;
  expected_revision?: number;
}

/** PUT /settings/seo */
export async function putSeoSettings(ctx: LifecycleContext, input: PutSeoSettingsInput): Promise<WritePlan<{ seo: SeoDefaults; revision: number }>> {
  requireSettings(ctx, "SEO settings");
  checkRevision(ctx, input.expected_revision);
  const issues: Issue[] = [...languageIssues(ctx, Object.keys(input.languages), "languages")];
  for (const [lang, value] of Object.entries(input.languages)) {
    if ((value.title_template.match(/%s/g) ?? []).length !== 1) issues.push({ path: `languages.${lang}.title_template`, message: 'holds "%s" (the page title) exactly once' });
  }
  issues.push(...(await mediaIssue(ctx, input.share_image_media_id ?? null, "share_image_media_id")));
  if (issues.length > 0) throw new AppError("invalid_request", "The SEO settings are not valid.", { issues });
  const seo: SeoDefaults = {
    languages: Object.fromEntries(Object.entries(input.languages).map(([lang, v]) => [lang, { title_template: v.title_template, description: v.description ?? null }])),
    share_image_media_id: input.share_image_media_id ?? null,
  };
  return writeSetting(ctx, "seo", seo, "site.seo_update");
}

export interface PutRobotsRulesInput {
  rules: { user_agent: string; allow?: string[]; disallow?: string[] }[];
  expected_revision?: number;
}

/** PUT /settings/robots */
export async function putRobotsRules(ctx: LifecycleContext, input: PutRobotsRulesInput): Promise<WritePlan<{ robots: RobotsRules; revision: number }>> {
  requireSettings(ctx, "robots rules");
  checkRevision(ctx, input.expected_revision);
  const agents = input.rules.map((r) => r.user_agent.toLowerCase());
  const issues: Issue[] = agents.flatMap((agent, i) => (agents.indexOf(agent) !== i ? [{ path: `rules[${i}].user_agent`, message: "a user agent is named twice" }] : []));
  if (issues.length > 0) throw new AppError("invalid_request", "The robots rules are not valid.", { issues });
  const robots: RobotsRules = { rules: input.rules.map((r) => ({ user_agent: r.user_agent, allow: r.allow ?? [], disallow: r.disallow ?? [] })) };
  return writeSetting(ctx, "robots", robots, "site.robots_update");
}
