// The served-per-language view of public lists (issue #27 item 8, docs/scale.md "Served lists"):
// every list form answers exactly what the read-time query answers, through every change of what is
// served, and a page reads at most page + 1 rows.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { siteScope } from "../../shared/db/site-scope";
import { siteDatabase } from "../../shared/db/site-databases";
import { publishedRepository } from "../../shared/repositories/published-repository";
import * as lifecycle from "../../shared/services/lifecycle";
import { setManualOrder } from "../../shared/services/models/manual-order";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet, type ListBody } from "../helpers/public-api";

async function setServedView(s: SeededSite, on: boolean): Promise<void> {
  await env.DB.prepare("UPDATE sites SET served_view = ? WHERE id = ?").bind(on ? 1 : 0, s.site.id).run();
}

/** Each list's answer (slug and language of every item, page shape), walking every page. */
async function answers(s: SeededSite, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    let url = path;
    for (let i = 0; i < 20; i++) {
      const page = await publicGet<ListBody>(s.host, url);
      expect(page.status, url).toBe(200);
      out.push(`${url} → ${JSON.stringify(page.body.data.map((d) => [d.slug, d.locale]))} more=${page.body.page.has_more}`);
      const next = page.body.page.next_cursor;
      if (!next) break;
      url = `${path}&cursor=${encodeURIComponent(next)}`;
    }
  }
  return out;
}

/** The first page's line of one list in `answers`. */
const firstPage = (lines: readonly string[], path: string): string => lines.find((l) => l.startsWith(`${path} →`)) ?? "";

/** The served view's answers, then the read-time query's (the site switched off the view): equal. */
async function sameAsReadTime(s: SeededSite, paths: readonly string[]): Promise<string[]> {
  const served = await answers(s, paths);
  await setServedView(s, false);
  const readTime = await answers(s, paths);
  await setServedView(s, true);
  expect(served).toEqual(readTime);
  return served;
}

async function blog(s: SeededSite) {
  const models = await blogModels(s.ctx());
  const mk = async (model: string, fields: Record<string, unknown>) => {
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: model, fields }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    return e;
  };
  const ann = await mk(models.author.id, { name: "Ann" });
  const bob = await mk(models.author.id, { name: "Bob" });
  const news = await mk(models.category.id, { title: "News" });
  const a1 = await mk(models.article.id, { title: "A1", author: ann.instance_id, categories: [news.instance_id] });
  const a2 = await mk(models.article.id, { title: "A2", author: ann.instance_id });
  const b1 = await mk(models.article.id, { title: "B1", author: bob.instance_id, categories: [news.instance_id] });
  return { models, ann, bob, a1, a2, b1 };
}

describe("public lists from the served view", () => {
  /** A German, French and English site (de → fr → en) with the blog, and the list forms compared. */
  async function multilingual() {
    const s = await seedSite({ languages: ["en", "fr", "de"], settings: { locale_fallback: ["fr"] } });
    const blogged = await blog(s);
    const paths = [
      "/v1/article?locale=fr&limit=2",
      `/v1/article?locale=de&relation=author:${blogged.ann.instance_id}&tag=categories:news`,
      "/v1/article?locale=de&order=manual",
      "/v1/article?order=asc",
    ];
    return { s, paths, ...blogged };
  }

  it("answers the list forms as the read-time query does through a translation's publish and unpublish", async () => {
    const { s, paths, a1 } = await multilingual();
    // Published in English only: French and German readers get English (German through French, then the default).
    const start = await sameAsReadTime(s, paths);
    expect(firstPage(start, paths[0] ?? "")).toContain(JSON.stringify([["b1", "en"], ["a2", "en"]]));
    const a1Fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: a1.instance_id, lang: "fr", slug: "a1-fr", fields: { title: "A1 fr" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a1Fr.instance_id }));
    expect((await sameAsReadTime(s, paths)).join("\n")).toContain(JSON.stringify(["a1-fr", "fr"]));
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: a1Fr.instance_id }));
    expect(await sameAsReadTime(s, paths)).toEqual(start);
  });

  it("answers the list forms as the read-time query does through Trash, restore and the manual order", async () => {
    const { s, paths, models, a1, a2, b1 } = await multilingual();
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: a2.instance_id }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: a2.instance_id }));
    expect((await sameAsReadTime(s, paths)).join("\n")).not.toContain('"a2"');
    await apply(s.ctx(), lifecycle.restoreEntry(s.ctx(), { instance_id: a2.instance_id }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a2.instance_id }));
    await apply(s.ctx(), setManualOrder(s.ctx(), { model_id: models.article.id, items: [a1.translation_group_id, b1.translation_group_id] }));
    const manual = await sameAsReadTime(s, paths);
    expect(firstPage(manual, paths[2] ?? "")).toContain(JSON.stringify([["a1", "en"], ["b1", "en"], ["a2", "en"]]));
  });

  it("rebuilds every language's lists when the locale settings change", async () => {
    const { s, paths } = await multilingual();
    const token = await credential(s);
    expect((await manage(token, "PUT", "/settings", { body: { locale_fallback_enabled: false } })).status).toBe(200);
    expect(firstPage(await sameAsReadTime(s, paths), paths[0] ?? "")).toContain("→ []");
    expect((await manage(token, "PUT", "/settings", { body: { locale_fallback_enabled: true } })).status).toBe(200);
    expect(firstPage(await sameAsReadTime(s, paths), paths[0] ?? "")).toContain(JSON.stringify([["b1", "en"], ["a2", "en"]]));
  });

  it("reads at most page + 1 rows for the plain, relation-filtered and fallback lists", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const { models, ann } = await blog(s);
    for (let i = 0; i < 6; i++) {
      const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: `More ${i}`, author: ann.instance_id } }));
      await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    }
    const repo = publishedRepository(await siteDatabase(env, s.site.id), siteScope(s.site.id));
    const base = { modelId: models.article.id, order: "desc" as const, limit: 3 };
    for (const [chain, filters] of [
      [["en"], []],
      [["en"], [{ kind: "relation", field: "author", group: ann.translation_group_id }]],
      [["fr", "en"], []],
      [["fr", "en"], [{ kind: "relation", field: "author", group: ann.translation_group_id }]],
    ] as const) {
      const page = await repo.servedList({ ...base, chain, filters });
      expect(page.rows.length).toBe(3);
      expect(page.rowsRead).toBeLessThanOrEqual(base.limit + 1);
    }
  });

  it("serves a site whose content lives in another database from the view there", async () => {
    const s = await seedSite({ database: "DB_2", languages: ["en", "fr"] });
    const { ann } = await blog(s);
    const served = await sameAsReadTime(s, ["/v1/article?locale=fr&limit=2", `/v1/article?locale=fr&relation=author:${ann.instance_id}`]);
    expect(firstPage(served, "/v1/article?locale=fr&limit=2")).toContain(JSON.stringify([["b1", "en"], ["a2", "en"]]));
    const rows = await env.DB_2.prepare("SELECT count(*) AS n FROM served_items WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBeGreaterThan(0);
  });
});
