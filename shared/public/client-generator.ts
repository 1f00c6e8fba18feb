import { isToMany, relationKind, type FieldDefinition } from "../../schema/model-definition";
import type { Model } from "../repositories/model-repository";
import type { Site } from "../repositories/site-repository";
import { MODEL_SLUG } from "../services/models/create-model";

/*
 * The client is code that people compile and run: every text that comes from a site (model names,
 * field labels, option values, slugs) goes in only through `literal` (a string literal) or `comment`
 * (the inside of a comment), and identifiers are derived only from slugs that passed validation.
 */

/** A TypeScript string literal of any text (JSON escapes, plus the two line separators JSON leaves raw). */
export function literal(value: string): string {
  return JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Any text made safe inside a comment: cannot close it, cannot end its line. */
export function comment(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]+/g, " ");
}

/** PascalCase type name of a validated model slug ("blog-post" → "BlogPost"). */
function typeName(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Names the client itself declares, which no model type may take. */
const DECLARED = ["SITE", "LOCALES", "Locale", "RelationRef", "MediaRef", "Item", "Page", "Models", "ModelSlug", "RelationFields", "ListOptions", "ItemOptions", "DriftwoodError", "ClientOptions", "createClient", "SyncRecord", "SyncMedia", "SyncPage", "SyncMirror", "SyncResult", "AnyItem", "MenuItem", "ChromeMedia", "SiteChrome"];
const TYPE_SUFFIXES = ["", "Fields", "Relations", "Media", "RelationField"];

/**
 * A distinct type name per model (slugs sorted): the PascalCase slug, or with `Model` (then a number)
 * added when that name, or one of its companion types, is taken ("item" → "ItemModel"; "a-b" and
 * "a--b" both PascalCase to "AB").
 */
function typeNames(models: readonly Model[]): Map<string, string> {
  const used = new Set(DECLARED);
  const names = new Map<string, string>();
  for (const model of models) {
    const base = typeName(model.slug);
    const candidates = [base, `${base}Model`, ...Array.from({ length: models.length }, (_, i) => `${base}Model${i + 2}`)];
    const name = candidates.find((c) => TYPE_SUFFIXES.every((suffix) => !used.has(c + suffix))) ?? base;
    for (const suffix of TYPE_SUFFIXES) used.add(name + suffix);
    names.set(model.id, name);
  }
  return names;
}

const str = literal;

/** The TypeScript type of a served field value. */
function valueType(field: FieldDefinition): string {
  switch (field.type) {
    case "integer":
    case "decimal":
      return "number | null";
    case "boolean":
      return "boolean | null";
    case "location":
      return "{ lat: number; lon: number } | null";
    case "select": {
      const options = (field.options ?? []).map((o) => str(o.value)).join(" | ") || "string";
      return field.multiple ? `Array<${options}> | null` : `${options} | null`;
    }
    // Only inside a component: top-level relations and media are served in `relations` / `media`.
    // Inside, each is served in place as its top-level form is: a list of references.
    case "relation":
      return "RelationRef[]";
    case "media":
      return "MediaRef[]";
    case "component": {
      // Private nested fields are never served, so never named (the snapshot drops them).
      const inner = (field.fields ?? [])
        .filter((f) => !f.private)
        .map((f) => `${str(f.key)}: ${valueType(f)}`)
        .join("; ");
      const shape = `{ ${inner} }`;
      return field.multiple ? `Array<${shape}> | null` : `${shape} | null`;
    }
    default:
      return "string | null";
  }
}

function modelTypes(model: Model, name: string): string {
  const visible = model.fields.filter((f) => !f.private);
  const line = (f: FieldDefinition, type: string) => `  /** ${comment(f.label)} */\n  ${str(f.key)}: ${type};`;
  const fields = visible.filter((f) => f.type !== "relation" && f.type !== "media").map((f) => line(f, valueType(f)));
  // Every relation is served as a list, in its stored order; a to-one kind holds at most one item.
  const relations = visible
    .filter((f) => f.type === "relation")
    .map((f) => `  /** ${comment(f.label)} (${relationKind(f)}${isToMany(relationKind(f)) ? ", ordered" : ", at most one"}${f.hierarchy ? ", parent link" : ""}) */\n  ${str(f.key)}: RelationRef[];`);
  const media = visible.filter((f) => f.type === "media").map((f) => line(f, "MediaRef[]"));
  const relationKeys = visible.filter((f) => f.type === "relation").map((f) => str(f.key)).join(" | ") || "never";
  return [
    `/** Fields of ${comment(model.name)} (${model.slug}). */`,
    `export interface ${name}Fields {\n${fields.join("\n")}\n}`,
    `export interface ${name}Relations {\n${relations.join("\n")}\n}`,
    `export interface ${name}Media {\n${media.join("\n")}\n}`,
    `export type ${name} = Item<${str(model.slug)}, ${name}Fields, ${name}Relations, ${name}Media>;`,
    `export type ${name}RelationField = ${relationKeys};`,
    `export type ${name}FieldKey = keyof ${name}Fields | keyof ${name}Relations | keyof ${name}Media;`,
  ].join("\n");
}

/**
 * A dependency-free TypeScript client for one site, typed by its public models. Regenerated on
 * request, so it follows model changes. Private models and private fields are never named.
 */
export function generatePublicClient(site: Site, models: readonly Model[], generatedAt: string): string {
  // A slug that does not validate has no public address either (schema/public-api.ts ModelPath).
  const publicModels = models.filter((m) => m.is_public && MODEL_SLUG.test(m.slug)).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const names = typeNames(publicModels);
  const nameOf = (m: Model) => names.get(m.id) ?? "";
  const modelMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)};`).join("\n");
  const relationMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)}RelationField;`).join("\n");
  const fieldKeyMap = publicModels.map((m) => `  ${str(m.slug)}: ${nameOf(m)}FieldKey;`).join("\n");
  return `// Driftwood public API client for site ${str(site.slug)}. Generated ${generatedAt}; do not edit.
// Regenerate after a model changes: GET {admin_url}/api/models/public-client.ts
/* eslint-disable */

export const SITE = ${str(site.slug)};
export const LOCALES = [${site.languages.map(str).join(",")}] as const;
export type Locale = (typeof LOCALES)[number];

export interface RelationRef {
  instance_id: string;
  model: string;
  slug: string | null;
  display: string | null;
}

export interface MediaRef {
  id: string;
  url: string;
  kind: string;
  mime_type: string;
  file_name: string;
  width: number | null;
  height: number | null;
  alt: string;
  focal: { x: number; y: number } | null;
  loading: string;
  fetch_priority: string;
  /** The item language's original: its override, else the fallback order's, else the default (lang null). */
  original?: { id: string; lang: string | null; url: string; mime_type: string; byte_length: number; width: number | null; height: number | null };
}

export interface Item<M extends string, F, R, Md> {
  id: string;
  slug: string | null;
  model: M;
  locale: string;
  version: string;
  /** When this language was last published. */
  published_at: string;
  /** When the item was first published in any language: lists are ordered by it, then by id. */
  first_published_at: string;
  fields: F;
  relations: R;
  media: Md;
}

export interface Page {
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

${publicModels.map((m) => modelTypes(m, nameOf(m))).join("\n\n")}

export interface Models {
${modelMap}
}
export type ModelSlug = keyof Models;

interface RelationFields {
${relationMap}
}

interface FieldKeys {
${fieldKeyMap}
}

export interface ListOptions<M extends ModelSlug> {
  locale?: Locale;
  limit?: number;
  cursor?: string;
  order?: "asc" | "desc" | "manual";
  /** [field, target instance id] pairs, ANDed. */
  relation?: Array<[RelationFields[M], string]>;
  /** [field, target slug] pairs, ANDed. */
  tag?: Array<[RelationFields[M], string]>;
  /** Keep only these keys in fields, relations and media (the item's own keys always stay). */
  fields?: Array<FieldKeys[M]>;
}

export interface ItemOptions<M extends ModelSlug = ModelSlug> {
  locale?: Locale;
  preview?: string;
  /** Keep only these keys in fields, relations and media (the item's own keys always stay). */
  fields?: Array<FieldKeys[M]>;
}

/** A published item whose relations point at another (relatedFrom). */
export interface RelatedFromItem {
  id: string;
  model: string;
  locale: string;
  slug: string | null;
  /** The source's title; null when its title field is private. */
  display: string | null;
  /** The source's relation field holding the link. */
  field: string;
  first_published_at: string;
}

/** Any published item a sync serves (items of private models a token names are typed loosely). */
export type AnyItem = Models[ModelSlug] | Item<string, Record<string, unknown>, Record<string, RelationRef[]>, Record<string, MediaRef[]>>;

/** One item of a menu (GET /v1/_menus/{name}): a URL, or a published item. */
export interface MenuItem {
  label: string;
  url: string | null;
  target: { id: string; model: string; slug: string | null; locale: string } | null;
  children: MenuItem[];
}

/** A media item the Site Chrome names; \`url\` is null while nothing publishes its file. */
export interface ChromeMedia {
  id: string;
  url: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/** GET /v1/_site: what every page shows around its content. */
export interface SiteChrome {
  locale: string;
  name: string;
  tagline: string | null;
  logo: ChromeMedia | null;
  header_links: Array<{ label: string; url: string }>;
  footer_links: Array<{ label: string; url: string }>;
  social_links: Array<{ network: string; url: string }>;
  seo: { title_template: string; description: string | null; share_image: ChromeMedia | null };
}

/** A published page of the page tree (GET /v1/_pages; docs/pages.md). */
export interface PageNode {
  id: string;
  slug: string | null;
  title: string | null;
  locale: string;
  path: string;
  parent_id: string | null;
}

/** Where a page sits (GET /v1/_pages/resolve): its path, parent and the pages above it, top first. */
export interface PagePlace {
  path: string;
  parent_id: string | null;
  breadcrumbs: Array<{ id: string; title: string | null; path: string }>;
}

/** An item's SEO for a page head (GET /v1/{model}/{slug}/seo; docs/site-chrome.md, "Per-item SEO"). */
export interface ItemSeo {
  locale: string;
  title: string;
  description: string | null;
  share_image: ChromeMedia | null;
  noindex: boolean;
  canonical_path: string | null;
}

/** An approved comment (docs/comments.md). */
export interface PublicComment {
  id: string;
  author_name: string;
  body: string;
  locale: string;
  created_at: string;
}

/** A media item a sync serves: its pinned public files. */
export interface SyncMedia {
  type: "media";
  id: string;
  kind: string | null;
  mime_type: string | null;
  width: number | null;
  height: number | null;
  files: string[];
}

/** One record of GET /v1/_sync (docs/sync.md). */
export type SyncRecord =
  | { type: "entry"; item: AnyItem }
  | { type: "deleted"; id: string; model: string | null; locale: string | null }
  | SyncMedia
  | { type: "media_deleted"; id: string };

export interface SyncPage {
  data: SyncRecord[];
  reset: boolean;
  next_cursor: string | null;
  next_sync_cursor: string | null;
}

/** A local mirror kept by sync(): items by language instance id, media by id, and where to continue. */
export interface SyncMirror {
  cursor: string | null;
  items: Record<string, AnyItem>;
  media: Record<string, SyncMedia>;
}

export interface SyncResult {
  mirror: SyncMirror;
  /** The records applied by this call, in order (after a reset: the whole new snapshot). */
  changes: SyncRecord[];
  /** Whether the server asked to start again (the mirror was rebuilt from a fresh snapshot). */
  reset: boolean;
}

/** A refusal of the API: \`status\` and the stable \`code\` of its error body. */
export class DriftwoodError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
    this.name = "DriftwoodError";
  }
}

export interface ClientOptions {
  /** The site's public address, for example https://www.example.com */
  baseUrl: string;
  /** A site API token (dw_site_…) for private models; answers are then never cached. */
  token?: string;
  fetch?: (input: string, init?: { headers?: Record<string, string>; method?: string; body?: string }) => Promise<{ status: number; ok: boolean; json(): Promise<unknown> }>;
}

export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\\/+$/, "");
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  async function get<T>(path: string, query: Array<[string, string]>): Promise<T> {
    const qs = query.length ? "?" + query.map(([k, v]) => encodeURIComponent(k) + "=" + encodeURIComponent(v)).join("&") : "";
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.token) headers.authorization = "Bearer " + options.token;
    const response = await doFetch(base + path + qs, { headers });
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    if (!response.ok) throw new DriftwoodError(response.status, body.error?.code ?? "error", body.error?.message ?? "Request failed");
    return body as T;
  }
  /** Leading zero bits of SHA-256(text), for the comment challenge (docs/comments.md, "Spam resistance"). */
  async function zeroBits(text: string): Promise<number> {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    let bits = 0;
    for (const byte of digest) {
      if (byte === 0) {
        bits += 8;
        continue;
      }
      return bits + Math.clz32(byte) - 24;
    }
    return bits;
  }
  return {
    health: () => get<{ ok: true; site: string }>("/health", []),
    list<M extends ModelSlug>(model: M, opts: ListOptions<M> = {}): Promise<{ data: Array<Models[M]>; page: Page }> {
      const query: Array<[string, string]> = [];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.limit !== undefined) query.push(["limit", String(opts.limit)]);
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      if (opts.order) query.push(["order", opts.order]);
      for (const [field, id] of opts.relation ?? []) query.push(["relation", field + ":" + id]);
      for (const [field, slug] of opts.tag ?? []) query.push(["tag", field + ":" + slug]);
      if (opts.fields) query.push(["fields", opts.fields.join(",")]);
      return get("/v1/" + model, query);
    },
    /** Every item of a model, following cursors. */
    async all<M extends ModelSlug>(model: M, opts: Omit<ListOptions<M>, "cursor"> = {}): Promise<Array<Models[M]>> {
      const items: Array<Models[M]> = [];
      let cursor: string | undefined;
      do {
        const page: { data: Array<Models[M]>; page: Page } = await this.list(model, cursor ? { ...opts, cursor } : opts);
        items.push(...page.data);
        cursor = page.page.next_cursor ?? undefined;
      } while (cursor);
      return items;
    },
    item<M extends ModelSlug>(model: M, slug: string, opts: ItemOptions<M> = {}): Promise<{ data: Models[M] }> {
      const query: Array<[string, string]> = [];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.preview) query.push(["preview", opts.preview]);
      if (opts.fields) query.push(["fields", opts.fields.join(",")]);
      return get("/v1/" + model + "/" + encodeURIComponent(slug), query);
    },
    /** Published items whose served relations point at this item, newest first (one page). */
    relatedFrom(model: ModelSlug, slug: string, opts: { locale?: Locale; field?: string; limit?: number; cursor?: string } = {}): Promise<{ data: RelatedFromItem[]; page: Page }> {
      const query: Array<[string, string]> = [];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.field) query.push(["field", opts.field]);
      if (opts.limit !== undefined) query.push(["limit", String(opts.limit)]);
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      return get("/v1/" + model + "/" + encodeURIComponent(slug) + "/related-from", query);
    },
    embeds: () => get<{ data: { providers: string[]; origins: string[] } }>("/v1/_embeds", []),
    richBlocks: () => get<{ data: unknown[] }>("/v1/_rich-blocks", []),
    search: (q: string, opts: { locale?: Locale; limit?: number; cursor?: string; models?: ModelSlug[] } = {}) => {
      const query: Array<[string, string]> = [["q", q]];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.limit !== undefined) query.push(["limit", String(opts.limit)]);
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      if (opts.models?.length) query.push(["models", opts.models.join(",")]);
      return get<{ data: unknown[]; page: Page }>("/v1/_search", query);
    },
    suggest: (q: string, opts: { locale?: Locale } = {}) =>
      get<{ data: unknown[] }>("/v1/_search/suggest", opts.locale ? [["q", q], ["locale", opts.locale]] : [["q", q]]),
    /** A saved query's list (docs/saved-queries.md): its stored filters, order, fields and page size. */
    query: (name: string, opts: { locale?: Locale; cursor?: string } = {}) => {
      const query: Array<[string, string]> = [];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      return get<{ data: AnyItem[]; page: Page }>("/v1/_queries/" + encodeURIComponent(name), query);
    },
    /** A menu in one language (docs/menus.md). */
    menu: (name: string, opts: { locale?: Locale } = {}) =>
      get<{ data: { name: string; locale: string; items: MenuItem[] } }>("/v1/_menus/" + encodeURIComponent(name), opts.locale ? [["locale", opts.locale]] : []),
    /** Site Chrome and SEO defaults in one language (docs/site-chrome.md). */
    site: (opts: { locale?: Locale } = {}) => get<{ data: SiteChrome }>("/v1/_site", opts.locale ? [["locale", opts.locale]] : []),
    /** The published pages in one language with their paths (docs/pages.md). */
    pages: (opts: { locale?: Locale } = {}) => get<{ data: PageNode[] }>("/v1/_pages", opts.locale ? [["locale", opts.locale]] : []),
    /** The published page at a path such as /about/team, with its breadcrumbs (docs/pages.md). */
    pageAt: (path: string, opts: { locale?: Locale } = {}) =>
      get<{ data: AnyItem; page: PagePlace }>("/v1/_pages/resolve", opts.locale ? [["path", path], ["locale", opts.locale]] : [["path", path]]),
    /** An item's SEO: its own seo fields merged over the site's defaults (docs/site-chrome.md). */
    seo: (model: string, slug: string, opts: { locale?: Locale } = {}) =>
      get<{ data: ItemSeo }>("/v1/" + encodeURIComponent(model) + "/" + encodeURIComponent(slug) + "/seo", opts.locale ? [["locale", opts.locale]] : []),
    /** Approved comments of an item, oldest first (docs/comments.md). */
    comments: (model: string, slug: string, opts: { locale?: Locale; limit?: number; cursor?: string } = {}) => {
      const query: Array<[string, string]> = [];
      if (opts.locale) query.push(["locale", opts.locale]);
      if (opts.limit !== undefined) query.push(["limit", String(opts.limit)]);
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      return get<{ data: PublicComment[]; page: Page }>("/v1/" + encodeURIComponent(model) + "/" + encodeURIComponent(slug) + "/comments", query);
    },
    /**
     * Posts a reader's comment: asks for a challenge, solves it (a fraction of a second at the usual
     * difficulty) and posts; pending until a moderator approves it unless the site publishes at once.
     */
    async postComment(model: string, slug: string, comment: { author_name: string; body: string }, opts: { locale?: Locale } = {}): Promise<{ data: { id: string; status: "pending" | "approved"; created_at: string } }> {
      const issued = await get<{ data: { challenge: string; difficulty: number } }>("/v1/_comments/challenge", []);
      let n = 0;
      while ((await zeroBits(issued.data.challenge + ":" + n)) < issued.data.difficulty) n++;
      const qs = opts.locale ? "?locale=" + encodeURIComponent(opts.locale) : "";
      const response = await doFetch(base + "/v1/" + encodeURIComponent(model) + "/" + encodeURIComponent(slug) + "/comments" + qs, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({ author_name: comment.author_name, body: comment.body, challenge: issued.data.challenge, nonce: String(n) }),
      });
      const body = (await response.json()) as { error?: { code?: string; message?: string } };
      if (!response.ok) throw new DriftwoodError(response.status, body.error?.code ?? "error", body.error?.message ?? "Request failed");
      return body as { data: { id: string; status: "pending" | "approved"; created_at: string } };
    },
    /** One page of GET /v1/_sync (docs/sync.md). */
    syncPage: (opts: { cursor?: string; limit?: number } = {}) => {
      const query: Array<[string, string]> = [];
      if (opts.cursor) query.push(["cursor", opts.cursor]);
      if (opts.limit !== undefined) query.push(["limit", String(opts.limit)]);
      return get<SyncPage>("/v1/_sync", query);
    },
    /**
     * Brings a local mirror up to date: the first call (no mirror, or one without a cursor) takes the
     * full snapshot; later calls apply exactly the changes since. On \`reset\` the mirror is rebuilt
     * from a fresh snapshot. The mirror passed in is not modified; keep the one returned.
     */
    async sync(previous?: SyncMirror, opts: { limit?: number } = {}): Promise<SyncResult> {
      let mirror: SyncMirror = previous ? { cursor: previous.cursor, items: { ...previous.items }, media: { ...previous.media } } : { cursor: null, items: {}, media: {} };
      let changes: SyncRecord[] = [];
      let reset = false;
      let cursor = mirror.cursor ?? undefined;
      for (;;) {
        const page: SyncPage = await this.syncPage({ ...(cursor ? { cursor } : {}), ...(opts.limit !== undefined ? { limit: opts.limit } : {}) });
        if (page.reset) {
          if (reset) throw new DriftwoodError(409, "sync_reset_loop", "The sync was reset twice in a row.");
          reset = true;
          mirror = { cursor: null, items: {}, media: {} };
          changes = [];
          cursor = undefined;
          continue;
        }
        for (const record of page.data) {
          if (record.type === "entry") mirror.items[record.item.id] = record.item;
          else if (record.type === "deleted") delete mirror.items[record.id];
          else if (record.type === "media") mirror.media[record.id] = record;
          else delete mirror.media[record.id];
          changes.push(record);
        }
        if (page.next_sync_cursor) {
          mirror.cursor = page.next_sync_cursor;
          return { mirror, changes, reset };
        }
        cursor = page.next_cursor ?? undefined;
        if (!cursor) throw new DriftwoodError(502, "sync_incomplete", "A sync page had neither next_cursor nor next_sync_cursor.");
      }
    },
  };
}
`;
}
