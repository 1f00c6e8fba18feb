import { translationGroupMap } from "./php-serialized";
import { child, childrenNamed, textOf, type XmlElement } from "./xml";

/**
 * What a parse step keeps of each child of `<channel>` (docs/imports.md, "What is read"): authors,
 * categories, tags and items (posts, pages, attachments, anything else). Element names are read
 * with the prefixes the file declares for the WXR namespaces, mapped to `wp`, `content`, `excerpt`
 * and `dc` (see {@link canonicalPrefixes}).
 */
/** Polylang's own taxonomies: markers of languages and translation groups, read, never imported as items. */
export const POLYLANG_TAXONOMIES = ["language", "term_language", "post_translations", "term_translations"] as const;

export type StagedKind = "author" | "category" | "tag" | "post" | "page" | "attachment" | "other";

export interface StagedItem {
  kind: StagedKind;
  source_key: string;
  payload: WxrAuthor | WxrTerm | WxrPost | { element: string; translations?: Record<string, string>; too_large?: true };
}

export interface WxrAuthor {
  login: string;
  email: string;
  display_name: string;
}

export interface WxrTerm {
  term_id: string;
  slug: string;
  name: string;
  parent: string;
  description: string;
}

export interface WxrPost {
  post_id: string;
  post_type: string;
  title: string;
  slug: string;
  status: string;
  content: string;
  excerpt: string;
  creator: string;
  post_date_gmt: string;
  post_parent: string;
  menu_order: number;
  categories: string[];
  tags: string[];
  /** Polylang's language of the item (`<category domain="language">`), when the export has one. */
  language: string | null;
  /** Polylang's translation group (`<category domain="post_translations">`), when the export has one. */
  translation_group: string | null;
  attachment_url: string;
  /** An attachment's alt text (`_wp_attachment_image_alt`); absent in items staged before it was read. */
  alt_text?: string;
  thumbnail_id: string;
  comments: number;
}

const CANONICAL: readonly [RegExp, string][] = [
  [/^https?:\/\/wordpress\.org\/export\/1\.\d+\/$/, "wp"],
  [/^https?:\/\/wordpress\.org\/export\/1\.\d+\/excerpt\/$/, "excerpt"],
  [/^https?:\/\/purl\.org\/rss\/1\.0\/modules\/content\/$/, "content"],
  [/^https?:\/\/purl\.org\/dc\/elements\/1\.1\/$/, "dc"],
];

/** The file's own prefixes of the WXR namespaces, mapped to the usual names (a file may say `wordpress:` for `wp:`). */
export function canonicalPrefixes(namespaces: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [prefix, uri] of Object.entries(namespaces)) {
    const found = CANONICAL.find(([pattern]) => pattern.test(uri));
    if (found) out[prefix] = found[1];
  }
  return out;
}

/** Renames `prefix:name` elements to their canonical prefix, in place, iteratively. */
export function canonicalise(element: XmlElement, prefixes: Record<string, string>): XmlElement {
  const stack: XmlElement[] = [element];
  while (stack.length > 0) {
    const e = stack.pop() as XmlElement;
    const colon = e.name.indexOf(":");
    if (colon > 0) {
      const canonical = prefixes[e.name.slice(0, colon)];
      if (canonical) e.name = `${canonical}:${e.name.slice(colon + 1)}`;
    }
    for (const c of e.children) if (typeof c !== "string") stack.push(c);
  }
  return element;
}

const t = (e: XmlElement, name: string) => textOf(child(e, name)).trim();

/** One child of `<channel>` as a staged item, or null for the channel's own fields (title, link…). */
export function stagedItem(e: XmlElement): StagedItem | null {
  switch (e.name) {
    case "wp:author": {
      const login = t(e, "wp:author_login");
      return { kind: "author", source_key: login, payload: { login, email: t(e, "wp:author_email"), display_name: t(e, "wp:author_display_name") || login } };
    }
    case "wp:category": {
      const slug = t(e, "wp:category_nicename");
      return { kind: "category", source_key: slug, payload: { term_id: t(e, "wp:term_id"), slug, name: t(e, "wp:cat_name") || slug, parent: t(e, "wp:category_parent"), description: t(e, "wp:category_description") } };
    }
    case "wp:tag": {
      const slug = t(e, "wp:tag_slug");
      return { kind: "tag", source_key: slug, payload: { term_id: t(e, "wp:term_id"), slug, name: t(e, "wp:tag_name") || slug, parent: "", description: t(e, "wp:tag_description") } };
    }
    case "wp:term": {
      const taxonomy = t(e, "wp:term_taxonomy");
      const slug = t(e, "wp:term_slug");
      const term: WxrTerm = { term_id: t(e, "wp:term_id"), slug, name: t(e, "wp:term_name") || slug, parent: t(e, "wp:term_parent"), description: t(e, "wp:term_description") };
      if (taxonomy === "category") return { kind: "category", source_key: slug, payload: term };
      if (taxonomy === "post_tag") return { kind: "tag", source_key: slug, payload: term };
      // Polylang's group of a category or tag and its translations: language slug → term id (docs/imports.md, "Languages").
      if (taxonomy === "term_translations") return { kind: "other", source_key: `${taxonomy}:${slug}`, payload: { element: `wp:term (${taxonomy})`, translations: translationGroupMap(term.description) } };
      return { kind: "other", source_key: `${taxonomy}:${slug}`, payload: { element: `wp:term (${taxonomy})` } };
    }
    case "item":
      return postItem(e);
    default:
      return null;
  }
}

function postItem(e: XmlElement): StagedItem {
  const type = t(e, "wp:post_type") || "post";
  const terms = childrenNamed(e, "category");
  const domain = (d: string) => terms.filter((c) => c.attrs.domain === d).map((c) => c.attrs.nicename ?? "").filter((s) => s !== "");
  const meta = new Map<string, string>();
  for (const m of childrenNamed(e, "wp:postmeta")) meta.set(t(m, "wp:meta_key"), textOf(child(m, "wp:meta_value")));
  const post: WxrPost = {
    post_id: t(e, "wp:post_id"),
    post_type: type,
    title: t(e, "title"),
    slug: decodeSlug(t(e, "wp:post_name")),
    status: t(e, "wp:status") || "draft",
    content: textOf(child(e, "content:encoded")),
    excerpt: textOf(child(e, "excerpt:encoded")).trim(),
    creator: t(e, "dc:creator"),
    post_date_gmt: t(e, "wp:post_date_gmt"),
    post_parent: t(e, "wp:post_parent"),
    menu_order: Number(t(e, "wp:menu_order")) || 0,
    categories: domain("category"),
    tags: domain("post_tag"),
    language: domain("language")[0] ?? null,
    translation_group: domain("post_translations")[0] ?? null,
    attachment_url: t(e, "wp:attachment_url"),
    alt_text: meta.get("_wp_attachment_image_alt")?.trim() ?? "",
    thumbnail_id: meta.get("_thumbnail_id")?.trim() ?? "",
    comments: childrenNamed(e, "wp:comment").length,
  };
  const kind: StagedKind = type === "post" || type === "page" || type === "attachment" ? type : "other";
  return { kind, source_key: post.post_id, payload: kind === "other" ? { ...post, content: "", element: `item (${type})` } : post };
}

/** WordPress stores non-ASCII slugs percent-encoded (`%e8%bf%9c`); a slug is read back as text. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
