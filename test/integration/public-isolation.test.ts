import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

/** Two sites with the same models and the same slugs, different content. */
async function twins() {
  const a = await seedSite({ settings: { embed_origins: ["https://a.example"] } });
  const b = await seedSite({ settings: { embed_origins: ["https://b.example"] } });
  const publish = async (s: SeededSite, title: string, slug: string) => {
    const m = await blogModels(s.ctx());
    const author = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: m.author.id, slug: "same-author", fields: { name: `${title} author` } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: author.instance_id }));
    const cat = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: m.category.id, slug: "same-cat", fields: { title: `${title} cat` } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: cat.instance_id }));
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: m.article.id, slug, fields: { title, author: author.instance_id, categories: [cat.instance_id] } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    return { article: e, author, models: m };
  };
  const inA = await publish(a, "Only in A", "same-slug");
  const inB = await publish(b, "Only in B", "same-slug");
  // Both sites search their articles, which share words ("Only in").
  for (const [s, models] of [[a, inA.models], [b, inB.models]] as const) {
    const settings = { ...s.site.settings, search: { ...s.site.settings.search, enabled: true, models: [models.article.id] } };
    await env.DB.prepare("UPDATE sites SET settings = ? WHERE id = ?").bind(JSON.stringify(settings), s.site.id).run();
  }
  return { a, b, inA, inB };
}

describe("public API isolation between sites", () => {
  it("never serves one site's content on another's host, on any endpoint", async () => {
    const { a, b, inA, inB } = await twins();
    const paths = [
      "/health",
      "/v1/article",
      "/v1/article/same-slug",
      "/v1/article?tag=categories:same-cat",
      `/v1/article?relation=author:${inA.author.instance_id}`,
      `/v1/article?relation=author:${inB.author.instance_id}`,
      "/v1/author/same-author",
      "/v1/category?locale=fr",
      "/v1/_embeds",
      "/v1/_rich-blocks",
      "/v1/_search?q=only",
      "/v1/_search?q=only&mode=parts",
      "/v1/_search/suggest?q=onl",
    ];
    for (const path of paths) {
      const fromB = JSON.stringify((await publicGet(b.host, path)).body);
      expect(fromB, path).not.toContain("Only in A");
      expect(fromB, path).not.toContain(inA.article.instance_id);
      expect(fromB, path).not.toContain(a.site.id);
      expect(fromB, path).not.toContain("a.example");
      const fromA = JSON.stringify((await publicGet(a.host, path)).body);
      expect(fromA, path).not.toContain("Only in B");
      expect(fromA, path).not.toContain(inB.article.instance_id);
    }
    expect((await publicGet<{ data: { fields: { title: string } } }>(b.host, "/v1/article/same-slug")).body.data.fields.title).toBe("Only in B");
    const found = await publicGet<{ data: { item: { fields: { title: string } } }[] }>(b.host, "/v1/_search?q=only");
    expect(found.body.data.map((d) => d.item.fields.title)).toEqual(["Only in B"]);
    // Filtering B's list by A's author id finds nothing: ids of another site match no row.
    expect((await publicGet<{ data: unknown[] }>(b.host, `/v1/article?relation=author:${inA.author.instance_id}`)).body.data).toEqual([]);
  });

  it("does not let a cursor of one site page another site's list", async () => {
    const { a, b, inA } = await twins();
    const more = await apply(a.ctx(), lifecycle.createEntry(a.ctx(), { model_id: inA.models.article.id, slug: "second", fields: { title: "Second in A" } }));
    await apply(a.ctx(), lifecycle.publishEntry(a.ctx(), { instance_id: more.instance_id }));
    const page = await publicGet<{ page: { next_cursor: string | null } }>(a.host, "/v1/article?limit=1");
    const cursor = page.body.page.next_cursor;
    expect(cursor).not.toBeNull();
    const onB = await publicGet<{ error: { code: string } }>(b.host, `/v1/article?limit=1&cursor=${encodeURIComponent(cursor ?? "")}`);
    expect(onB.status).toBe(400);
    expect(onB.body.error.code).toBe("invalid_request");
  });
});
