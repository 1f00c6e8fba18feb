import * as v from "valibot";
import type { Surface } from "./contract";
import { Page } from "./common";

/**
 * A public `limit`: a well-formed positive whole number of any length (spec 1: "asking for more
 * returns the cap", so `10000000` or a 40-digit value is the cap, never a 400); anything else
 * (zero, a sign, a leading zero, a decimal point, letters) is 400 `invalid_request`.
 */
export const PUBLIC_LIMIT = /^[1-9][0-9]*$/;

const RelationRef = v.pipe(
  v.strictObject({ instance_id: v.string(), model: v.string(), slug: v.nullable(v.string()), display: v.nullable(v.string()) }),
  v.title("RelationRef"),
);

const OriginalRef = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.description("Object id of the original served.")),
    lang: v.pipe(v.nullable(v.string()), v.description("Language of the override served, or null for the default original (the item's own file).")),
    url: v.string(),
    mime_type: v.string(),
    byte_length: v.number(),
    width: v.nullable(v.number()),
    height: v.nullable(v.number()),
  }),
  v.title("OriginalRef"),
  v.description("The item language's original (spec 2 rule 7): its override, else the site's fallback order, else the default original; pinned when the version was published."),
);

const MediaRef = v.pipe(
  v.strictObject({
    id: v.string(),
    url: v.string(),
    kind: v.string(),
    mime_type: v.string(),
    file_name: v.string(),
    width: v.nullable(v.number()),
    height: v.nullable(v.number()),
    alt: v.string(),
    focal: v.nullable(v.strictObject({ x: v.number(), y: v.number() })),
    loading: v.string(),
    fetch_priority: v.string(),
    original: v.optional(OriginalRef),
  }),
  v.title("MediaRef"),
);

/** A published item. New optional keys may appear inside an item within v1. */
export const PublicItem = v.pipe(
  v.object({
    id: v.string(),
    slug: v.nullable(v.string()),
    model: v.string(),
    locale: v.string(),
    version: v.string(),
    published_at: v.pipe(v.string(), v.description("When this language was last published.")),
    first_published_at: v.pipe(v.string(), v.description("When the item was first published in any language; lists are ordered by it, then by id.")),
    fields: v.record(v.string(), v.unknown()),
    relations: v.record(v.string(), v.array(RelationRef)),
    media: v.record(v.string(), v.array(MediaRef)),
  }),
  v.title("PublicItem"),
);

/** A published item pointing at another (GET /v1/{model}/{slug}/related-from). */
const RelatedFromItem = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.description("The source's served instance id")),
    model: v.string(),
    locale: v.string(),
    slug: v.nullable(v.string()),
    display: v.pipe(v.nullable(v.string()), v.description("The source's title; null when its title field is private")),
    field: v.pipe(v.string(), v.description("The source's relation field holding the link")),
    first_published_at: v.string(),
  }),
  v.title("RelatedFromItem"),
);

/** One record of a sync page (GET /v1/_sync). */
const SyncRecord = v.pipe(
  v.variant("type", [
    v.strictObject({ type: v.literal("entry"), item: PublicItem }),
    v.strictObject({ type: v.literal("deleted"), id: v.pipe(v.string(), v.description("The item language's id (instance)")), model: v.nullable(v.string()), locale: v.nullable(v.string()) }),
    v.strictObject({
      type: v.literal("media"),
      id: v.string(),
      kind: v.nullable(v.string()),
      mime_type: v.nullable(v.string()),
      width: v.nullable(v.number()),
      height: v.nullable(v.number()),
      files: v.pipe(v.array(v.string()), v.description("Public addresses of the media item's pinned files")),
    }),
    v.strictObject({ type: v.literal("media_deleted"), id: v.string() }),
  ]),
  v.title("SyncRecord"),
);

const menuItemKeys = {
  label: v.string(),
  url: v.pipe(v.nullable(v.string()), v.description("An https URL or a site path; null for an entry target")),
  target: v.nullable(v.strictObject({ id: v.string(), model: v.string(), slug: v.nullable(v.string()), locale: v.string() })),
};
/** One item of a public menu (GET /v1/_menus/{name}); menus nest at most three levels. */
const PublicMenuItem = v.pipe(
  v.strictObject({
    ...menuItemKeys,
    children: v.array(v.strictObject({ ...menuItemKeys, children: v.array(v.strictObject({ ...menuItemKeys, children: v.pipe(v.array(v.unknown()), v.maxLength(0)) })) })),
  }),
  v.title("PublicMenuItem"),
);

const ChromeMedia = v.nullable(v.strictObject({ id: v.string(), url: v.nullable(v.string()), mime_type: v.string(), width: v.nullable(v.number()), height: v.nullable(v.number()), alt: v.string() }));
const ChromeLinks = v.array(v.strictObject({ label: v.string(), url: v.string() }));
/** GET /v1/_site: what every page of a website shows around its content. */
const SiteChromeOut = v.pipe(
  v.strictObject({
    locale: v.string(),
    name: v.string(),
    tagline: v.nullable(v.string()),
    logo: ChromeMedia,
    header_links: ChromeLinks,
    footer_links: ChromeLinks,
    social_links: v.array(v.strictObject({ network: v.string(), url: v.string() })),
    seo: v.strictObject({ title_template: v.string(), description: v.nullable(v.string()), share_image: ChromeMedia }),
  }),
  v.title("SiteChrome"),
);

/** An approved comment as the public API serves it (docs/comments.md). */
const PublicComment = v.pipe(v.strictObject({ id: v.string(), author_name: v.string(), body: v.string(), locale: v.string(), created_at: v.string() }), v.title("PublicComment"));

/** A page of the public page tree (GET /v1/_pages). */
const PublicPageNode = v.pipe(
  v.strictObject({ id: v.string(), slug: v.nullable(v.string()), title: v.nullable(v.string()), locale: v.string(), path: v.string(), parent_id: v.pipe(v.nullable(v.string()), v.description("The parent page's translation group id")) }),
  v.title("PublicPageNode"),
);
const PublicPagePlace = v.pipe(
  v.strictObject({ path: v.string(), parent_id: v.nullable(v.string()), breadcrumbs: v.array(v.strictObject({ id: v.string(), title: v.nullable(v.string()), path: v.string() })) }),
  v.title("PublicPagePlace"),
);

const Locale = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
const ModelPath = v.strictObject({ model: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/)) });

/** The public read API (spec 1). The router's own parsers live in workers/public/params.ts. */
export const publicSurface: Surface = {
  title: "Driftwood public read API",
  version: "1",
  description: "Published content of the site that owns the Host. Every refusal of a thing is the same 404.",
  basePath: "",
  security: { name: "siteToken", scheme: { type: "http", scheme: "bearer", description: "dw_site_… token for private models" } },
  routes: [
    {
      operationId: "health",
      method: "get",
      path: "/health",
      summary: "Whether the host serves a site",
      response: v.strictObject({ ok: v.literal(true), site: v.string() }),
      errors: ["not_found"],
    },
    {
      operationId: "listItems",
      method: "get",
      path: "/v1/{model}",
      summary: "List published items of one model",
      params: ModelPath,
      query: v.strictObject({
        locale: v.optional(Locale),
        limit: v.optional(v.pipe(v.string(), v.regex(PUBLIC_LIMIT), v.description("1 or more; default 20; more than 100 gives 100"))),
        cursor: v.optional(v.string()),
        order: v.optional(v.picklist(["asc", "desc", "manual"])),
        relation: v.optional(v.array(v.pipe(v.string(), v.description("<field>:<instance id>")))),
        tag: v.optional(v.array(v.pipe(v.string(), v.description("<field>:<target slug>")))),
        fields: v.optional(v.pipe(v.string(), v.description("comma-separated field keys the answer keeps in fields, relations and media (at most 50); a private or unknown key is 400 invalid_request"))),
      }),
      response: v.strictObject({ data: v.array(PublicItem), page: Page }),
      errors: ["invalid_request", "public_filter_too_many", "not_found"],
    },
    {
      operationId: "getItem",
      method: "get",
      path: "/v1/{model}/{slug}",
      summary: "One published item by slug",
      params: v.strictObject({ model: v.string(), slug: v.string() }),
      query: v.strictObject({ locale: v.optional(Locale), preview: v.optional(v.string()), fields: v.optional(v.pipe(v.string(), v.description("comma-separated field keys the answer keeps in fields, relations and media (at most 50); a private or unknown key is 400 invalid_request"))), }),
      response: v.strictObject({ data: PublicItem }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "listItemRelatedFrom",
      method: "get",
      path: "/v1/{model}/{slug}/related-from",
      summary: "Published items (of models the reader may read) whose served relations point at this item, newest first",
      params: v.strictObject({ model: v.string(), slug: v.string() }),
      query: v.strictObject({
        locale: v.optional(Locale),
        field: v.optional(v.pipe(v.string(), v.description("Only links through relation fields with this key"))),
        limit: v.optional(v.pipe(v.string(), v.regex(PUBLIC_LIMIT), v.description("1 or more; default 20; more than 100 gives 100"))),
        cursor: v.optional(v.string()),
      }),
      response: v.strictObject({ data: v.array(RelatedFromItem), page: Page }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "listRichBlocks",
      method: "get",
      path: "/v1/_rich-blocks",
      summary: "Rich-text block definitions of active plugins",
      response: v.strictObject({ data: v.array(v.record(v.string(), v.unknown())) }),
      errors: ["not_found"],
    },
    {
      operationId: "listEmbeds",
      method: "get",
      path: "/v1/_embeds",
      summary: "Allowed embed origins",
      response: v.strictObject({ data: v.strictObject({ providers: v.array(v.string()), origins: v.array(v.string()) }) }),
      errors: ["not_found"],
    },
    {
      operationId: "listPublicRedirects",
      method: "get",
      path: "/v1/_redirects",
      summary: "Every redirect rule of the site, for a website to apply at its edge (cacheable; purged when a rule changes; docs/redirects.md)",
      response: v.strictObject({ data: v.array(v.strictObject({ source: v.string(), target: v.nullable(v.string()), status: v.number() })) }),
      errors: ["not_found"],
    },
    {
      operationId: "resolveRedirect",
      method: "get",
      path: "/v1/_redirects/resolve",
      summary: "What one address resolves to: the first rule's status and the final location after chains (status null: no rule)",
      query: v.strictObject({ path: v.pipe(v.string(), v.minLength(1), v.maxLength(512), v.startsWith("/")) }),
      response: v.strictObject({ data: v.strictObject({ path: v.string(), status: v.nullable(v.number()), location: v.nullable(v.string()), hops: v.number() }) }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "search",
      method: "get",
      path: "/v1/_search",
      summary: "Search published content (docs/search.md)",
      query: v.strictObject({
        q: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
        locale: v.optional(Locale),
        models: v.optional(v.pipe(v.string(), v.description("comma-separated model slugs, at most 16"))),
        mode: v.optional(v.picklist(["words", "stems", "parts"])),
        limit: v.optional(v.pipe(v.string(), v.regex(PUBLIC_LIMIT), v.description("default 20; more than 50 gives 50"))),
        cursor: v.optional(v.string()),
      }),
      response: v.strictObject({ data: v.array(v.strictObject({ item: PublicItem, score: v.number(), model: v.string() })), page: Page }),
      errors: ["invalid_request", "search_off", "not_found"],
    },
    {
      operationId: "suggest",
      method: "get",
      path: "/v1/_search/suggest",
      summary: "Up to 10 suggestions, title matches first",
      query: v.strictObject({ q: v.pipe(v.string(), v.minLength(1), v.maxLength(200)), locale: v.optional(Locale), models: v.optional(v.string()) }),
      response: v.strictObject({ data: v.array(v.strictObject({ text: v.string(), model: v.string(), slug: v.nullable(v.string()), instance_id: v.string() })) }),
      errors: ["invalid_request", "search_off", "not_found"],
    },
    {
      operationId: "sync",
      method: "get",
      path: "/v1/_sync",
      summary:
        "Incremental sync (docs/sync.md): without a cursor, a paged snapshot of every permitted published item language and public media item; with next_sync_cursor, the ordered changes since. Follow next_cursor while it is set; keep next_sync_cursor. reset: true means start again without a cursor",
      query: v.strictObject({
        cursor: v.optional(v.pipe(v.string(), v.description("next_cursor or next_sync_cursor of an earlier answer, unchanged"))),
        limit: v.optional(v.pipe(v.string(), v.regex(PUBLIC_LIMIT), v.description("records per page; default 100; more than 200 gives 200"))),
      }),
      response: v.strictObject({ data: v.array(SyncRecord), reset: v.boolean(), next_cursor: v.nullable(v.string()), next_sync_cursor: v.nullable(v.string()) }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "runSavedQuery",
      method: "get",
      path: "/v1/_queries/{name}",
      summary: "A saved query's list (docs/saved-queries.md): the stored model, filters, order, fields and page size; a private model's query needs a token naming it",
      params: v.strictObject({ name: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/)) }),
      query: v.strictObject({ locale: v.optional(Locale), cursor: v.optional(v.string()) }),
      response: v.strictObject({ data: v.array(PublicItem), page: Page }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "getMenu",
      method: "get",
      path: "/v1/_menus/{name}",
      summary: "A menu in one language (docs/menus.md): entry targets resolved to their published items; an unpublished or trashed target is left out with its children",
      params: v.strictObject({ name: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/)) }),
      query: v.strictObject({ locale: v.optional(Locale) }),
      response: v.strictObject({ data: v.strictObject({ name: v.string(), locale: v.string(), items: v.array(PublicMenuItem) }) }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "listPages",
      method: "get",
      path: "/v1/_pages",
      summary: "The published pages in one language with their paths (docs/pages.md): each page in the first language of the chain it is published in; a page under an unpublished parent is left out",
      query: v.strictObject({ locale: v.optional(Locale) }),
      response: v.strictObject({ data: v.array(PublicPageNode) }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "getPageByPath",
      method: "get",
      path: "/v1/_pages/resolve",
      summary: "The published page at a path (/about/team), as GET /v1/page/{slug} answers it, with its place in the tree (docs/pages.md)",
      query: v.strictObject({ path: v.pipe(v.string(), v.description("/ then the slugs from the top page down")), locale: v.optional(Locale) }),
      response: v.strictObject({ data: PublicItem, page: PublicPagePlace }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "getCommentChallenge",
      method: "get",
      path: "/v1/_comments/challenge",
      summary: "A proof-of-work challenge for one comment (docs/comments.md): find a nonce (1 to 64 letters and digits) such that SHA-256(challenge + \":\" + nonce) starts with `difficulty` zero bits; 404 while comments are off",
      response: v.strictObject({ data: v.strictObject({ challenge: v.string(), difficulty: v.number(), expires_at: v.string() }) }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "listComments",
      method: "get",
      path: "/v1/{model}/{slug}/comments",
      summary: "Approved comments of a published item, oldest first (docs/comments.md); 404 when the model takes no comments",
      params: v.strictObject({ model: v.string(), slug: v.string() }),
      query: v.strictObject({ locale: v.optional(Locale), limit: v.optional(v.pipe(v.string(), v.regex(PUBLIC_LIMIT), v.description("default 50; more than 100 gives 100"))), cursor: v.optional(v.string()) }),
      response: v.strictObject({ data: v.array(PublicComment), page: Page }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "postComment",
      method: "post",
      path: "/v1/{model}/{slug}/comments",
      summary: "A reader's comment on a published item (docs/comments.md): a solved challenge of GET /v1/_comments/challenge, used once; stored pending unless the site publishes comments at once; rate-limited per client address",
      params: v.strictObject({ model: v.string(), slug: v.string() }),
      query: v.strictObject({ locale: v.optional(Locale) }),
      body: v.strictObject({ author_name: v.pipe(v.string(), v.minLength(1), v.maxLength(80)), body: v.pipe(v.string(), v.minLength(1), v.description("at most the site's max_length characters; line breaks kept")), challenge: v.string(), nonce: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,64}$/)) }),
      status: 201,
      response: v.strictObject({ data: v.strictObject({ id: v.string(), status: v.picklist(["pending", "approved"]), created_at: v.string() }) }),
      errors: ["invalid_request", "not_found", "comment_challenge_invalid", "rate_limited", "payload_too_large"],
    },
    {
      operationId: "getItemSeo",
      method: "get",
      path: "/v1/{model}/{slug}/seo",
      summary: "An item's SEO for a page head (docs/site-chrome.md, \"Per-item SEO\"): its own seo component (title, description, share_image, noindex) merged over the site's SEO defaults of the language",
      params: v.strictObject({ model: v.string(), slug: v.string() }),
      query: v.strictObject({ locale: v.optional(Locale) }),
      response: v.strictObject({
        data: v.strictObject({
          locale: v.string(),
          title: v.pipe(v.string(), v.description("The title template with the item's SEO title (else its title) in place of %s")),
          description: v.nullable(v.string()),
          share_image: ChromeMedia,
          noindex: v.boolean(),
          canonical_path: v.pipe(v.nullable(v.string()), v.description("From the model's site_path; null without one")),
        }),
      }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "getSite",
      method: "get",
      path: "/v1/_site",
      summary: "Site Chrome defaults and SEO defaults in one language (docs/site-chrome.md)",
      query: v.strictObject({ locale: v.optional(Locale) }),
      response: v.strictObject({ data: SiteChromeOut }),
      errors: ["invalid_request", "not_found"],
    },
    {
      operationId: "getRobots",
      method: "get",
      path: "/robots.txt",
      summary: "The site's robots rules (docs/site-chrome.md)",
      response: v.pipe(v.string(), v.description("robots.txt text")),
      responseType: "text/plain",
      errors: ["not_found"],
    },
    {
      operationId: "getSitemap",
      method: "get",
      path: "/sitemap.xml",
      summary: "The sitemap index (sitemaps.org): its parts of at most 5,000 website addresses of published items of public models with a site_path (docs/sitemap.md); none: 404",
      response: v.pipe(v.string(), v.description("sitemapindex XML")),
      responseType: "application/xml",
      errors: ["not_found"],
    },
    {
      operationId: "getSitemapPart",
      method: "get",
      path: "/sitemap-{part}.xml",
      summary: "One sitemap part: at most 5,000 addresses with lastmod and language alternates (xhtml:link hreflang); never a redirected address",
      params: v.strictObject({ part: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,5}$/)) }),
      response: v.pipe(v.string(), v.description("urlset XML")),
      responseType: "application/xml",
      errors: ["not_found"],
    },
    {
      operationId: "getMediaFile",
      method: "get",
      path: "/media/{id}/{object}/{file}",
      summary:
        "A media file's bytes (docs/media.md, \"Public delivery\"): served while published content pins the object (or the site's library is public, for an item's current file); Range (one range) → 206, unsatisfiable → 416, If-None-Match → 304; HEAD as GET",
      params: v.strictObject({
        id: v.pipe(v.string(), v.description("media id (med_…)")),
        object: v.pipe(v.string(), v.description("object id (obj_…): the stored bytes, immutable")),
        file: v.pipe(v.string(), v.description("the file name the item's url carries; another name is a 404")),
      }),
      response: v.pipe(v.string(), v.description("The stored bytes, with the stored Content-Type")),
      responseType: "application/octet-stream",
      errors: ["not_found"],
    },
  ],
};
