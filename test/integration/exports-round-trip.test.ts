import { describe, expect, it } from "vitest";
import { addLanguage, createEntry, publishEntry } from "../../shared/services/lifecycle";
import { env } from "cloudflare:test";
import { addModel, apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, exportWholeSite, newImport, step, uploadFile } from "../helpers/imports-api";
import { comparable } from "../helpers/public-compare";


describe("exports round trip: a Driftwood export imported into an empty site", () => {
  // Two stages, one test each (each within the suite's 30 s): the export of site A, its import into B.
  let a: Awaited<ReturnType<typeof seedSite>>;
  let file: Uint8Array;

  it("exports a site with models, entries in two languages, relations and drafts", async () => {
    a = await seedSite();
    const ctx = a.ctx();
    const { article, category, author } = await blogModels(ctx);
    const news = await apply(ctx, createEntry(ctx, { model_id: category.id, slug: "news", fields: { title: "News" } }));
    await apply(ctx, publishEntry(ctx, { instance_id: news.instance_id }));
    const ada = await apply(ctx, createEntry(ctx, { model_id: author.id, slug: "ada", fields: { name: "Ada", bio: "Wrote the first program." } }));
    await apply(ctx, publishEntry(ctx, { instance_id: ada.instance_id }));
    const hello = await apply(ctx, createEntry(ctx, { model_id: article.id, slug: "hello", fields: { title: "Hello", summary: "First", body: "<p>First <strong>post</strong></p>", categories: [news.instance_id], author: ada.instance_id } }));
    await apply(ctx, publishEntry(ctx, { instance_id: hello.instance_id }));
    const bonjour = await apply(ctx, addLanguage(ctx, { instance_id: hello.instance_id, lang: "fr", slug: "bonjour", fields: { title: "Bonjour", body: "<p>Premier</p>" } }));
    await apply(ctx, publishEntry(ctx, { instance_id: bonjour.instance_id }));
    await apply(ctx, createEntry(ctx, { model_id: article.id, slug: "draft", fields: { title: "Not yet" } }));

    const tokenA = await credential(a);
    const exported = await exportWholeSite(tokenA);
    expect(exported.state).toBe("finished");
    file = exported.file;
  });

  it("recreates models, entries in both languages, relations and publication: both sites' public answers match item by item", async () => {
    const b = await seedSite();
    const tokenB = await credential(b);
    const imported = await newImport(tokenB, "driftwood", "site.ndjson");
    expect((await uploadFile(tokenB, imported.id, file)).status).toBe(200);
    const done = await advanceWhile(tokenB, imported.id, ["uploaded", "parsing", "writing"], 30);
    expect(done.state).toBe("done");
    const findings = await allFindings(tokenB, imported.id);
    expect(findings.filter((f) => f.code !== "item_skipped")).toEqual([]);

    for (const path of ["/v1/article", "/v1/article?locale=fr", "/v1/category", "/v1/author", "/v1/article/hello", "/v1/article/bonjour?locale=fr", "/v1/category/news", "/v1/author/ada", "/v1/article/draft"]) {
      const [left, right] = [await publicGet(a.host, path), await publicGet(b.host, path)];
      expect([path, right.status]).toEqual([path, left.status]);
      expect(comparable(right.body)).toEqual(comparable(left.body));
    }
    // The answers compared hold the content: the article with its category and author, its translation.
    const list = await publicGet<{ data: unknown[] }>(b.host, "/v1/article");
    expect(list.body.data).toHaveLength(1);
    const item = JSON.stringify((await publicGet(b.host, "/v1/article/hello")).body);
    for (const text of ['"news"', '"ada"', "First <strong>post</strong>", "Hello"]) expect(item).toContain(text);
    expect(JSON.stringify((await publicGet(b.host, "/v1/article/bonjour?locale=fr")).body)).toContain("Premier");
    expect((await publicGet(b.host, "/v1/article/draft")).status).toBe(404);
  });

  it("into a site already holding models of the same slugs: stops in review with model_conflict naming the fields that differ; writes only into a compatible model the person chose (probe finding)", async () => {
    const c = await seedSite();
    const ctx = c.ctx();
    // "category" as the export has it (compatible); "author" with another type for bio and a required field the export lacks.
    const category = await addModel(ctx, { slug: "category", name: "Category", i18n: true, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    const author = await addModel(ctx, {
      slug: "author",
      name: "Author",
      i18n: false,
      fields: [
        { key: "name", label: "Name", type: "text", required: true, title: true },
        { key: "bio", label: "Bio", type: "integer" },
        { key: "email", label: "E-mail", type: "text", required: true },
      ],
    });
    const tokenC = await credential(c);
    const imported = await newImport(tokenC, "driftwood", "site.ndjson");
    expect((await uploadFile(tokenC, imported.id, file)).status).toBe(200);
    expect((await advanceWhile(tokenC, imported.id, ["uploaded", "parsing", "writing"], 30)).state).toBe("review");

    type Conflict = { model: string; existing_model_id: string; compatible: boolean; fields: { key: string; difference: string; exported_type: string | null; site_type: string | null }[]; choice: string | null };
    const conflicts = (await allFindings(tokenC, imported.id)).filter((f) => f.code === "model_conflict").map((f) => f.details as unknown as Conflict);
    expect(conflicts.map((x) => [x.model, x.existing_model_id, x.compatible]).sort()).toEqual([
      ["author", author.id, false],
      ["category", category.id, true],
    ]);
    expect(conflicts.find((x) => x.model === "author")?.fields).toEqual([
      { key: "bio", difference: "type", exported_type: "long_text", site_type: "integer" },
      { key: "email", difference: "required_not_exported", exported_type: null, site_type: "text" },
    ]);
    const mapping = await manage<{ mapping: { models: Conflict[] } }>(tokenC, "GET", `/imports/${imported.id}/mapping`);
    expect(mapping.body.mapping.models.map((x) => [x.model, x.choice]).sort()).toEqual([["author", null], ["category", null]]);

    // Nothing is written before the person chooses; an incompatible model cannot take the entries.
    const early = await step(tokenC, imported.id, "advance");
    expect([early.status, (early.body as unknown as { error: { code: string; models: string[] } }).error.code]).toEqual([409, "import_review_pending"]);
    const wrong = await manage<{ error: { code: string } }>(tokenC, "PUT", `/imports/${imported.id}/mapping`, { body: { models: { author: "existing" } } });
    expect([wrong.status, wrong.body.error.code]).toEqual([422, "import_mapping_invalid"]);
    const chosen = await manage<{ mapping: { models: Conflict[] } }>(tokenC, "PUT", `/imports/${imported.id}/mapping`, { body: { models: { author: "refuse", category: "existing" } } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.mapping.models.map((x) => [x.model, x.choice]).sort()).toEqual([["author", "refuse"], ["category", "existing"]]);
    expect((await advanceWhile(tokenC, imported.id, ["review", "writing"], 30)).state).toBe("done");

    // The category went into the site's own model (no second one); the author model got nothing.
    const models = await env.DB.prepare("SELECT slug FROM models WHERE site_id = ? ORDER BY slug").bind(c.site.id).all<{ slug: string }>();
    expect(models.results.map((m) => m.slug)).toEqual(["article", "author", "category", "note"]);
    const perModel = await env.DB.prepare("SELECT model_id, count(*) AS n FROM entries WHERE site_id = ? GROUP BY model_id").bind(c.site.id).all<{ model_id: string; n: number }>();
    expect(perModel.results.find((r) => r.model_id === author.id)).toBeUndefined();
    expect(perModel.results.find((r) => r.model_id === category.id)?.n).toBe(1);
    expect(JSON.stringify((await publicGet(c.host, "/v1/article/hello")).body)).toContain('"news"');
    const skipped = (await allFindings(tokenC, imported.id)).filter((f) => f.code === "item_skipped" && (f.details as { reason?: string }).reason === "model_conflict");
    expect(skipped.map((f) => (f.details as { model?: string }).model)).toEqual(["author"]);
  });
});
