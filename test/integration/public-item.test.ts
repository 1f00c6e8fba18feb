import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { publicGet } from "../helpers/public-api";

interface ItemBody {
  data: { id: string; slug: string; locale: string; model: string; fields: Record<string, unknown> };
}


describe("GET /v1/{model}/{slug}", () => {
  it("serves one published item by slug with the item keys", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Hello", internal_note: "psst" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const res = await publicGet<ItemBody>(s.host, "/v1/article/hello");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.data).toMatchObject({ id: e.instance_id, slug: "hello", model: "article", locale: "en", fields: { title: "Hello" } });
    expect(res.body.data.fields).not.toHaveProperty("internal_note");
  });

  it("serves the published version, not a newer draft", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Published" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: e.instance_id, expected_version_id: e.current_version_id ?? "", fields: { title: "Draft" } }));
    expect((await publicGet<ItemBody>(s.host, "/v1/article/published")).body.data.fields.title).toBe("Published");
  });

  it("falls back along the site's order and says which language served", async () => {
    const s = await seedSite({ languages: ["en", "fr", "de"], settings: { locale_fallback: ["fr"] } });
    const { article } = await blogModels(s.ctx());
    const en = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Tide" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: en.instance_id }));
    expect((await publicGet<ItemBody>(s.host, "/v1/article/tide?locale=de")).body.data.locale).toBe("en");
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: en.instance_id, lang: "fr", slug: "maree", fields: { title: "Marée" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: fr.instance_id }));
    // German falls back to French (the site's order) before English (the default).
    const de = await publicGet<ItemBody>(s.host, "/v1/article/tide?locale=de");
    expect(de.body.data).toMatchObject({ locale: "fr", slug: "maree" });
    // The French slug in French, and the English slug asked in French, both serve French.
    expect((await publicGet<ItemBody>(s.host, "/v1/article/maree?locale=fr")).body.data.locale).toBe("fr");
    expect((await publicGet<ItemBody>(s.host, "/v1/article/tide?locale=fr")).body.data.slug).toBe("maree");
    expect((await publicGet<ItemBody>(s.host, "/v1/article/tide")).body.data.locale).toBe("en");
  });

  it("answers one identical 404 for every kind of refusal", async () => {
    const s = await seedSite({ settings: { locale_fallback_enabled: false } });
    const { article, note } = await blogModels(s.ctx());
    const draft = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Draft only" } }));
    const gone = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Gone" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: gone.instance_id }));
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: gone.instance_id }));
    const live = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Live" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: live.instance_id }));
    const secret = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: note.id, fields: { title: "Secret" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: secret.instance_id }));
    expect(draft.slug).toBe("draft-only");
    const cases: [string, string][] = [
      [s.host, "/v1/nomodel"],
      [s.host, "/v1/nomodel/x"],
      [s.host, "/v1/article/no-such-item"],
      [s.host, "/v1/article/draft-only"],
      [s.host, "/v1/article/gone"],
      [s.host, "/v1/article/live?locale=fr"],
      [s.host, "/v1/article/live?locale=de"],
      [s.host, "/v1/note"],
      [s.host, "/v1/note/secret"],
      [s.host, "/v1/note/secret?preview=not-a-capability"],
      [s.host, "/v1/article/live?preview=not-a-capability"],
      [s.host, "/v2/article"],
      ["unknown-host.test", "/v1/article/live"],
    ];
    const bodies = new Set<string>();
    for (const [host, path] of cases) {
      const res = await publicGet(host, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      bodies.add(JSON.stringify(res.body));
    }
    expect([...bodies]).toEqual([JSON.stringify({ error: { code: "not_found", message: "Not found." } })]);
  });

  it("serves a single model's item and lists it", async () => {
    const s = await seedSite();
    const { addModel } = await import("../helpers/fixtures");
    const home = await addModel(s.ctx(), { slug: "homepage", name: "Homepage", kind: "single", fields: [{ key: "headline", label: "Headline", type: "text", title: true }] });
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: home.id, slug: "home", fields: { headline: "Welcome" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const list = await publicGet<{ data: { fields: { headline: string } }[] }>(s.host, "/v1/homepage");
    expect(list.body.data.map((d) => d.fields.headline)).toEqual(["Welcome"]);
    expect((await publicGet<ItemBody>(s.host, "/v1/homepage/home")).status).toBe(200);
  });
});
