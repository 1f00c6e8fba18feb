import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet, type ListBody } from "../helpers/public-api";

interface Dated {
  id: string;
  slug: string;
  locale: string;
  published_at: string;
  first_published_at: string;
}

/** (first_published_at, id) of items, as a client checks the order it was given. */
const sortKey = (d: Dated) => [d.first_published_at, d.id] as const;
const before = (a: Dated, b: Dated) => (sortKey(a)[0] < sortKey(b)[0] || (sortKey(a)[0] === sortKey(b)[0] && sortKey(a)[1] < sortKey(b)[1]));

async function publishArticles(s: SeededSite, count: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const models = await blogModels(s.ctx());
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: `Article ${i}`, ...extra(i) } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    ids.push(e.instance_id);
  }
  return { models, ids };
}

async function walk(host: string, path: string, cursor?: string): Promise<string[]> {
  const seen: string[] = [];
  let url = cursor ? `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}` : path;
  for (let i = 0; i < 100; i++) {
    const page = await publicGet<ListBody>(host, url);
    expect(page.status).toBe(200);
    seen.push(...page.body.data.map((d) => d.slug));
    if (!page.body.page.next_cursor) break;
    url = `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(page.body.page.next_cursor)}`;
  }
  return seen;
}

describe("GET /v1/{model}", () => {
  it("lists published items newest first with the page shape", async () => {
    const s = await seedSite();
    await publishArticles(s, 3);
    const res = await publicGet<ListBody>(s.host, "/v1/article");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.data.map((d) => d.slug)).toEqual(["article-2", "article-1", "article-0"]);
    expect(res.body.page).toEqual({ limit: 20, has_more: false, next_cursor: null });
    expect(Object.keys(res.body.data[0] ?? {}).sort()).toEqual(["fields", "first_published_at", "id", "locale", "media", "model", "published_at", "relations", "slug", "version"]);
    expect(JSON.stringify(res.body)).not.toContain("internal_note");
    const asc = await publicGet<ListBody>(s.host, "/v1/article?order=asc");
    expect(asc.body.data.map((d) => d.slug)).toEqual(["article-0", "article-1", "article-2"]);
  });

  it("pages with cursors through every item exactly once, also while items change between pages", async () => {
    const s = await seedSite();
    const { ids, models } = await publishArticles(s, 7);
    const first = await publicGet<ListBody>(s.host, "/v1/article?limit=3");
    expect(first.body.page.has_more).toBe(true);
    // Between pages: one item is withdrawn and one new item is published.
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: ids[6] ?? "" }));
    const fresh = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Fresh" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fresh.instance_id }));
    const rest = await walk(s.host, "/v1/article?limit=3", first.body.page.next_cursor ?? "");
    const all = [...first.body.data.map((d) => d.slug), ...rest];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(["article-6", "article-5", "article-4", "article-3", "article-2", "article-1", "article-0"]);
    expect(await walk(s.host, "/v1/article?limit=2&order=asc")).toEqual(["article-0", "article-1", "article-2", "article-3", "article-4", "article-5", "fresh"]);
  });

  it("refuses a forged, altered or foreign cursor with 400", async () => {
    const s = await seedSite();
    await publishArticles(s, 3);
    const page = await publicGet<ListBody>(s.host, "/v1/article?limit=1");
    const cursor = page.body.page.next_cursor ?? "";
    const [payload, mac] = cursor.split(".");
    const forged = `${payload?.slice(0, -2)}AA.${mac}`;
    for (const bad of [forged, "abc", `${payload}.${"A".repeat(43)}`]) {
      expect((await publicGet(s.host, `/v1/article?limit=1&cursor=${encodeURIComponent(bad)}`)).status).toBe(400);
    }
    // A cursor of one list does not continue another (here: another order).
    expect((await publicGet(s.host, `/v1/article?limit=1&order=asc&cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
  });

  it("caps the page size and refuses malformed or unknown parameters", async () => {
    const s = await seedSite();
    await publishArticles(s, 1);
    expect((await publicGet<ListBody>(s.host, "/v1/article?limit=5000")).body.page.limit).toBe(100);
    for (const q of ["limit=0", "limit=abc", "order=random", "foo=1", "locale=EN!", "locale=en&locale=fr", "relation=author", "tag=:x", "site=other"]) {
      const res = await publicGet<{ error: { code: string } }>(s.host, `/v1/article?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("refuses more than 16 filter pairs with public_filter_too_many and max", async () => {
    const s = await seedSite();
    await publishArticles(s, 1);
    const q = Array.from({ length: 17 }, (_, i) => (i % 2 ? `tag=categories:c${i}` : `relation=author:ent_${i}`)).join("&");
    const res = await publicGet<{ error: { code: string; max: number } }>(s.host, `/v1/article?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "public_filter_too_many", max: 16 });
    const sixteen = Array.from({ length: 16 }, () => "tag=categories:news").join("&");
    expect((await publicGet(s.host, `/v1/article?${sixteen}`)).status).toBe(200);
  });

  it("filters by relation and tag, ANDed, and refuses a field that is not a public relation", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const mk = async (model: string, fields: Record<string, unknown>) => {
      const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: model, fields }));
      await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
      return e;
    };
    const ann = await mk(models.author.id, { name: "Ann" });
    const bob = await mk(models.author.id, { name: "Bob" });
    const news = await mk(models.category.id, { title: "News" });
    const tech = await mk(models.category.id, { title: "Tech" });
    await mk(models.article.id, { title: "A1", author: ann.instance_id, categories: [news.instance_id] });
    await mk(models.article.id, { title: "A2", author: ann.instance_id, categories: [news.instance_id, tech.instance_id] });
    await mk(models.article.id, { title: "B1", author: bob.instance_id, categories: [tech.instance_id] });
    const slugs = async (q: string) => (await publicGet<ListBody>(s.host, `/v1/article?${q}`)).body.data.map((d) => d.slug);
    expect(await slugs(`relation=author:${ann.instance_id}`)).toEqual(["a2", "a1"]);
    expect(await slugs(`relation=author:${ann.translation_group_id}`)).toEqual(["a2", "a1"]);
    expect(await slugs("tag=categories:tech")).toEqual(["b1", "a2"]);
    expect(await slugs(`relation=author:${ann.instance_id}&tag=categories:tech`)).toEqual(["a2"]);
    expect(await slugs("tag=categories:tech&tag=categories:news")).toEqual(["a2"]);
    expect(await slugs("relation=author:ent_unknown")).toEqual([]);
    expect((await publicGet(s.host, "/v1/article?tag=title:x")).status).toBe(400);
    expect((await publicGet(s.host, "/v1/article?tag=internal_note:x")).status).toBe(400);
    expect(await walk(s.host, "/v1/article?limit=1&tag=categories:tech")).toEqual(["b1", "a2"]);
  });

  it("serves each item in the first language it has and says which one", async () => {
    const s = await seedSite({ settings: { locale_fallback: [] } });
    const { ids } = await publishArticles(s, 3);
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: ids[1] ?? "", lang: "fr", slug: "article-1-fr", fields: { title: "Article un" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    const res = await publicGet<ListBody>(s.host, "/v1/article?locale=fr");
    expect(res.body.data.map((d) => [d.slug, d.locale])).toEqual([["article-2", "en"], ["article-1-fr", "fr"], ["article-0", "en"]]);
    expect((await walk(s.host, "/v1/article?locale=fr&limit=1")).length).toBe(3);
    expect((await publicGet(s.host, "/v1/article?locale=de")).status).toBe(404);
  });

  it("shows each item's first publication, keeps it through re-publishing and translation, and orders by it then id", async () => {
    const s = await seedSite();
    const { ids } = await publishArticles(s, 3);
    const first = await publicGet<{ data: Dated[] }>(s.host, "/v1/article");
    const firstOf = new Map(first.body.data.map((d) => [d.slug, d.first_published_at]));
    for (const d of first.body.data) expect(d.first_published_at).toBe(d.published_at);

    // Re-publish article-0 and publish a French article-1 later: neither moves, both show when the item was first published.
    const current = await env.DB.prepare("SELECT current_version_id AS v FROM entries WHERE instance_id = ?").bind(ids[0] ?? "").first<{ v: string }>();
    const draft = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: ids[0] ?? "", expected_version_id: current?.v ?? "", fields: { title: "Article 0, revised" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: draft.instance_id }));
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: ids[1] ?? "", lang: "fr", slug: "article-1-fr", fields: { title: "Article un" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));

    const en = await publicGet<{ data: Dated[] }>(s.host, "/v1/article");
    expect(en.body.data.map((d) => [d.slug, d.first_published_at])).toEqual(first.body.data.map((d) => [d.slug, d.first_published_at]));
    const revised = en.body.data.find((d) => d.slug === "article-0");
    expect(revised && revised.published_at > revised.first_published_at).toBe(true);
    const french = await publicGet<{ data: Dated[] }>(s.host, "/v1/article?locale=fr");
    const translated = french.body.data.find((d) => d.slug === "article-1-fr");
    expect(translated?.first_published_at).toBe(firstOf.get("article-1"));
    expect(translated && translated.published_at > translated.first_published_at).toBe(true);
    const item = await publicGet<{ data: Dated }>(s.host, "/v1/article/article-1-fr?locale=fr");
    expect(item.body.data.first_published_at).toBe(firstOf.get("article-1"));

    for (const [list, ascending] of [[en.body.data, false], [french.body.data, false], [(await publicGet<{ data: Dated[] }>(s.host, "/v1/article?order=asc")).body.data, true]] as const) {
      for (let i = 1; i < list.length; i++) {
        const [a, b] = [list[i - 1], list[i]];
        if (a && b) expect(ascending ? before(a, b) : before(b, a)).toBe(true);
      }
    }
  });

  it("orders items first published at the same instant by id, on every page", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const instant = Date.parse("2026-01-02T03:04:05.678Z");
    const frozen = { ...s.ctx(), clock: { now: () => instant } };
    for (const title of ["Tie A", "Tie B", "Tie C", "Tie D", "Tie E"]) {
      const e = await apply(frozen, lifecycle.createEntry(frozen, { model_id: models.article.id, fields: { title } }));
      await apply(frozen, lifecycle.publishEntry(frozen, { instance_id: e.instance_id }));
    }
    const all = (await publicGet<{ data: Dated[] }>(s.host, "/v1/article")).body.data;
    expect(new Set(all.map((d) => d.first_published_at))).toEqual(new Set(["2026-01-02T03:04:05.678Z"]));
    const byIdDesc = [...all].sort((a, b) => (a.id < b.id ? 1 : -1)).map((d) => d.slug);
    expect(all.map((d) => d.slug)).toEqual(byIdDesc);
    expect(await walk(s.host, "/v1/article?limit=2")).toEqual(byIdDesc);
    expect(await walk(s.host, "/v1/article?limit=2&order=asc")).toEqual([...byIdDesc].reverse());
  });

  it("answers 404 for a missing translation when the site's policy is no fallback", async () => {
    const s = await seedSite({ settings: { locale_fallback_enabled: false } });
    await publishArticles(s, 2);
    const res = await publicGet<ListBody>(s.host, "/v1/article?locale=fr");
    expect(res.body.data).toEqual([]);
    expect((await publicGet(s.host, "/v1/article/article-0?locale=fr")).status).toBe(404);
  });
});
