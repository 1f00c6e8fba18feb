import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Model } from "../../shared/repositories/model-repository";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, newImport, step, uploadFile } from "../helpers/imports-api";
import polylangExport from "../fixtures/wordpress/polylang-test-import.xml?raw";

/**
 * Polylang's own test export (test/fixtures/wordpress/README.md: WordPress 4.4.1 with Polylang, as
 * exported): categories Test (en) / Essai (fr) and Uncategorized (en) / Non classé (fr) in two
 * `term_translations` groups; posts Test (en) / Essai (fr) and pages Home / Accueil, each pair in a
 * `post_translations` group; nav menu items.
 */
const FILE = new TextEncoder().encode(polylangExport);

type Related = { slug: string; display: string | null };
type PublicItem = { data: { id: string; locale: string; fields: { title: string }; relations: { categories?: Related[] } } };

async function models(s: SeededSite, categoriesTranslated: boolean): Promise<{ category: Model; post: Model }> {
  const title = { key: "title", label: "Title", type: "text" as const, required: true, title: true };
  const category = await addModel(s.ctx(), { slug: "category", name: "Category", i18n: categoriesTranslated, fields: [title] });
  const post = await addModel(s.ctx(), {
    slug: "post",
    name: "Post",
    i18n: true,
    fields: [title, { key: "body", label: "Body", type: "rich_text" }, { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] }],
  });
  return { category, post };
}

async function importFile(s: SeededSite, category: Model, post: Model): Promise<{ token: string; id: string }> {
  const token = await credential(s);
  const job = await newImport(token);
  expect((await uploadFile(token, job.id, FILE)).status).toBe(200);
  expect((await advanceWhile(token, job.id, ["uploaded", "parsing"])).state).toBe("review");
  expect((await step(token, job.id, "wordpress/review", { mapping: { post: post.id, page: null, category: category.id, tag: null }, approve: true })).status).toBe(200);
  expect((await advanceWhile(token, job.id, ["review", "writing"], 10)).state).toBe("done");
  return { token, id: job.id };
}

const entriesOf = async (siteId: string, modelId: string) =>
  (await env.DB.prepare("SELECT slug, lang, translation_group_id FROM entries WHERE site_id = ? AND model_id = ? ORDER BY slug").bind(siteId, modelId).all<{ slug: string; lang: string; translation_group_id: string }>()).results;

describe("WordPress import: a term's language (Polylang's own export)", () => {
  it("imports a category and its translation as languages of one entry of a translated model, and posts relate to the category in their language", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const { category, post } = await models(s, true);
    const { token, id } = await importFile(s, category, post);

    const categories = await entriesOf(s.site.id, category.id);
    expect(categories.map((c) => [c.slug, c.lang])).toEqual([
      ["essai", "fr"],
      ["non-classe", "fr"],
      ["test", "en"],
      ["uncategorized", "en"],
    ]);
    const group = (slug: string) => categories.find((c) => c.slug === slug)?.translation_group_id;
    expect(group("test")).toBe(group("essai"));
    expect(group("uncategorized")).toBe(group("non-classe"));
    expect(group("test")).not.toBe(group("uncategorized"));

    // Served as one item in two languages.
    const test = await publicGet<PublicItem>(s.host, "/v1/category/test");
    expect([test.status, test.body.data.locale, test.body.data.fields.title]).toEqual([200, "en", "Test"]);
    const essai = await publicGet<PublicItem>(s.host, "/v1/category/essai?locale=fr");
    expect([essai.status, essai.body.data.locale, essai.body.data.fields.title]).toEqual([200, "fr", "Essai"]);

    // The English post and its French translation name the category in their own language.
    const en = await publicGet<PublicItem>(s.host, "/v1/post/test");
    expect(en.body.data.relations.categories?.map((c) => [c.slug, c.display])).toEqual([["test", "Test"]]);
    const fr = await publicGet<PublicItem>(s.host, "/v1/post/essai?locale=fr");
    expect(fr.body.data.locale).toBe("fr");
    expect(fr.body.data.relations.categories?.map((c) => [c.slug, c.display])).toEqual([["essai", "Essai"]]);

    // Polylang's languages and groups are markers, not items: no finding names them; the nav menu's items and terms are skipped with one each.
    const findings = await allFindings(token, id);
    const skipped = findings.filter((f) => f.code === "item_skipped").map((f) => String(f.details.source_key));
    expect(skipped.filter((k) => /^(language|term_language|post_translations|term_translations):/.test(k))).toEqual([]);
    expect(skipped.filter((k) => k.startsWith("nav_menu:")).sort()).toEqual(["nav_menu:menu_en", "nav_menu:menu_fr"]);
    expect(findings.filter((f) => f.code === "item_refused")).toEqual([]);
  });

  it("keeps each term an entry of its own in the default language when the category model is not translated", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const { category, post } = await models(s, false);
    await importFile(s, category, post);
    const categories = await entriesOf(s.site.id, category.id);
    expect(categories.map((c) => [c.slug, c.lang])).toEqual([
      ["essai", "en"],
      ["non-classe", "en"],
      ["test", "en"],
      ["uncategorized", "en"],
    ]);
    expect(new Set(categories.map((c) => c.translation_group_id)).size).toBe(4);
  });
});
