/**
 * The parts of the generated client that do not depend on the site: option and answer types
 * (`FIXED_TYPES`, after the model types) and the runtime (`CLIENT_RUNTIME`: the error class and
 * `createClient`). Plain text pasted into the client as it is (shared/public/client-generator.ts).
 */
export const FIXED_TYPES = `export interface ListOptions<M extends ModelSlug> {
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

`;

export const CLIENT_RUNTIME = `/** A refusal of the API: \`status\` and the stable \`code\` of its error body. */
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
