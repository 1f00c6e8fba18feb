import { describe, expect, it } from "vitest";
import { ADMIN, signIn } from "../helpers/admin-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { usageOf, uploadPng } from "../helpers/media-usage";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/*
 * Issue #22 item 4 (docs/content-rules-fields.md, "Components"): one-to-one and many-to-one
 * relations, media and rich text inside components work like their top-level forms — validation,
 * privacy, public rendering, media usage and the generated client; only one-to-many (and
 * per-language or parent links) stay refused with 422 relation_type_not_authorable.
 */

type Ref = { instance_id: string; model: string; slug: string | null; display: string | null };
type Media = { id: string; url: string; mime_type: string; original?: { url: string } };
type Err = { error: { code: string; ids?: string[]; issues?: { path: string; code?: string }[] } };
type Entry = { instance_id: string; translation_group_id: string; current_version_id: string; warnings?: { code: string; path: string }[] };
type Hero = { who: Ref[]; picture: Media[]; blurb: string; secret_pick?: unknown; note?: unknown };
type Slide = { img: Media[]; by: Ref[] };
type Item = { fields: { hero: Hero; slides: Slide[]; lead?: unknown }; relations: Record<string, Ref[]>; media: Record<string, Media[]> };

async function setUp() {
  const s = await seedSite({ languages: ["en"] });
  const token = await credential(s);
  const author = await addModel(s.ctx(), { slug: "author", name: "Author", fields: [{ key: "name", label: "Name", type: "text", title: true }] });
  const page = await manage<{ model_id: string }>(token, "POST", "/models", {
    body: {
      definition: {
        model: { name: "Page", slug: "page" },
        fields: [
          { key: "title", label: "Title", type: "text", title: true },
          { key: "lead", label: "Lead", type: "relation", relation: "many_to_one", targets: [author.id] },
          {
            key: "hero",
            label: "Hero",
            type: "component",
            fields: [
              { key: "who", label: "Who", type: "relation", relation: "many_to_one", targets: [author.id] },
              { key: "picture", label: "Picture", type: "media" },
              { key: "blurb", label: "Blurb", type: "rich_text" },
              { key: "secret_pick", label: "Secret pick", type: "relation", relation: "many_to_one", targets: [author.id], private: true },
              { key: "note", label: "Note", type: "text", private: true },
            ],
          },
          {
            key: "slides",
            label: "Slides",
            type: "component",
            multiple: true,
            fields: [
              { key: "img", label: "Image", type: "media" },
              { key: "by", label: "By", type: "relation", relation: "one_to_one", targets: [author.id] },
            ],
          },
        ],
      },
    },
  });
  expect(page.status, JSON.stringify(page.body)).toBe(201);
  const person = async (name: string, publish: boolean) => {
    const created = await manage<Entry>(token, "POST", "/entries", { body: { model_id: author.id, slug: name.toLowerCase(), fields: { name } } });
    expect(created.status).toBe(201);
    if (publish) expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    return created.body;
  };
  return { s, token, author, pageId: page.body.model_id, person };
}

describe("relations, media and rich text inside components (issue #22 item 4)", () => {
  it("validates nested references like top-level ones, and keeps one-to-many refused", async () => {
    const { token, author, pageId, person } = await setUp();
    const ada = await person("Ada", true);
    // A missing target: the same refusal as a top-level relation field's.
    const topLevel = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, fields: { lead: "ent_nope" } } });
    const nested = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, fields: { hero: { who: "ent_nope" } } } });
    expect([topLevel.status, topLevel.body.error.code, topLevel.body.error.ids]).toEqual([422, "relation_target_not_found", ["ent_nope"]]);
    expect([nested.status, nested.body.error.code, nested.body.error.ids]).toEqual([422, "relation_target_not_found", ["ent_nope"]]);
    // A target of a model the field does not allow (a page) is refused the same way.
    const other = await manage<Entry>(token, "POST", "/entries", { body: { model_id: pageId, slug: "other", fields: { title: "Other" } } });
    const wrongModel = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, fields: { slides: [{ by: other.body.instance_id }] } } });
    expect([wrongModel.status, wrongModel.body.error.code, wrongModel.body.error.ids]).toEqual([422, "relation_target_not_found", [other.body.instance_id]]);
    // Missing media, and values of the wrong shape, at their full paths.
    const noMedia = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, fields: { slides: [{ img: "med_missing" }] } } });
    expect([noMedia.status, noMedia.body.error.code]).toEqual([422, "media_not_found"]);
    const shapes = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, fields: { hero: { who: [ada.instance_id], picture: 7, blurb: 3 } } } });
    expect(shapes.status).toBe(422);
    expect(shapes.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["hero.who", "wrong_type"], ["hero.picture", "wrong_type"], ["hero.blurb", "wrong_type"]]);
    // Rich text inside is sanitised like a top-level rich_text value, with the drop reported at its path.
    const cleaned = await manage<Entry & { fields: { hero: { blurb: string } } }>(token, "POST", "/entries", {
      body: { model_id: pageId, slug: "clean", fields: { hero: { blurb: '<p onclick="x()">Hi<script>alert(1)</script></p>' } } },
    });
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(201);
    expect(cleaned.body.fields.hero.blurb).toBe("<p>Hi</p>");
    expect(cleaned.body.warnings?.map((w) => [w.code, w.path])).toEqual([["rich_markup_dropped", "hero.blurb"]]);

    // Spec 3: one-to-many (and per-language or parent links) stay refused inside a component.
    for (const nestedField of [
      { key: "kids", label: "Kids", type: "relation", relation: "one_to_many", targets: [author.id] },
      { key: "up", label: "Up", type: "relation", relation: "many_to_one", hierarchy: true, targets: [pageId] },
    ]) {
      const refused = await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name: `M ${nestedField.key}`, slug: `m-${nestedField.key}` }, fields: [{ key: "box", label: "Box", type: "component", fields: [nestedField] }] } } });
      expect([refused.status, refused.body.error.code], nestedField.key).toEqual([422, "relation_type_not_authorable"]);
    }
    // A target model inside a component must be a model of the site, as at the top level.
    const stranger = await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name: "Stranger", slug: "stranger" }, fields: [{ key: "box", label: "Box", type: "component", fields: [{ key: "r", label: "R", type: "relation", targets: ["mdl_elsewhere"] }] }] } } });
    expect([stranger.status, stranger.body.error.code]).toEqual([400, "invalid_request"]);
  });

  it("serves nested relations and media like top-level ones, hides private nested fields, pins the files and counts their usage", async () => {
    const { s, token, pageId, person } = await setUp();
    const ada = await person("Ada", true);
    const bob = await person("Bob", false);
    const [a, b] = [await uploadPng(token, "a"), await uploadPng(token, "b")];
    const created = await manage<Entry>(token, "POST", "/entries", {
      body: {
        model_id: pageId,
        slug: "home",
        fields: {
          title: "Home",
          lead: ada.instance_id,
          hero: { who: ada.instance_id, picture: a.id, blurb: "<p>Hello</p>", secret_pick: ada.instance_id, note: "internal" },
          slides: [{ img: b.id, by: ada.instance_id }, { img: a.id, by: bob.instance_id }, { img: null, by: null }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);

    const item = (await publicGet<{ data: Item }>(s.host, "/v1/page/home")).body.data;
    const adaRef: Ref = { instance_id: ada.instance_id, model: "author", slug: "ada", display: "Ada" };
    // The top-level forms, for comparison.
    expect(item.relations.lead).toEqual([adaRef]);
    // Inside the component: the same references, in place; private nested fields are not served.
    expect(item.fields.hero.who).toEqual([adaRef]);
    expect(item.fields.hero.picture.map((m) => [m.id, m.mime_type])).toEqual([[a.id, "image/png"]]);
    expect(item.fields.hero.blurb).toBe("<p>Hello</p>");
    expect(Object.keys(item.fields.hero).sort()).toEqual(["blurb", "picture", "who"]);
    expect(JSON.stringify(item)).not.toContain("internal");
    // An unpublished target is not served (Bob), an empty value is an empty list.
    expect(item.fields.slides.map((slide) => [slide.img.map((m) => m.id), slide.by.map((r) => r.instance_id)])).toEqual([
      [[b.id], [ada.instance_id]],
      [[a.id], []],
      [[], []],
    ]);
    // The nested files are pinned with the item: public delivery serves them.
    const file = await workerFetch(`http://${s.host}${item.fields.hero.picture[0]?.url ?? ""}`);
    expect(file.status).toBe(200);
    await file.arrayBuffer();

    // Publishing Bob re-renders the page that links him from inside a component, as a top-level link would.
    expect((await manage(token, "POST", `/entries/${bob.instance_id}/publish`, { body: {} })).status).toBe(200);
    const again = (await publicGet<{ data: Item }>(s.host, "/v1/page/home")).body.data;
    expect(again.fields.slides[1]?.by.map((r) => r.instance_id)).toEqual([bob.instance_id]);

    // Media usage counts nested files for the component field.
    const usage = await usageOf(token, b.id);
    expect(usage.body.used_by.map((u) => u.instance_id)).toEqual([created.body.instance_id]);

    // one_to_one inside a component: a target is held by one item through that nested field.
    const taken = await manage<Err>(token, "POST", "/entries", { body: { model_id: pageId, slug: "second", fields: { slides: [{ by: ada.instance_id }] } } });
    expect([taken.status, taken.body.error.code]).toEqual([409, "relation_target_taken"]);
    // The related-from index names the nested field.
    const related = await manage<{ data: { instance_id: string; field_key: string }[] }>(token, "GET", `/entries/${ada.instance_id}/related-from`);
    expect(related.body.data.filter((r) => r.instance_id === created.body.instance_id).map((r) => r.field_key).sort()).toEqual(["hero.secret_pick", "hero.who", "lead", "slides.by"]);
  });

  it("types nested relations and media in the generated public client, private nested fields left out", async () => {
    const { s } = await setUp();
    const session = await signIn(`${s.site.slug}@example.test`);
    const client = await (await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": s.site.id } })).text();
    expect(client).toContain('"hero": { "who": RelationRef[]; "picture": MediaRef[]; "blurb": string | null } | null;');
    expect(client).toContain('"slides": Array<{ "img": MediaRef[]; "by": RelationRef[] }> | null;');
    expect(client).not.toContain("secret_pick");
  });
});
