import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { replaceModelDefinition } from "../../shared/services/models/apply-model";
import { addModel, apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

/**
 * A publish and an unpublish read everything they check in one D1 batch once the entry is known
 * (lifecycle/publish-reads.ts). These answers are those the reads one by one gave.
 */
type Err = { error: { code: string; message: string; [detail: string]: unknown } };
type Item = { data: { first_published_at: string; relations: Record<string, { instance_id: string; model: string; slug: string | null; display: string | null }[]> } };

async function create(token: string, body: Record<string, unknown>): Promise<EntryView> {
  const created = await manage<EntryView>(token, "POST", "/entries", { body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function publish(token: string, instanceId: string) {
  return manage<EntryView & Err>(token, "POST", `/entries/${instanceId}/publish`, { body: {} });
}

describe("publish reads: one batch, the same answers", () => {
  it("holds a served address within the site only, and re-renders dependents from the site's rows", async () => {
    const s1 = await seedSite();
    const s2 = await seedSite();
    const m1 = await blogModels(s1.ctx());
    const m2 = await blogModels(s2.ctx());
    const t1 = await credential(s1);
    const t2 = await credential(s2);

    const ann = await create(t1, { model_id: m1.author.id, slug: "x", fields: { name: "Ann" } });
    expect((await publish(t1, ann.instance_id)).status).toBe(200);
    // Another site's item served at the same address does not hold it here.
    const other = await create(t2, { model_id: m2.author.id, slug: "x", fields: { name: "Other" } });
    expect((await publish(t2, other.instance_id)).status).toBe(200);

    const story = await create(t1, { model_id: m1.article.id, slug: "story", fields: { title: "Story", author: ann.instance_id } });
    expect((await publish(t1, story.instance_id)).status).toBe(200);
    const first = await publicGet<Item>(s1.host, "/v1/article/story");
    expect(first.body.data.relations.author).toEqual([{ instance_id: ann.instance_id, model: "author", slug: "x", display: "Ann" }]);
    // More dependents, in two languages (re-rendered from one batch of reads).
    const tale = await create(t1, { model_id: m1.article.id, slug: "tale", fields: { title: "Tale", author: ann.instance_id } });
    expect((await publish(t1, tale.instance_id)).status).toBe(200);
    const conte = await manage<EntryView>(t1, "POST", `/entries/${tale.instance_id}/languages`, { body: { lang: "fr", slug: "conte", fields: { title: "Conte", author: ann.instance_id } } });
    expect(conte.status).toBe(201);
    expect((await publish(t1, conte.body.instance_id)).status).toBe(200);

    // Ann's draft moves to y but she is still served at x: x stays hers until she moves.
    const moved = await manage<EntryView>(t1, "PUT", `/entries/${ann.instance_id}`, { body: { expected_version_id: ann.current_version_id, slug: "y", fields: {} } });
    expect(moved.status).toBe(200);
    const bea = await create(t1, { model_id: m1.author.id, slug: "x", fields: { name: "Bea" } });
    const taken = await publish(t1, bea.instance_id);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toEqual({ code: "slug_taken", message: "Another published item is served at this address.", slug: "x", instance_id: ann.instance_id });

    // Ann published at y: every dependent is rendered again with her new address.
    expect((await publish(t1, ann.instance_id)).status).toBe(200);
    const after = await publicGet<Item>(s1.host, "/v1/article/story");
    expect(after.body.data.relations.author).toEqual([{ instance_id: ann.instance_id, model: "author", slug: "y", display: "Ann" }]);
    for (const path of ["/v1/article/tale", "/v1/article/conte?locale=fr"]) {
      const dependent = await publicGet<Item>(s1.host, path);
      expect(dependent.body.data.relations.author, path).toEqual([{ instance_id: ann.instance_id, model: "author", slug: "y", display: "Ann" }]);
    }
    // Withdrawn, Ann leaves every dependent's relations.
    expect((await manage(t1, "POST", `/entries/${ann.instance_id}/unpublish`, { body: {} })).status).toBe(200);
    for (const path of ["/v1/article/story", "/v1/article/tale", "/v1/article/conte?locale=fr"]) {
      expect((await publicGet<Item>(s1.host, path)).body.data.relations.author, path).toEqual([]);
    }
    // x is free for Bea once Ann no longer serves it.
    expect((await publish(t1, bea.instance_id)).status).toBe(200);
    // The other site's item is untouched by all of it.
    expect((await publicGet(s2.host, "/v1/author/x")).status).toBe(200);
  });

  it("refuses another site's entry, an unknown id and a revoked credential before reading anything", async () => {
    const s1 = await seedSite();
    const s2 = await seedSite();
    const { author } = await blogModels(s1.ctx());
    await blogModels(s2.ctx());
    const t1 = await credential(s1);
    const t2 = await credential(s2);
    const ann = await create(t1, { model_id: author.id, slug: "ann", fields: { name: "Ann" } });

    for (const path of [`/entries/${ann.instance_id}/publish`, `/entries/${ann.instance_id}/unpublish`, "/entries/ent_nope/publish", "/entries/ent_nope/unpublish"]) {
      const refused = await manage<Err>(t2, "POST", path, { body: {} });
      expect(refused.status, path).toBe(404);
      expect(refused.body.error.code, path).toBe("not_found");
    }
    await env.DB.prepare("UPDATE management_credentials SET revoked_at = ? WHERE site_id = ?").bind(new Date().toISOString(), s1.site.id).run();
    expect((await publish(t1, ann.instance_id)).status).toBe(401);
    const row = await env.DB.prepare("SELECT workflow_state FROM entries WHERE instance_id = ?").bind(ann.instance_id).first<{ workflow_state: string }>();
    expect(row?.workflow_state).toBe("draft");
    expect((await publicGet(s1.host, "/v1/author/ann")).status).toBe(404);
  });

  it("keeps a translation in its group's place, and serves a link to the group being published", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const titled = await addModel(s.ctx(), { slug: "page", name: "Page", i18n: true, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    // A page links to pages: the field names its own model, so it is added once the model exists.
    const page = await apply(s.ctx(), replaceModelDefinition(s.ctx(), {
      model_id: titled.id,
      expected_revision: titled.revision,
      definition: { fields: [...titled.fields, { key: "see", label: "See", type: "relation", targets: [titled.id] }] },
    }));
    const token = await credential(s);
    const en = await create(token, { model_id: page.model_id, slug: "home", fields: { title: "Home" } });
    // A link to its own group, published for the first time: the target is the item being published.
    const linked = await manage<EntryView>(token, "PUT", `/entries/${en.instance_id}`, { body: { expected_version_id: en.current_version_id, fields: { see: en.instance_id } } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect((await publish(token, en.instance_id)).status).toBe(200);
    const enItem = await publicGet<Item>(s.host, "/v1/page/home");
    expect(enItem.body.data.relations.see).toEqual([{ instance_id: en.instance_id, model: "page", slug: "home", display: "Home" }]);

    const fr = await manage<EntryView>(token, "POST", `/entries/${en.instance_id}/languages`, { body: { lang: "fr", slug: "accueil", fields: { title: "Accueil", see: en.instance_id } } });
    expect(fr.status, JSON.stringify(fr.body)).toBe(201);
    await new Promise((r) => setTimeout(r, 5));
    expect((await publish(token, fr.body.instance_id)).status).toBe(200);
    const frItem = await publicGet<Item>(s.host, "/v1/page/accueil?locale=fr");
    expect(frItem.status).toBe(200);
    // The group's first publication, not the translation's: the item keeps its place in lists.
    expect(frItem.body.data.first_published_at).toBe(enItem.body.data.first_published_at);
    // In French the link names the French language of the group (the one being published).
    expect(frItem.body.data.relations.see).toEqual([{ instance_id: fr.body.instance_id, model: "page", slug: "accueil", display: "Accueil" }]);
    // Unpublishing the English page leaves the French one served.
    const withdrawn = await manage<EntryView>(token, "POST", `/entries/${en.instance_id}/unpublish`, { body: {} });
    expect(withdrawn.status).toBe(200);
    expect((await publicGet(s.host, "/v1/page/home")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/page/accueil?locale=fr")).status).toBe(200);
  });
});
