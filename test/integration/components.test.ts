import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { ADMIN, signIn } from "../helpers/admin-api";
import { manage } from "../helpers/manage-api";
import { modelCreator, siteWithCredential, type Err, type Field, type WriteBody } from "../helpers/model-api";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/*
 * docs/content-rules-fields.md, "Components": a component field groups nested fields (one object,
 * or a list with multiple: true); values are validated with full paths, private nested fields are
 * never served, and what may nest is checked at model apply.
 */

const site = siteWithCredential;
const createModel = modelCreator("page");

const PAGE_FIELDS: Field[] = [
  { key: "title", label: "Title", type: "text", required: true },
  {
    key: "seo",
    label: "SEO",
    type: "component",
    fields: [
      { key: "title", label: "SEO title", type: "text", required: true, validation: { max_length: 10 } },
      { key: "note", label: "Internal note", type: "long_text", private: true },
    ],
  },
  {
    key: "faq",
    label: "FAQ",
    type: "component",
    multiple: true,
    validation: { max_items: 3 },
    fields: [
      { key: "question", label: "Question", type: "text", required: true },
      { key: "answer", label: "Answer", type: "long_text" },
      { key: "tags", label: "Tags", type: "select", multiple: true, options: [{ value: "a", label: "A" }, { value: "b", label: "B" }] },
    ],
  },
  {
    key: "sections",
    label: "Sections",
    type: "component",
    multiple: true,
    fields: [
      { key: "heading", label: "Heading", type: "text" },
      { key: "where", label: "Where", type: "location" },
      {
        key: "cta",
        label: "Call to action",
        type: "component",
        fields: [
          { key: "label", label: "Label", type: "text" },
          { key: "url", label: "URL", type: "text", validation: { pattern: "^https://" } },
          { key: "style", label: "Style", type: "component", fields: [{ key: "color", label: "Colour", type: "text", private: true }, { key: "size", label: "Size", type: "integer", validation: { min: 1, max: 3 } }] },
        ],
      },
    ],
  },
];

describe("component fields (issue #13: components)", () => {
  it("validates nested values with full paths, in every mode, and refuses wrong shapes", async () => {
    const { token } = await site();
    const model = await createModel(token, PAGE_FIELDS);
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    const refused = await manage<Err>(token, "POST", "/entries", {
      body: {
        model_id: model.body.model_id,
        fields: {
          title: "Home",
          seo: { title: "far too long a title", bogus: 1 },
          faq: [{ question: "Why?", tags: ["a", "zzz"] }, "not an object", { question: 7 }],
          sections: [
            { heading: "One", where: { lat: 91, lon: 0 } },
            { cta: { label: "Go", url: "http://insecure.example", style: { size: 9 } } },
          ],
        },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("field_validation_failed");
    expect(refused.body.error.issues?.map((i) => [i.path, i.code])).toEqual([
      ["seo.title", "too_long"],
      ["seo.bogus", "unknown_field"],
      ["faq[0].tags[1]", "not_an_option"],
      ["faq[1]", "wrong_type"],
      ["faq[2].question", "wrong_type"],
      ["sections[0].where.lat", "out_of_range"],
      ["sections[1].cta.url", "pattern_mismatch"],
      ["sections[1].cta.style.size", "above_max"],
    ]);

    const shapes = await manage<Err>(token, "POST", "/entries", { body: { model_id: model.body.model_id, fields: { seo: ["a list"], faq: { question: "one" }, sections: "text" } } });
    expect(shapes.status).toBe(422);
    expect(shapes.body.error.issues?.map((i) => [i.path, i.code])).toEqual([
      ["seo", "wrong_type"],
      ["faq", "wrong_type"],
      ["sections", "wrong_type"],
    ]);

    const tooMany = await manage<Err>(token, "POST", "/entries", { body: { model_id: model.body.model_id, fields: { faq: [1, 2, 3, 4].map((n) => ({ question: `Q${n}` })) } } });
    expect(tooMany.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["faq", "too_many_items"]]);
    // The hard cap (100 items) answers without checking each item.
    const huge = await manage<Err>(token, "POST", "/entries", { body: { model_id: model.body.model_id, fields: { sections: Array.from({ length: 101 }, () => "x") } } });
    expect(huge.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["sections", "too_many_items"]]);
    // A draft may leave required nested values out (default mode); nothing was written so far.
    const draft = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "home", fields: { title: "Home", seo: { note: "n" }, faq: [{ answer: "No question yet" }] } } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect(draft.body.fields).toMatchObject({ seo: { note: "n" }, faq: [{ answer: "No question yet" }] });
  });

  it("publishes only a complete snapshot (nested required by full path) and never serves private nested fields", async () => {
    const { s, token } = await site();
    const model = await createModel(token, PAGE_FIELDS);
    const draft = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "home", fields: { title: "Home", seo: { note: "secret" }, faq: [{ question: "Q" }, { answer: "A" }] } } });
    expect(draft.status).toBe(201);
    const blocked = await manage<Err>(token, "POST", `/entries/${draft.body.instance_id}/publish`, { body: {} });
    expect(blocked.status).toBe(422);
    expect(blocked.body.error.code).toBe("field_validation_failed");
    expect(blocked.body.error.issues?.map((i) => [i.path, i.code])).toEqual([
      ["seo.title", "required"],
      ["faq[1].question", "required"],
    ]);
    const fields = {
      title: "Home",
      seo: { title: "Home page", note: "secret" },
      faq: [{ question: "Q", answer: "A", tags: ["b"] }],
      sections: [{ heading: "H", where: { lat: 1, lon: 2 }, cta: { label: "Go", url: "https://ok.example", style: { color: "hidden-red", size: 2 } } }],
    };
    const saved = await manage<EntryView>(token, "PUT", `/entries/${draft.body.instance_id}`, { body: { expected_version_id: draft.body.current_version_id, fields } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.fields).toEqual(fields);
    const published = await manage<EntryView>(token, "POST", `/entries/${draft.body.instance_id}/publish`, { body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    const item = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/page/home");
    expect(item.status).toBe(200);
    expect(item.body.data.fields).toEqual({
      title: "Home",
      seo: { title: "Home page" },
      faq: [{ question: "Q", answer: "A", tags: ["b"] }],
      sections: [{ heading: "H", where: { lat: 1, lon: 2 }, cta: { label: "Go", url: "https://ok.example", style: { size: 2 } } }],
    });
    expect(JSON.stringify(item.body)).not.toContain("secret");
    expect(JSON.stringify(item.body)).not.toContain("hidden-red");
    const list = await publicGet<{ data: { fields: Record<string, unknown> }[] }>(s.host, "/v1/page");
    expect(JSON.stringify(list.body)).not.toMatch(/secret|hidden-red/);

    // The generated public client types the component shapes, private nested fields left out.
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": s.site.id } });
    const source = await res.text();
    expect(res.status).toBe(200);
    expect(source).toContain('"seo": { "title": string | null } | null;');
    expect(source).toContain('"faq": Array<{ "question": string | null; "answer": string | null; "tags": Array<"a" | "b"> | null }> | null;');
    expect(source).toContain('"style": { "size": number | null } | null');
    expect(source).not.toContain('"note"');
    expect(source).not.toContain('"color"');
  });

  it("makes a nested field private after publication: the published item is re-rendered without it", async () => {
    const { s, token } = await site();
    const fields: Field[] = [{ key: "title", label: "Title", type: "text" }, { key: "seo", label: "SEO", type: "component", fields: [{ key: "title", label: "T", type: "text" }, { key: "keywords", label: "K", type: "text" }] }];
    const model = await createModel(token, fields);
    const draft = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "a", fields: { title: "A", seo: { title: "t", keywords: "kw-visible" } } } });
    await manage(token, "POST", `/entries/${draft.body.instance_id}/publish`, { body: {} });
    expect(JSON.stringify((await publicGet(s.host, "/v1/page/a")).body)).toContain("kw-visible");
    const read = await manage<{ revision: number; definition: { fields: Field[] } }>(token, "GET", `/models/${model.body.model_id}`);
    const next = read.body.definition.fields.map((f) => (f.key === "seo" ? { ...f, fields: (f.fields as Field[]).map((n) => (n.key === "keywords" ? { ...n, private: true } : n)) } : f));
    const applied = await manage<Err>(token, "PUT", `/models/${model.body.model_id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: { name: "page", slug: "page" }, fields: next } } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(JSON.stringify((await publicGet(s.host, "/v1/page/a")).body)).not.toContain("kw-visible");
  });

  it("drops values of a nested field removed from the model: reads leave them out and later saves are not refused for them", async () => {
    const { token } = await site();
    const model = await createModel(token, [{ key: "seo", label: "SEO", type: "component", fields: [{ key: "title", label: "T", type: "text" }, { key: "old", label: "Old", type: "text" }] }, { key: "note", label: "Note", type: "text" }]);
    const draft = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "a", fields: { seo: { title: "t", old: "legacy" } } } });
    const read = await manage<{ revision: number; definition: { fields: Field[] } }>(token, "GET", `/models/${model.body.model_id}`);
    // Nested ids default to the key, and a read can be written back as it is.
    expect((read.body.definition.fields[0]?.fields as Field[]).map((f) => f.id)).toEqual(["title", "old"]);
    const next = read.body.definition.fields.map((f) => (f.key === "seo" ? { ...f, fields: (f.fields as Field[]).filter((n) => n.key !== "old") } : f));
    const applied = await manage(token, "PUT", `/models/${model.body.model_id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: { name: "page", slug: "page" }, fields: next } } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const entry = await manage<EntryView>(token, "GET", `/entries/${draft.body.instance_id}`);
    expect(entry.body.fields, JSON.stringify(entry.body)).toEqual({ seo: { title: "t" } });
    const saved = await manage<EntryView>(token, "PUT", `/entries/${draft.body.instance_id}`, { body: { expected_version_id: entry.body.current_version_id, fields: { note: "unrelated" } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.fields).toEqual({ seo: { title: "t" }, note: "unrelated" });
  });

  it("validates nested values on restore and when a language is added, with full paths", async () => {
    const { token } = await site();
    const created = await manage<WriteBody>(token, "POST", "/models", {
      body: { definition: { model: { name: "page", slug: "page", enableI18n: true }, fields: [{ key: "seo", label: "SEO", type: "component", fields: [{ key: "title", label: "T", type: "text" }] }] } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: created.body.model_id, slug: "a", fields: { seo: { title: "a long first title" } } } });
    const second = await manage<EntryView>(token, "PUT", `/entries/${first.body.instance_id}`, { body: { expected_version_id: first.body.current_version_id, fields: { seo: { title: "short" } } } });
    expect(second.status).toBe(200);
    const read = await manage<{ revision: number; definition: { fields: Field[] } }>(token, "GET", `/models/${created.body.model_id}`);
    const tightened = read.body.definition.fields.map((f) => ({ ...f, fields: (f.fields as Field[]).map((n) => ({ ...n, validation: { max_length: 8 } })) }));
    // Nothing is published, so the tighter rule applies at once (default mode checks published versions only).
    const applied = await manage(token, "PUT", `/models/${created.body.model_id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: { name: "page", slug: "page", enableI18n: true }, fields: tightened } } });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const restore = await manage<Err>(token, "POST", `/entries/${first.body.instance_id}/versions/${first.body.current_version_id}/restore`, { body: {} });
    expect(restore.status).toBe(422);
    expect(restore.body.error.code).toBe("field_validation_failed");
    expect(restore.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["seo.title", "too_long"]]);
    const language = await manage<Err>(token, "POST", `/entries/${first.body.instance_id}/languages`, { body: { lang: "fr", slug: "a", fields: { seo: { title: "un titre bien trop long" } } } });
    expect(language.status).toBe(422);
    expect(language.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["seo.title", "too_long"]]);
  });

  it("refuses at model apply what may not nest, with 422 invalid_field_config and full paths", async () => {
    const { token } = await site();
    const cases: [Field, string, string][] = [
      [{ key: "s", label: "S", type: "slug" }, "fields[0].fields[0].type", "slug"],
      // Media, rich text and to-one relations nest (issue #22 item 4: component-references.test.ts).
      [{ key: "u", label: "U", type: "text", unique: "model" }, "fields[0].fields[0].unique", "unique"],
      [{ key: "t", label: "T", type: "text", title: true }, "fields[0].fields[0].title", "title"],
    ];
    for (const [nested, path, words] of cases) {
      const refused = await createModel(token, [{ key: "group", label: "G", type: "component", fields: [nested] }]);
      expect(refused.status, path).toBe(422);
      expect(refused.body.error.code).toBe("invalid_field_config");
      expect(refused.body.error.issues?.map((i) => i.path)).toEqual([path]);
      expect(refused.body.error.issues?.[0]?.message).toContain(words);
    }
    // Spec 3: a component cannot author a one-to-many relation, nor a per-language list.
    for (const [nested, path] of [
      [{ key: "kids", label: "Kids", type: "relation", relation: "one_to_many", multiple: true, targets: ["mdl_x"] }, "fields[0].fields[0].relation"],
      // `multiple` left out is implied by the kind inside a component as at the top level (probe finding).
      [{ key: "kin", label: "Kin", type: "relation", relation: "one_to_many", targets: ["mdl_x"] }, "fields[0].fields[0].relation"],
      [{ key: "tags", label: "Tags", type: "relation", relation: "many_to_many", multiple: true, localized_membership: true, targets: ["mdl_x"] }, "fields[0].fields[0].localized_membership"],
    ] as [Field, string][]) {
      const refused = await createModel(token, [{ key: "group", label: "G", type: "component", fields: [nested] }], `na-${nested.key}`);
      expect(refused.status, path).toBe(422);
      expect(refused.body.error.code, JSON.stringify(refused.body)).toBe("relation_type_not_authorable");
      expect(refused.body.error.issues?.map((i) => i.path)).toEqual([path]);
    }
    const duplicate = await createModel(token, [{ key: "g", label: "G", type: "component", fields: [{ key: "a", label: "A", type: "text" }, { key: "a", label: "A2", type: "integer" }] }]);
    expect([duplicate.status, duplicate.body.error.code, duplicate.body.error.issues?.map((i) => i.path)]).toEqual([422, "invalid_field_config", ["fields[0].fields[1].key"]]);

    // Three levels of components nest; a fourth is refused.
    const level = (inner: Field): Field => ({ key: "c", label: "C", type: "component", fields: [inner] });
    const leaf: Field = { key: "x", label: "X", type: "text" };
    expect((await createModel(token, [level(level(level(leaf)))], "three")).status).toBe(201);
    const deep = await createModel(token, [level(level(level(level(leaf))))], "four");
    expect([deep.status, deep.body.error.code, deep.body.error.issues?.map((i) => i.path)]).toEqual([422, "invalid_field_config", ["fields[0].fields[0].fields[0].fields[0].type"]]);

    // Nested validation settings are checked like top-level ones.
    const bounds = await createModel(token, [{ key: "g", label: "G", type: "component", fields: [{ key: "a", label: "A", type: "text", validation: { min_length: 5, max_length: 2 } }, { key: "b", label: "B", type: "text", validation: { pattern: "(a)\\1" } }] }]);
    expect([bounds.status, bounds.body.error.code, bounds.body.error.issues?.map((i) => i.path)]).toEqual([422, "invalid_field_validation", ["fields[0].fields[0].validation.max_length", "fields[0].fields[1].validation.pattern"]]);

    // Shape errors stay 400: fields on another type, a component without fields, min_items without multiple.
    for (const field of [
      { key: "t", label: "T", type: "text", fields: [leaf] },
      { key: "c", label: "C", type: "component" },
      { key: "c", label: "C", type: "component", fields: [] },
      { key: "c", label: "C", type: "component", fields: [leaf], validation: { min_items: 1 } },
      { key: "c", label: "C", type: "component", fields: [{ key: "Bad Key", label: "B", type: "text" }] },
    ]) {
      const refused = await createModel(token, [field], "shape");
      expect(refused.status, JSON.stringify(field)).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
    expect((await manage<{ data: { slug: string }[] }>(token, "GET", "/models")).body.data.map((m) => m.slug)).toEqual(["three"]);
  });

  it("checks components the same way in a model proposal", async () => {
    const { token } = await site();
    const refused = await manage<Err>(token, "POST", "/models/proposals", {
      body: { mode: "create", definition: { model: { name: "Memo", slug: "memo" }, fields: [{ key: "g", label: "G", type: "component", fields: [{ key: "s", label: "S", type: "slug" }] }] } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("invalid_field_config");
  });
});
