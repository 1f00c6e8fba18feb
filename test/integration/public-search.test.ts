import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { findSiteById, type Site } from "../../shared/repositories/site-repository";
import type { Model } from "../../shared/repositories/model-repository";
import { reindexModel, reindexModelStatements, reindexSiteStatements } from "../../shared/search/reindex";
import { searchSettings } from "../../shared/search/settings";
import { htmlToText } from "../../shared/search/text";
import * as lifecycle from "../../shared/services/lifecycle";
import type { LifecycleContext } from "../../shared/services/lifecycle";
import { parseSearchParams, searchItems } from "../../workers/public/search";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

interface SearchBody {
  data: { item: { id: string; slug: string; model: string; locale: string; fields: Record<string, unknown> }; score: number; model: string }[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}
interface SuggestBody {
  data: { text: string; model: string; slug: string | null; instance_id: string }[];
}
interface ErrorBody {
  error: { code: string; parameter?: string };
}

/** A site with search on over article and author (and the private note, which must still never appear). */
async function searchSite(search: Record<string, unknown> = {}, options: { languages?: string[]; settings?: Record<string, unknown> } = {}) {
  const s = await seedSite({ ...options, settings: { ...options.settings, search: { enabled: true, ...search } } });
  const models = await blogModels(s.ctx());
  await setSearch(s, { models: [models.article.id, models.author.id, models.note.id], ...search });
  return { s, models };
}

/** Rewrites the site's search settings (what the management API will do) and returns the fresh site. */
async function setSearch(s: SeededSite, search: Record<string, unknown>): Promise<Site> {
  const row = await env.DB.prepare("SELECT settings FROM sites WHERE id = ?").bind(s.site.id).first<{ settings: string }>();
  const settings = JSON.parse(row?.settings ?? "{}") as { search?: Record<string, unknown> };
  settings.search = { ...settings.search, ...search };
  await env.DB.prepare("UPDATE sites SET settings = ? WHERE id = ?").bind(JSON.stringify(settings), s.site.id).run();
  const site = await findSiteById(createDb(env.DB), s.site.id);
  if (!site) throw new Error("site vanished");
  return site;
}

/** A lifecycle context that sees the site as stored now (weights are read from ctx.site). */
async function freshCtx(s: SeededSite): Promise<LifecycleContext> {
  const site = await findSiteById(createDb(env.DB), s.site.id);
  if (!site) throw new Error("site vanished");
  return { ...s.ctx(), site };
}

async function publish(s: SeededSite, model: Model, fields: Record<string, unknown>, ctx: LifecycleContext = s.ctx()) {
  const e = await apply(ctx, lifecycle.createEntry(ctx, { model_id: model.id, fields }));
  await apply(ctx, lifecycle.publishEntry(ctx, { instance_id: e.instance_id }));
  return e;
}

async function search(host: string, query: string) {
  return publicGet<SearchBody>(host, `/v1/_search?${query}`);
}

async function slugs(host: string, query: string): Promise<(string | null)[]> {
  const res = await search(host, query);
  expect(res.status, query).toBe(200);
  return res.body.data.map((d) => d.item.slug);
}

async function walk(host: string, path: string): Promise<string[]> {
  const seen: string[] = [];
  let url = path;
  for (let i = 0; i < 50; i++) {
    const page = await publicGet<SearchBody>(host, url);
    expect(page.status).toBe(200);
    seen.push(...page.body.data.map((d) => d.item.slug));
    if (!page.body.page.next_cursor) break;
    url = `${path}&cursor=${encodeURIComponent(page.body.page.next_cursor)}`;
  }
  return seen;
}

describe("GET /v1/_search", () => {
  it("answers 404 search_off until search is enabled", async () => {
    const off = await seedSite();
    const explicit = await seedSite({ settings: { search: { enabled: false } } });
    for (const s of [off, explicit]) {
      await publish(s, (await blogModels(s.ctx())).article, { title: "Hello" });
      for (const path of ["/v1/_search?q=hello", "/v1/_search/suggest?q=hel", "/v1/_search?bogus=1"]) {
        const res = await publicGet<ErrorBody>(s.host, path);
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toBe("search_off");
      }
    }
    expect((await publicGet(`unknown-${Date.now()}.test`, "/v1/_search?q=x")).status).toBe(404);
  });

  it("finds published items and serves each exactly as /v1 does", async () => {
    const { s, models } = await searchSite();
    const ann = await publish(s, models.author, { name: "Ann Lovelace", bio: "Writes about engines." });
    await publish(s, models.article, { title: "Analytical engines", summary: "Notes on the engine.", body: "<p>The <strong>difference</strong> engine &amp; more</p>", author: ann.instance_id });
    await publish(s, models.article, { title: "Unrelated", summary: "Nothing to see." });
    const res = await search(s.host, "q=engines");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.page).toEqual({ limit: 20, has_more: false, next_cursor: null });
    expect(res.body.data.map((d) => [d.model, d.item.slug])).toEqual([
      ["article", "analytical-engines"],
      ["author", "ann-lovelace"],
    ]);
    const first = res.body.data[0];
    expect(typeof first?.score).toBe("number");
    expect(first?.score).toBeGreaterThan(res.body.data[1]?.score ?? Infinity);
    const served = await publicGet<{ data: unknown }>(s.host, "/v1/article/analytical-engines");
    expect(first?.item).toEqual(served.body.data);
    // Rich text is indexed without its markup; entities are decoded.
    expect(await slugs(s.host, "q=difference")).toEqual(["analytical-engines"]);
    expect(await slugs(s.host, "q=strong")).toEqual([]);
    expect(await slugs(s.host, "q=ENGINE+difference")).toEqual(["analytical-engines"]);
    expect(htmlToText("<p>a&amp;b&#x41;<br>c<!-- d --><script>e</script></p>")).toBe("a&bA c");
  });

  it("refuses unknown parameters and malformed values with 400 invalid_request", async () => {
    const { s } = await searchSite();
    const long = "a".repeat(201);
    for (const q of ["", "q=", `q=${long}`, "q=!!!", "q=a&foo=1", "q=a&q=b", "q=a&mode=fuzzy", "q=a&limit=0", "q=a&limit=x", "q=a&models=", "q=a&models=Article", "q=a&models=category", "q=a&models=note", "q=a&models=nope", "q=a&locale=EN!", "q=a&cursor=", "q=a&cursor=abc", `q=${Array.from({ length: 17 }, (_, i) => `w${i}`).join("+")}`]) {
      const res = await publicGet<ErrorBody>(s.host, `/v1/_search?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    for (const q of ["", "q=a&limit=3", "q=a&mode=words", "q=a&cursor=x", "q=a&bogus=1"]) {
      expect((await publicGet(s.host, `/v1/_search/suggest?${q}`)).status, q).toBe(400);
    }
    expect((await search(s.host, "q=a&limit=5000")).body.page.limit).toBe(50);
    expect((await search(s.host, `q=${"a".repeat(200)}`)).status).toBe(200);
    expect((await publicGet(s.host, "/v1/_search?q=a&locale=de")).status).toBe(404);
  });

  it("never shows drafts, private models, private fields, hidden languages, unpublished or trashed items", async () => {
    const { s, models } = await searchSite({ hidden_languages: ["fr"] });
    await publish(s, models.article, { title: "Visible walrus" });
    await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Draft walrus" } }));
    await publish(s, models.note, { title: "Private walrus" });
    await publish(s, models.article, { title: "Quiet one", internal_note: "secret walrus sighting" });
    const fr = await publish(s, models.article, { title: "Loud one" });
    const frInstance = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: fr.instance_id, lang: "fr", slug: "morse", fields: { title: "Morse walrus" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: frInstance.instance_id }));
    const gone = await publish(s, models.article, { title: "Withdrawn walrus" });
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: gone.instance_id }));
    const trashed = await publish(s, models.article, { title: "Trashed walrus" });
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: trashed.instance_id }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: trashed.instance_id }));
    const purged = await publish(s, models.article, { title: "Purged walrus" });
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: purged.instance_id }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: purged.instance_id }));
    await apply(s.ctx(), lifecycle.purgeEntry(s.ctx(), { instance_id: purged.instance_id }));

    for (const mode of ["words", "stems", "parts"]) {
      expect(await slugs(s.host, `q=walrus&mode=${mode}`), mode).toEqual(["visible-walrus"]);
      expect(await slugs(s.host, `q=walrus&mode=${mode}&locale=fr`), mode).toEqual(["visible-walrus"]);
    }
    expect(await slugs(s.host, "q=secret")).toEqual([]);
    expect(await slugs(s.host, "q=morse&locale=fr")).toEqual([]);
    // A hidden language is not served; the item falls back to a visible one.
    expect(await slugs(s.host, "q=loud&locale=fr")).toEqual(["loud-one"]);
    const suggest = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=wal&locale=fr");
    expect(suggest.body.data.map((d) => d.slug)).toEqual(["visible-walrus"]);
    expect(JSON.stringify((await search(s.host, "q=quiet")).body)).not.toContain("internal_note");
    // Nothing of the withdrawn, trashed or purged items is left in the index.
    const docs = await env.DB.prepare("SELECT instance_id FROM search_documents WHERE site_id = ?").bind(s.site.id).all<{ instance_id: string }>();
    const indexed = docs.results.map((d) => d.instance_id);
    for (const id of [gone.instance_id, trashed.instance_id, purged.instance_id]) expect(indexed).not.toContain(id);
  });

  it("ranks by field weight: a title hit above a body hit, and a weight change plus reindex flips it", async () => {
    const { s, models } = await searchSite();
    await publish(s, models.article, { title: "Plain heading", summary: "All about the zebra crossing." });
    await publish(s, models.article, { title: "Zebra", summary: "Stripes." });
    expect(await slugs(s.host, "q=zebra")).toEqual(["zebra", "plain-heading"]);

    await setSearch(s, { weights: { [`${models.article.id}.title`]: 1, summary: 10 } });
    const ctx = await freshCtx(s);
    await commit(env.DB, await reindexSiteStatements(ctx));
    expect(await slugs(s.host, "q=zebra")).toEqual(["plain-heading", "zebra"]);
    // New publications use the new weights too.
    await publish(s, models.article, { title: "Zebra zebra", summary: "zebra" }, ctx);
    expect((await slugs(s.host, "q=zebra"))[0]).toBe("zebra-zebra");
  });

  it("matches whole words, English word forms or word parts", async () => {
    const { s, models } = await searchSite();
    await publish(s, models.article, { title: "Run the tests" });
    await publish(s, models.article, { title: "Markdown editor" });
    await publish(s, models.article, { title: "Café crème" });
    expect(await slugs(s.host, "q=running")).toEqual([]);
    expect(await slugs(s.host, "q=running&mode=stems")).toEqual(["run-the-tests"]);
    expect(await slugs(s.host, "q=runs&mode=stems")).toEqual(["run-the-tests"]);
    expect(await slugs(s.host, "q=ark")).toEqual([]);
    expect(await slugs(s.host, "q=ark&mode=parts")).toEqual(["markdown-editor"]);
    expect(await slugs(s.host, "q=DOWN+edit&mode=parts")).toEqual(["markdown-editor"]);
    // Shorter than three characters: a word prefix in parts mode.
    expect(await slugs(s.host, "q=ma&mode=parts")).toEqual(["markdown-editor"]);
    expect(await slugs(s.host, "q=ed+mark&mode=parts")).toEqual(["markdown-editor"]);
    expect(await slugs(s.host, "q=ar&mode=parts")).toEqual([]);
    // Case and accents are folded in every mode.
    for (const mode of ["words", "stems", "parts"]) expect(await slugs(s.host, `q=cafe&mode=${mode}`), mode).toEqual(["cafe-creme"]);
    // The site's mode is the default.
    await setSearch(s, { mode: "parts" });
    expect(await slugs(s.host, "q=ark")).toEqual(["markdown-editor"]);
    expect(await slugs(s.host, "q=ark&mode=words")).toEqual([]);
  });

  it("searches only chosen public models, narrowed by models", async () => {
    const { s, models } = await searchSite();
    await publish(s, models.article, { title: "Otter news" });
    await publish(s, models.author, { name: "Olive Otter" });
    await publish(s, models.category, { title: "Otter" });
    expect((await slugs(s.host, "q=otter")).sort()).toEqual(["olive-otter", "otter-news"]);
    expect(await slugs(s.host, "q=otter&models=author")).toEqual(["olive-otter"]);
    expect(await slugs(s.host, "q=otter&models=article")).toEqual(["otter-news"]);
    expect((await slugs(s.host, "q=otter&models=author,article")).sort()).toEqual(["olive-otter", "otter-news"]);
    // Taking a model out of search.models needs no reindex; putting it in neither.
    await setSearch(s, { models: [models.category.id] });
    expect(await slugs(s.host, "q=otter")).toEqual(["otter"]);
    expect((await search(s.host, "q=otter&models=article")).status).toBe(400);
  });

  it("serves each item in the first language it has, like lists, and follows the site's fallback policy", async () => {
    const { s, models } = await searchSite({}, { settings: { locale_fallback: [] } });
    const both = await publish(s, models.article, { title: "Lighthouse" });
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: both.instance_id, lang: "fr", slug: "phare", fields: { title: "Phare" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    await publish(s, models.article, { title: "Lighthouse keeper" });
    expect(await slugs(s.host, "q=lighthouse")).toEqual(["lighthouse", "lighthouse-keeper"]);
    expect(await slugs(s.host, "q=phare")).toEqual([]);
    const frRes = await search(s.host, "q=lighthouse&locale=fr");
    expect(frRes.body.data.map((d) => [d.item.slug, d.item.locale])).toEqual([["lighthouse-keeper", "en"]]);
    expect((await search(s.host, "q=phare&locale=fr")).body.data.map((d) => [d.item.slug, d.item.locale])).toEqual([["phare", "fr"]]);

    const strict = await searchSite({}, { settings: { locale_fallback_enabled: false } });
    await publish(strict.s, strict.models.article, { title: "Lighthouse" });
    expect(await slugs(strict.s.host, "q=lighthouse&locale=fr")).toEqual([]);
    expect(await slugs(strict.s.host, "q=lighthouse")).toEqual(["lighthouse"]);
  });

  it("pages with cursors through every match exactly once and refuses a forged or foreign cursor", async () => {
    const { s, models } = await searchSite();
    const expected: string[] = [];
    for (let i = 0; i < 7; i++) {
      const e = await publish(s, models.article, { title: `Heron ${i}`, summary: "heron ".repeat(i + 1) });
      expected.push(e.slug ?? "");
    }
    const all = await walk(s.host, "/v1/_search?q=heron&limit=3");
    expect(all.length).toBe(7);
    expect(new Set(all)).toEqual(new Set(expected));
    const single = await slugs(s.host, "q=heron&limit=50");
    expect(all).toEqual(single);

    const page = await search(s.host, "q=heron&limit=2");
    expect(page.body.page).toMatchObject({ limit: 2, has_more: true });
    const cursor = page.body.page.next_cursor ?? "";
    const [payload, mac] = cursor.split(".");
    for (const bad of [`${payload?.slice(0, -2)}AA.${mac}`, `${payload}.${"A".repeat(43)}`, "abc"]) {
      const res = await publicGet<ErrorBody>(s.host, `/v1/_search?q=heron&limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    // A cursor continues only its own search.
    for (const other of ["q=heron&limit=2&mode=stems", "q=herons&limit=2", "q=heron&limit=2&locale=fr", "q=heron&limit=2&models=article"]) {
      expect((await publicGet(s.host, `/v1/_search?${other}&cursor=${encodeURIComponent(cursor)}`)).status, other).toBe(400);
    }
    // A list cursor is not a search cursor.
    const list = await publicGet<{ page: { next_cursor: string } }>(s.host, "/v1/article?limit=1");
    expect((await publicGet(s.host, `/v1/_search?q=heron&cursor=${encodeURIComponent(list.body.page.next_cursor)}`)).status).toBe(400);
  });

  it("never shows another site's items, even with the same words", async () => {
    const a = await searchSite();
    const b = await searchSite();
    await publish(a.s, a.models.article, { title: "Shared pelican words" });
    await publish(b.s, b.models.article, { title: "Shared pelican phrases" });
    expect(await slugs(a.s.host, "q=pelican")).toEqual(["shared-pelican-words"]);
    expect(await slugs(b.s.host, "q=pelican")).toEqual(["shared-pelican-phrases"]);
    expect(await slugs(a.s.host, "q=phrases")).toEqual([]);
    expect(await slugs(b.s.host, "q=pel&mode=parts")).toEqual(["shared-pelican-phrases"]);
    const suggest = await publicGet<SuggestBody>(a.s.host, "/v1/_search/suggest?q=pel");
    expect(suggest.body.data.map((d) => d.slug)).toEqual(["shared-pelican-words"]);
  });

  it("tags answers with the site, the searched models and the items served", async () => {
    const { s, models } = await searchSite();
    const ann = await publish(s, models.author, { name: "Ann" });
    const item = await publish(s, models.article, { title: "Kestrel", author: ann.instance_id });
    const site = await findSiteById(createDb(env.DB), s.site.id);
    if (!site) throw new Error("no site");
    const answer = await searchItems(env.DB, site, searchSettings(site.settings), parseSearchParams(new URL("https://x/v1/_search?q=kestrel")), true);
    expect(answer.tags).toEqual(expect.arrayContaining([`s:${site.id}`, `m:${models.article.id}`, `m:${models.author.id}`, `i:${item.translation_group_id}`, `i:${ann.translation_group_id}`]));
    expect(answer.tags).not.toContain(`m:${models.note.id}`);
  });
});

describe("GET /v1/_search/suggest", () => {
  it("suggests at most 10 items, title matches first, the last word as a prefix", async () => {
    const { s, models } = await searchSite();
    const bodyOnly = await publish(s, models.article, { title: "Allotment diary", summary: "gardening tips" });
    for (let i = 0; i < 12; i++) await publish(s, models.article, { title: `Garden ${i}` });
    await publish(s, models.author, { name: "Green Gardener" });
    const res = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=gard");
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(10);
    expect(res.body.data.map((d) => d.instance_id)).not.toContain(bodyOnly.instance_id);
    expect(res.body.data.every((d) => d.text.startsWith("Garden") || d.text === "Green Gardener")).toBe(true);
    expect(Object.keys(res.body.data[0] ?? {}).sort()).toEqual(["instance_id", "model", "slug", "text"]);

    const narrow = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=green+gard");
    expect(narrow.body.data).toEqual([{ text: "Green Gardener", model: "author", slug: "green-gardener", instance_id: expect.any(String) }]);
    const tips = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=gardening+ti");
    expect(tips.body.data.map((d) => d.slug)).toEqual(["allotment-diary"]);
    // Earlier words are whole words: "gard" alone is not a word.
    expect((await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=gard+ti")).body.data).toEqual([]);
    const authors = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=gard&models=author");
    expect(authors.body.data.map((d) => d.text)).toEqual(["Green Gardener"]);
  });

  it("lists title matches before body matches, whatever the weights", async () => {
    // The summary outweighs the title here, so by score alone the body hits would come first.
    const { s, models } = await searchSite({ weights: { title: 1, summary: 10 } });
    const ctx = await freshCtx(s);
    for (let i = 0; i < 3; i++) await publish(s, models.article, { title: `Note ${i}`, summary: "puffin puffin puffin puffin" }, ctx);
    await publish(s, models.article, { title: "A long title about one puffin", summary: "short" }, ctx);
    const found = await slugs(s.host, "q=puffin");
    expect(found.at(-1)).toBe("a-long-title-about-one-puffin");
    const res = await publicGet<SuggestBody>(s.host, "/v1/_search/suggest?q=puf");
    expect(res.body.data.map((d) => d.text)).toEqual(["A long title about one puffin", expect.stringMatching(/^Note/), expect.stringMatching(/^Note/), expect.stringMatching(/^Note/)]);
  });
});

describe("search index maintenance", () => {
  it("reindexModel rebuilds a model's documents and drops them when the model turns private", async () => {
    const { s, models } = await searchSite();
    await publish(s, models.article, { title: "Badger one" });
    await publish(s, models.article, { title: "Badger two" });
    await env.DB.prepare("DELETE FROM search_documents WHERE site_id = ?").bind(s.site.id).run();
    expect(await slugs(s.host, "q=badger")).toEqual([]);
    const report = await reindexModel(s.ctx(), models.article.id);
    expect(report.documents).toBe(2);
    expect((await slugs(s.host, "q=badger")).sort()).toEqual(["badger-one", "badger-two"]);
    // Running it again changes nothing.
    await reindexModel(s.ctx(), models.article.id);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM search_documents WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(2);

    await env.DB.prepare("UPDATE models SET is_public = 0 WHERE id = ?").bind(models.article.id).run();
    const privateArticle: Model = { ...models.article, is_public: false };
    await commit(env.DB, await reindexModelStatements(s.ctx(), privateArticle));
    const left = await env.DB.prepare("SELECT count(*) AS n FROM search_documents WHERE site_id = ? AND model_id = ?").bind(s.site.id, models.article.id).first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await search(s.host, "q=badger&models=article")).status).toBe(400);
  });

  it("a guarded rebuild never brings back an item withdrawn after it was read", async () => {
    const { s, models } = await searchSite();
    const e = await publish(s, models.article, { title: "Stoat" });
    const statements = await reindexModelStatements(s.ctx(), models.article);
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: e.instance_id }));
    await commit(env.DB, statements);
    expect(await slugs(s.host, "q=stoat")).toEqual([]);
    const docs = await env.DB.prepare("SELECT count(*) AS n FROM search_documents WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(docs?.n).toBe(0);
  });
});
