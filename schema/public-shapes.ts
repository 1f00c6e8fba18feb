import * as v from "valibot";

/** The shapes the public read API answers with (schema/public-api.ts and its route files). */

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
export const RelatedFromItem = v.pipe(
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
export const SyncRecord = v.pipe(
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
export const PublicMenuItem = v.pipe(
  v.strictObject({
    ...menuItemKeys,
    children: v.array(v.strictObject({ ...menuItemKeys, children: v.array(v.strictObject({ ...menuItemKeys, children: v.pipe(v.array(v.unknown()), v.maxLength(0)) })) })),
  }),
  v.title("PublicMenuItem"),
);

export const ChromeMedia = v.nullable(v.strictObject({ id: v.string(), url: v.nullable(v.string()), mime_type: v.string(), width: v.nullable(v.number()), height: v.nullable(v.number()), alt: v.string() }));
const ChromeLinks = v.array(v.strictObject({ label: v.string(), url: v.string() }));
/** GET /v1/_site: what every page of a website shows around its content. */
export const SiteChromeOut = v.pipe(
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
export const PublicComment = v.pipe(v.strictObject({ id: v.string(), author_name: v.string(), body: v.string(), locale: v.string(), created_at: v.string() }), v.title("PublicComment"));

/** A page of the public page tree (GET /v1/_pages). */
export const PublicPageNode = v.pipe(
  v.strictObject({ id: v.string(), slug: v.nullable(v.string()), title: v.nullable(v.string()), locale: v.string(), path: v.string(), parent_id: v.pipe(v.nullable(v.string()), v.description("The parent page's translation group id")) }),
  v.title("PublicPageNode"),
);
export const PublicPagePlace = v.pipe(
  v.strictObject({ path: v.string(), parent_id: v.nullable(v.string()), breadcrumbs: v.array(v.strictObject({ id: v.string(), title: v.nullable(v.string()), path: v.string() })) }),
  v.title("PublicPagePlace"),
);

export const Locale = v.pipe(v.string(), v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/));
export const ModelPath = v.strictObject({ model: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/)) });
