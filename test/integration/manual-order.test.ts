import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { adminCall, signIn } from "../helpers/admin-api";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { publicGet, type ListBody } from "../helpers/public-api";

describe("order=manual", () => {
  it("serves the model's manual order in every language, unplaced items after by date, with cursors", async () => {
    const s = await seedSite({ settings: { locale_fallback: [] } });
    const { article } = await blogModels(s.ctx());
    const ids: { instance_id: string; translation_group_id: string }[] = [];
    for (const title of ["A", "B", "C", "D"]) {
      const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title } }));
      await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
      ids.push(e);
    }
    const [a, b, c] = ids;
    const frC = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: c?.instance_id ?? "", lang: "fr", slug: "c-fr" }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: frC.instance_id }));

    const session = await signIn(`${s.site.slug}@example.test`);
    // C by its group id, A by its instance id; B and D are not placed.
    const res = await adminCall<{ manual_order: string[] }>(session, "PUT", `/api/models/${article.id}/manual-order`, {
      siteId: s.site.id,
      body: { items: [c?.translation_group_id, a?.instance_id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.manual_order).toEqual([c?.translation_group_id, a?.translation_group_id]);

    const slugs = async (q: string) => (await publicGet<ListBody>(s.host, `/v1/article?${q}`)).body.data.map((d) => d.slug);
    expect(await slugs("order=manual")).toEqual(["c", "a", "d", "b"]);
    expect(await slugs("order=manual&locale=fr")).toEqual(["c-fr", "a", "d", "b"]);
    // Paging one at a time gives the same sequence.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: ListBody } = await publicGet<ListBody>(s.host, `/v1/article?order=manual&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...page.body.data.map((d) => d.slug));
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["c", "a", "d", "b"]);
    // An item published after the order was set takes its place too once republished.
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: a?.instance_id ?? "" }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a?.instance_id ?? "" }));
    expect(await slugs("order=manual")).toEqual(["c", "a", "d", "b"]);
    void b;
  });

  it("refuses items of another model or site", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const otherModels = await blogModels(other.ctx());
    const foreign = await apply(other.ctx(), lifecycle.createEntry(other.ctx(), { model_id: otherModels.article.id, fields: { title: "X" } }));
    const wrongModel = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const session = await signIn(`${s.site.slug}@example.test`);
    for (const id of [foreign.instance_id, wrongModel.instance_id]) {
      const res = await adminCall<{ error: { code: string } }>(session, "PUT", `/api/models/${article.id}/manual-order`, { siteId: s.site.id, body: { items: [id] } });
      expect(res.status).toBe(404);
    }
  });
});
