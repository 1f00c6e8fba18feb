import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { maxCharacters, noControls, readableName, wellFormed } from "./text";

const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Lang = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
/**
 * Text a website shows as it is (`/v1/_site`): 1..max characters (code points), well-formed, no
 * control characters; a name or label is also readable (no bidi control or invisible character).
 */
const Text = (max: number) => v.pipe(v.string(), v.minLength(1), ...maxCharacters(max), wellFormed(), noControls());
const Name = (max: number) => v.pipe(v.string(), v.minLength(1), ...maxCharacters(max), readableName());
const Link = v.strictObject({ label: Name(120), url: v.pipe(Text(2000), v.description("An https URL or a path on the site (/…)")) });
const MediaId = v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(64)));
/** A robots.txt value: one line, no control characters. */
const RobotsPath = v.pipe(v.string(), v.regex(/^\/[^\s#]{0,499}$/, "a path starting with /, without spaces or #"));

export const PutSiteChromeBody = v.strictObject({
  languages: v.record(
    Lang,
    v.strictObject({
      site_name: Name(120),
      tagline: v.optional(v.nullable(Text(300))),
      header_links: v.optional(v.pipe(v.array(Link), v.maxLength(20))),
      footer_links: v.optional(v.pipe(v.array(Link), v.maxLength(40))),
    }),
  ),
  logo_media_id: v.optional(MediaId),
  social_links: v.optional(v.pipe(v.array(v.strictObject({ network: v.picklist(["mastodon", "bluesky", "github", "linkedin", "instagram", "youtube", "facebook", "x", "threads", "rss", "other"]), url: Text(2000) })), v.maxLength(20))),
  expected_revision: v.optional(Revision),
});

export const PutSeoSettingsBody = v.strictObject({
  languages: v.record(Lang, v.strictObject({ title_template: v.pipe(Text(200), v.description('"%s" stands for the page title, e.g. "%s · Harbour Notes"')), description: v.optional(v.nullable(Text(500))) })),
  share_image_media_id: v.optional(MediaId),
  expected_revision: v.optional(Revision),
});

export const PutRobotsRulesBody = v.strictObject({
  rules: v.pipe(
    v.array(v.strictObject({ user_agent: v.pipe(v.string(), v.regex(/^[A-Za-z0-9*._-]{1,100}$/)), allow: v.optional(v.pipe(v.array(RobotsPath), v.maxLength(50))), disallow: v.optional(v.pipe(v.array(RobotsPath), v.maxLength(50))) })),
    v.minLength(1),
    v.maxLength(20),
  ),
  expected_revision: v.optional(Revision),
});

const Links = v.array(v.object({ label: v.string(), url: v.string() }));
const ChromeOut = v.object({ languages: v.record(v.string(), v.object({ site_name: v.string(), tagline: v.nullable(v.string()), header_links: Links, footer_links: Links })), logo_media_id: v.nullable(v.string()), social_links: v.array(v.object({ network: v.string(), url: v.string() })) });
const SeoOut = v.object({ languages: v.record(v.string(), v.object({ title_template: v.string(), description: v.nullable(v.string()) })), share_image_media_id: v.nullable(v.string()) });
const RobotsOut = v.object({ rules: v.array(v.object({ user_agent: v.string(), allow: v.array(v.string()), disallow: v.array(v.string()) })) });
const SettingsRevision = v.pipe(v.number(), v.description("The site settings' revision: send it back as expected_revision"));
const answer = (key: string, value: v.GenericSchema) => v.object({ [key]: value, revision: SettingsRevision, replayed: v.optional(v.boolean()) });
/** A read answers what the PUT accepts (send it back with `expected_revision: revision`). */
const current = (key: string, value: v.GenericSchema, extra: v.ObjectEntries = {}) => v.object({ [key]: value, revision: SettingsRevision, ...extra });
const errors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited", "missing_permission", "settings_changed"] as const;
const readErrors = ["unauthorized", "creator_unauthorized", "rate_limited"] as const;

/** Site Chrome defaults, SEO defaults and robots rules (docs/site-chrome.md); public at GET /v1/_site and /robots.txt. */
export const siteChromeRoutes: readonly RouteSpec[] = [
  // Reads, scoped like getCorsSettings: content:read (public data anyway: GET /v1/_site, /robots.txt).
  { operationId: "getSiteChrome", method: "get", path: "/settings/chrome", summary: "The Site Chrome defaults as putSiteChrome takes them (empty languages when none are set)", scope: "content:read", response: current("chrome", ChromeOut), errors: readErrors },
  { operationId: "getSeoSettings", method: "get", path: "/settings/seo", summary: "The SEO defaults as putSeoSettings takes them (empty languages when none are set)", scope: "content:read", response: current("seo", SeoOut), errors: readErrors },
  {
    operationId: "getRobotsRules",
    method: "get",
    path: "/settings/robots",
    summary: "The robots rules served at /robots.txt (without stored rules: everything allowed to every crawler), and whether it names a sitemap",
    scope: "content:read",
    response: current("robots", RobotsOut, { sitemap_path: v.pipe(v.nullable(v.string()), v.description("The sitemap robots.txt names (on the host asked), or null: the site has no sitemap")) }),
    errors: readErrors,
  },
  {
    operationId: "putSiteChrome",
    destructive: true,
    method: "put",
    path: "/settings/chrome",
    summary: "Replace the Site Chrome defaults: per-language site name, tagline, header and footer links; logo (a media item); social links",
    scope: "settings:write",
    idempotent: true,
    body: PutSiteChromeBody,
    response: answer("chrome", ChromeOut),
    errors,
  },
  {
    operationId: "putSeoSettings",
    destructive: true,
    method: "put",
    path: "/settings/seo",
    summary: "Replace the SEO defaults: per-language title template and description; default share image (a media item)",
    scope: "settings:write",
    idempotent: true,
    body: PutSeoSettingsBody,
    response: answer("seo", SeoOut),
    errors,
  },
  {
    operationId: "putRobotsRules",
    destructive: true,
    method: "put",
    path: "/settings/robots",
    summary: "Replace the robots rules served at /robots.txt on the site's hosts",
    scope: "settings:write",
    idempotent: true,
    body: PutRobotsRulesBody,
    response: answer("robots", RobotsOut),
    errors,
  },
];
