import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ADMIN, seedDemo, type DemoSeedResult } from "../../scripts/seed/demo";
import { verifyPassword } from "../../shared/auth/passwords";
import { ensureDemoCredentials } from "../../scripts/seed/credentials";
import { authenticatePlugin } from "../../shared/auth/plugin-authority";
import { PLUGIN_CAPABILITIES } from "../../schema/plugin-manifest";
import { publicGet } from "../helpers/public-api";

/** The same seed `npm run seed` runs, against the test D1 and R2. */
let first: DemoSeedResult;

async function rows<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  return (await env.DB.prepare(sql).bind(...params).all<T>()).results;
}

async function count(sql: string, ...params: unknown[]): Promise<number> {
  return (await env.DB.prepare(sql).bind(...params).first<{ n: number }>())?.n ?? 0;
}

const site = (slug: string) => {
  const s = first.sites.find((x) => x.slug === slug);
  if (!s) throw new Error(`no site ${slug}`);
  return s;
};

const ofModel = "JOIN models m ON m.id = e.model_id WHERE e.site_id = ? AND m.slug = ?";
const publishedOf = "FROM published_items p JOIN models m ON m.id = p.model_id WHERE p.site_id = ? AND m.slug = ?";

describe("demo seed", () => {
  beforeAll(async () => {
    first = await seedDemo(env);
  }, 120_000);

  it("creates both sites with their hosts, languages and fallback", async () => {
    expect(first.created).toBe(true);
    expect(first.sites.map((s) => [s.slug, s.host, s.default_lang, s.languages])).toEqual([
      ["demo", "demo.localhost", "en", ["en", "fr"]],
      ["other", "other.localhost", "en", ["en"]],
    ]);
    const settings = await env.DB.prepare("SELECT settings FROM sites WHERE slug = 'demo'").first<{ settings: string }>();
    const parsed = JSON.parse(settings?.settings ?? "{}") as { locale_fallback: string[]; locale_fallback_enabled: boolean };
    expect(parsed.locale_fallback).toEqual(["en"]);
    expect(parsed.locale_fallback_enabled).toBe(true);
  });

  it("makes the admin an admin of both sites with the documented password", async () => {
    const person = await env.DB.prepare("SELECT id, password_hash, password_salt, password_iterations FROM persons WHERE email = ?")
      .bind(DEMO_ADMIN.email)
      .first<{ id: string; password_hash: string; password_salt: string; password_iterations: number }>();
    expect(person).not.toBeNull();
    if (!person) return;
    expect(await verifyPassword(DEMO_ADMIN.password, { hash: person.password_hash, salt: person.password_salt, iterations: person.password_iterations })).toBe(true);
    const roles = await rows<{ slug: string; role: string }>(
      "SELECT s.slug, r.slug AS role FROM memberships ms JOIN sites s ON s.id = ms.site_id JOIN roles r ON r.id = ms.role_id WHERE ms.person_id = ? ORDER BY s.slug",
      person.id,
    );
    expect(roles).toEqual([{ slug: "demo", role: "admin" }, { slug: "other", role: "admin" }]);
  });

  it("uses the content rules: a single homepage, a unique brand/SKU combination, categories related from articles", async () => {
    const demo = site("demo");
    const product = await rows<{ definition: string }>("SELECT definition FROM models WHERE site_id = ? AND slug = 'product'", demo.id);
    expect(JSON.parse(product[0]?.definition ?? "{}").unique_combinations).toEqual([{ name: "brand_sku", fields: ["brand", "sku"], scope: "model" }]);
    const claims = await rows<{ value: string }>("SELECT value FROM unique_values WHERE site_id = ? AND field_id = 'cmb:brand_sku' ORDER BY value", demo.id);
    expect(claims.map((c) => c.value)).toEqual(['["saltworks","st-01"]', '["tideline","la-02"]', '["tideline","st-01"]']);
    const related = await publicGet<{ data: { model: string; field: string }[]; page: { has_more: boolean } }>(demo.host, "/v1/category/woodcraft/related-from?limit=5");
    expect(related.status).toBe(200);
    expect(related.body.data.length).toBe(5);
    expect(related.body.data.every((d) => d.model === "article" && d.field === "categories")).toBe(true);
  });

  it("defines the demo models", async () => {
    const models = await rows<{ slug: string; kind: string; is_public: number; i18n: number; definition: string }>(
      "SELECT slug, kind, is_public, i18n, definition FROM models WHERE site_id = ? ORDER BY slug",
      site("demo").id,
    );
    expect(models.map((m) => [m.slug, m.kind, m.is_public, m.i18n])).toEqual([
      ["article", "collection", 1, 1],
      ["author", "collection", 1, 0],
      ["category", "collection", 1, 1],
      ["homepage", "single", 1, 0],
      ["note", "collection", 0, 0],
      ["product", "collection", 1, 0],
    ]);
    const article = models.find((m) => m.slug === "article");
    const fields = (JSON.parse(article?.definition ?? "{}") as { fields: { key: string; type: string; multiple?: boolean }[] }).fields;
    expect(fields.map((f) => `${f.key}:${f.type}${f.multiple ? "[]" : ""}`)).toEqual([
      "title:text", "summary:long_text", "body:rich_text", "published_date:date", "author:relation", "categories:relation[]", "cover:media", "location:location",
      "format:select", "video_url:text", "seo:component", "faq:component[]", "related:relation[]",
    ]);
  });

  it("publishes at least 40 articles in en and 10 in fr, with bodies of 300 to 2000 characters", async () => {
    const demo = site("demo").id;
    expect(await count(`SELECT count(*) AS n ${publishedOf} AND p.lang = 'en'`, demo, "article")).toBeGreaterThanOrEqual(40);
    expect(await count(`SELECT count(*) AS n ${publishedOf} AND p.lang = 'fr'`, demo, "article")).toBeGreaterThanOrEqual(10);
    const bodies = await rows<{ body: string }>(`SELECT p.body ${publishedOf}`, demo, "article");
    const items = bodies.map((b) => JSON.parse(b.body) as { fields: { body: string }; relations: Record<string, unknown[]>; media: Record<string, unknown[]> });
    for (const item of items) {
      expect(item.fields.body.length).toBeGreaterThanOrEqual(300);
      expect(item.fields.body.length).toBeLessThanOrEqual(2000);
      expect(item.relations.author).toHaveLength(1);
      expect(item.relations.categories?.length).toBeGreaterThanOrEqual(1);
      expect(item.relations.categories?.length).toBeLessThanOrEqual(3);
    }
    expect(items.some((i) => (i.media.cover?.length ?? 0) > 0)).toBe(true);
    expect(items.some((i) => "location" in i.fields)).toBe(true);
    // Issue #13's field rules: a conditional video URL, an seo component (its private note never served), a FAQ list.
    // (French translations carry only title, summary and body.)
    const rules = items.map((i) => i.fields as unknown as { format?: string; video_url?: string | null; seo?: Record<string, unknown>; faq?: { question: string }[] }).filter((f) => f.format !== undefined);
    expect(rules.length).toBeGreaterThanOrEqual(40);
    expect(rules.some((f) => f.format === "video" && f.video_url?.startsWith("https://"))).toBe(true);
    expect(rules.every((f) => f.format !== "video" || typeof f.video_url === "string")).toBe(true);
    expect(rules.some((f) => f.format === "story" && f.video_url == null)).toBe(true);
    expect(rules.every((f) => typeof f.seo?.title === "string" && !("review_note" in (f.seo ?? {})))).toBe(true);
    expect(rules.some((f) => (f.faq?.length ?? 0) > 0)).toBe(true);
    expect(bodies.some((b) => b.body.includes("Checked by the desk"))).toBe(false);
    // A French page's SEO says what the page says (probe finding: every French translation served the English
    // seo title and description, copied from its source language, at /v1/article/{slug}/seo?locale=fr).
    const french = bodies.map((b) => JSON.parse(b.body) as { locale: string; fields: { title: string; summary: string; seo?: { title?: string; description?: string } } }).filter((i) => i.locale === "fr");
    expect(french.length).toBeGreaterThanOrEqual(10);
    for (const item of french) expect(item.fields.seo, item.fields.title).toEqual({ title: item.fields.title.slice(0, 70), description: item.fields.summary.slice(0, 160) });
    // Its FAQ too, where it has one: French questions, never the English source's.
    const frenchFaqs = french.flatMap((item) => ((item.fields as { faq?: { question: string; answer: string }[] }).faq ?? []).map((q) => ({ ...q, summary: item.fields.summary })));
    expect(frenchFaqs.length).toBeGreaterThanOrEqual(1);
    for (const q of frenchFaqs) expect(q).toEqual({ question: expect.stringMatching(/^De quoi parle « .+ » \?$/), answer: q.summary, summary: q.summary });
  });

  it("shows rich text beyond paragraphs: an article with a table, a gallery of the seeded images and a video embed", async () => {
    const demo = site("demo").id;
    const [row] = await rows<{ body: string }>(`SELECT p.body ${publishedOf} AND p.slug = 'reading-the-tide-tables' AND p.lang = 'en'`, demo, "article");
    const body = (JSON.parse(row?.body ?? "{}") as { fields: { body: string } }).fields.body;
    expect(body).toMatch(/<table><caption>[^<]+<\/caption><thead><tr><th scope="col">/);
    const media = (await rows<{ id: string }>("SELECT id FROM media WHERE site_id = ? ORDER BY id", demo)).map((m) => m.id);
    const gallery = /<figure data-gallery="">(.*?)<\/figure>/.exec(body)?.[1] ?? "";
    expect([...gallery.matchAll(/data-media="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(media);
    expect(body).toContain(`<figure data-embed="https://www.youtube.com/embed/`);
  });

  it("publishes authors, categories in both languages, the homepage and the private notes", async () => {
    const demo = site("demo").id;
    expect(await count(`SELECT count(*) AS n ${publishedOf}`, demo, "author")).toBeGreaterThanOrEqual(3);
    expect(await count(`SELECT count(*) AS n ${publishedOf} AND p.lang = 'en'`, demo, "category")).toBe(5);
    expect(await count(`SELECT count(*) AS n ${publishedOf} AND p.lang = 'fr'`, demo, "category")).toBe(5);
    expect(await count(`SELECT count(*) AS n ${publishedOf}`, demo, "homepage")).toBe(1);
    expect(await count(`SELECT count(*) AS n ${publishedOf}`, demo, "note")).toBeGreaterThanOrEqual(2);
  });

  it("uses relations: a category hierarchy and ordered related articles, served in order in both languages", async () => {
    const demo = site("demo").id;
    const categories = await rows<{ slug: string; lang: string; body: string }>(`SELECT p.slug, p.lang, p.body ${publishedOf}`, demo, "category");
    const parentOf = (slug: string, lang: string) => {
      const item = categories.find((c) => c.slug === slug && c.lang === lang);
      return (JSON.parse(item?.body ?? "{}") as { relations: Record<string, { slug: string }[]> }).relations.parent?.map((r) => r.slug);
    };
    expect(parentOf("photography", "en")).toEqual(["travel"]);
    expect(parentOf("photography", "fr")).toEqual(["travel"]);
    expect(parentOf("ecology", "en")).toEqual(["coast-and-sea"]);
    expect(parentOf("travel", "en") ?? []).toEqual([]);
    const articles = await rows<{ instance_id: string; lang: string; body: string; first_published_at: string }>(
      `SELECT p.instance_id, p.lang, p.body, e.first_published_at ${publishedOf.replace("WHERE", "JOIN entries e ON e.instance_id = p.instance_id WHERE")} AND p.lang = 'en' ORDER BY e.first_published_at, p.instance_id`,
      demo,
      "article",
    );
    const related = articles.map((a) => (JSON.parse(a.body) as { relations: Record<string, { instance_id: string }[]> }).relations.related?.map((r) => r.instance_id) ?? []);
    const withRelated = related.filter((r) => r.length > 0);
    expect(withRelated.length).toBeGreaterThanOrEqual(5);
    // The first article lists the third before the second: connect, then a position before.
    expect(related[0]).toEqual([articles[2]?.instance_id, articles[1]?.instance_id]);
  });

  it("leaves 5 drafts, 3 unpublished articles and 1 in Trash", async () => {
    const demo = site("demo").id;
    expect(await count(`SELECT count(*) AS n FROM entries e ${ofModel} AND e.trashed_at IS NULL AND e.first_published_at IS NULL`, demo, "article")).toBe(5);
    expect(await count(`SELECT count(*) AS n FROM entries e ${ofModel} AND e.trashed_at IS NULL AND e.workflow_state = 'unpublished' AND e.first_published_at IS NOT NULL`, demo, "article")).toBe(3);
    expect(await count(`SELECT count(*) AS n FROM entries e ${ofModel} AND e.trashed_at IS NOT NULL`, demo, "article")).toBe(1);
    // None of them is served.
    expect(await count(`SELECT count(*) AS n FROM published_items p JOIN entries e ON e.instance_id = p.instance_id WHERE p.site_id = ? AND (e.trashed_at IS NOT NULL OR e.published_version_id IS NULL)`, demo)).toBe(0);
  });

  it("stores two image media rows, their bytes in R2", async () => {
    const media = await rows<{ object_key: string; kind: string; byte_length: number; mime_type: string }>(
      "SELECT object_key, kind, byte_length, mime_type FROM media WHERE site_id = ?",
      site("demo").id,
    );
    expect(media).toHaveLength(2);
    for (const m of media) {
      expect(m.kind).toBe("image");
      const object = await env.MEDIA.get(m.object_key);
      expect(object).not.toBeNull();
      const bytes = new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0));
      expect(bytes.byteLength).toBe(m.byte_length);
      expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    }
  });

  it("gives the other site articles whose slugs match demo articles but whose titles differ", async () => {
    const other = site("other").id;
    expect(await count(`SELECT count(*) AS n ${publishedOf}`, other, "article")).toBeGreaterThanOrEqual(5);
    const shared = await rows<{ slug: string; demo_title: string; other_title: string }>(
      `SELECT o.slug, d.label AS demo_title, o.label AS other_title
         FROM published_items o JOIN models om ON om.id = o.model_id AND om.slug = 'article'
         JOIN published_items d ON d.slug = o.slug AND d.lang = o.lang AND d.site_id = ?
         JOIN models dm ON dm.id = d.model_id AND dm.slug = 'article'
        WHERE o.site_id = ? AND o.lang = 'en'`,
      site("demo").id,
      other,
    );
    expect(shared.length).toBeGreaterThanOrEqual(2);
    for (const row of shared) expect(row.other_title).not.toBe(row.demo_title);
  });

  it("installs the active demo plugin with every capability on every demo model; token reused while live, rotated when unknown", async () => {
    const demo = site("demo").id;
    const creds = await ensureDemoCredentials(env.DB, demo, first.admin_id, {});
    expect(creds.plugin_token).toMatch(/^dwp_[A-Za-z0-9_-]{43}$/);
    expect(creds.plugin_event_secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare("SELECT * FROM plugin_installations WHERE id = ?").bind(creds.plugin_installation_id)
      .first<{ site_id: string; plugin_id: string; state: string; granted_capabilities: string; granted_model_ids: string; manifest: string; event_secret: string }>();
    expect(row).toMatchObject({ site_id: demo, plugin_id: "demo-helper", state: "active", event_secret: creds.plugin_event_secret });
    expect(JSON.parse(row?.granted_capabilities ?? "[]")).toEqual([...PLUGIN_CAPABILITIES]);
    const models = await rows<{ id: string }>("SELECT id FROM models WHERE site_id = ?", demo);
    expect([...(JSON.parse(row?.granted_model_ids ?? "[]") as string[])].sort()).toEqual(models.map((m) => m.id).sort());
    const manifest = JSON.parse(row?.manifest ?? "{}") as { endpoint: string; events: string[]; manage_views: unknown[]; content_actions: unknown[]; operations: { id: string; scope: string; destructive: boolean; automation: boolean }[]; content_policies: { id: string; mode: string }[] };
    expect(manifest.endpoint).toBe("http://127.0.0.1:8789");
    // docs/plugin-operations.md and docs/plugin-policies.md: what the demo plugin shows.
    expect(manifest.operations.map((op) => [op.id, op.scope, op.destructive, op.automation])).toEqual([
      ["word-count", "site", false, false],
      ["summarize", "entry", false, false],
      ["archive", "entry", true, false],
      ["nightly-digest", "site", false, true],
      ["slow", "site", false, false],
    ]);
    expect(manifest.content_policies.map((p) => [p.id, p.mode])).toEqual([
      ["no-forbidden-words", "validate"],
      ["trim-title", "transform"],
    ]);
    expect(manifest.events).toEqual(["entry.published"]);
    expect(manifest.manage_views).toHaveLength(1);
    expect(manifest.content_actions).toHaveLength(1);
    const auth = await authenticatePlugin(env.DB, new Request("http://x/", { headers: { authorization: `Bearer ${creds.plugin_token}` } }), Date.now());
    expect(auth.id).toBe(creds.plugin_installation_id);

    expect(await ensureDemoCredentials(env.DB, demo, first.admin_id, creds)).toEqual(creds);
    const rotated = await ensureDemoCredentials(env.DB, demo, first.admin_id, { ...creds, plugin_token: undefined });
    expect(rotated.plugin_installation_id).toBe(creds.plugin_installation_id);
    expect(rotated.plugin_token).not.toBe(creds.plugin_token);
    expect(rotated.plugin_event_secret).not.toBe(creds.plugin_event_secret);
    expect(rotated.management_token).toBe(creds.management_token);
    expect(await count("SELECT count(*) AS n FROM plugin_installations WHERE site_id = ?", demo)).toBe(1);
  });

  it("is idempotent: a second call writes nothing and answers the same ids", async () => {
    const tables = ["sites", "persons", "models", "entries", "versions", "published_items", "media", "audit_log"];
    const before = await Promise.all(tables.map((t) => count(`SELECT count(*) AS n FROM ${t}`)));
    const second = await seedDemo(env);
    expect(second.created).toBe(false);
    expect(second.sites).toEqual(first.sites);
    expect(second.admin).toEqual(first.admin);
    expect(second.counts).toEqual(first.counts);
    expect(await Promise.all(tables.map((t) => count(`SELECT count(*) AS n FROM ${t}`)))).toEqual(before);
  });
});
