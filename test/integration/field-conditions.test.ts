import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { manage } from "../helpers/manage-api";
import { modelCreator, siteWithCredential, type Err, type Field } from "../helpers/model-api";
import { publicGet } from "../helpers/public-api";

/*
 * docs/content-rules-fields.md, "Conditional visibility": typed terms on other fields of the same
 * model (or component) in all/any groups (at most 4 items, 3 levels); required holds only while the
 * condition shows the field; hidden values stay stored and served; invalid conditions are refused at
 * model apply with 422 invalid_field_condition; executable custom validation with 422
 * unsupported_text_validation.
 */

const site = siteWithCredential;
const createModel = modelCreator("article");

const FORMAT: Field = { key: "format", label: "Format", type: "select", options: [{ value: "text", label: "Text" }, { value: "video", label: "Video" }, { value: "audio", label: "Audio" }] };
const ARTICLE: Field[] = [
  { key: "title", label: "Title", type: "text", required: true },
  FORMAT,
  { key: "video_url", label: "Video URL", type: "text", required: true, validation: { pattern: "^https://" }, condition: { field: "format", op: "in", value: ["video"] } },
  { key: "featured", label: "Featured", type: "boolean" },
  { key: "rating", label: "Rating", type: "integer" },
  { key: "event_on", label: "Event day", type: "date" },
  {
    key: "badge",
    label: "Badge",
    type: "text",
    required: true,
    condition: { all: [{ field: "featured", op: "equals", value: true }, { any: [{ field: "rating", op: "gte", value: 4 }, { field: "event_on", op: "after", value: "2024-01-01" }] }] },
  },
  { key: "transcript", label: "Transcript", type: "long_text", required: true, condition: { any: [{ all: [{ field: "format", op: "not_empty" }, { field: "format", op: "not_in", value: ["text", "video"] }] }, { field: "title", op: "equals", value: "Needs transcript" }] } },
];

async function publishNew(token: string, modelId: string, slug: string, fields: Record<string, unknown>) {
  const created = await manage<EntryView & Err>(token, "POST", "/entries", { body: { model_id: modelId, slug, fields } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return manage<EntryView & Err>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
}

describe("conditional visibility (issue #13, spec 3 row)", () => {
  it("requires a conditional field only while its condition shows it, on publish", async () => {
    const { s, token } = await site();
    const model = await createModel(token, ARTICLE);
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    const id = model.body.model_id;
    // Hidden: not required.
    expect((await publishNew(token, id, "plain", { title: "Plain", format: "text" })).status).toBe(200);
    expect((await publishNew(token, id, "nothing", { title: "No format" })).status).toBe(200);
    // Shown: required, named by path.
    const video = await publishNew(token, id, "video", { title: "Video", format: "video" });
    expect(video.status).toBe(422);
    expect(video.body.error.code).toBe("field_validation_failed");
    expect(video.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["video_url", "required"]]);
    expect((await publishNew(token, id, "video-ok", { title: "Video", format: "video", video_url: "https://v.example/1" })).status).toBe(200);

    // Nested groups: featured AND (rating >= 4 OR event after 2024-01-01).
    const cases: [Record<string, unknown>, boolean][] = [
      [{ featured: true, rating: 5 }, true],
      [{ featured: true, rating: 3 }, false],
      [{ featured: true, rating: 3, event_on: "2024-06-01" }, true],
      [{ featured: true, event_on: "2023-12-31" }, false],
      [{ featured: false, rating: 5 }, false],
      [{ rating: 5 }, false],
    ];
    for (const [i, [values, shown]] of cases.entries()) {
      const answer = await publishNew(token, id, `badge-${i}`, { title: "B", ...values });
      expect(answer.status, JSON.stringify(values)).toBe(shown ? 422 : 200);
      if (shown) expect(answer.body.error.issues?.map((x) => x.path)).toEqual(["badge"]);
    }
    // any: (a format set AND not text or video) or a title equal to a text.
    const audio = await publishNew(token, id, "audio", { title: "A", format: "audio" });
    expect(audio.body.error.issues?.map((x) => x.path)).toEqual(["transcript"]);
    const unset = await publishNew(token, id, "unset", { title: "U" });
    expect(unset.status).toBe(200);
    const asked = await publishNew(token, id, "asked", { title: "Needs transcript", format: "text" });
    expect(asked.body.error.issues?.map((x) => x.path)).toEqual(["transcript"]);
    expect((await publicGet(s.host, "/v1/article/plain")).status).toBe(200);
  });

  it("keeps and serves hidden values, and still applies their other rules", async () => {
    const { s, token } = await site();
    const model = await createModel(token, ARTICLE);
    const kept = await publishNew(token, model.body.model_id, "kept", { title: "Kept", format: "text", video_url: "https://v.example/old" });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.fields).toMatchObject({ video_url: "https://v.example/old" });
    const item = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/article/kept");
    expect(item.body.data.fields.video_url).toBe("https://v.example/old");
    // Hidden, but a value given must still fit its pattern.
    const refused = await manage<Err>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "bad", fields: { title: "Bad", format: "text", video_url: "ftp://v.example" } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["video_url", "pattern_mismatch"]]);
  });

  it("enforces conditional required at save in strict mode, and inside components on sibling fields", async () => {
    const { token } = await site({ validation_mode: "strict" });
    const fields: Field[] = [
      { key: "title", label: "Title", type: "text" },
      FORMAT,
      { key: "video_url", label: "Video URL", type: "text", required: true, condition: { field: "format", op: "in", value: ["video"] } },
      {
        key: "links",
        label: "Links",
        type: "component",
        multiple: true,
        fields: [
          { key: "kind", label: "Kind", type: "select", options: [{ value: "web", label: "Web" }, { value: "mail", label: "Mail" }] },
          { key: "address", label: "Address", type: "text", required: true, condition: { field: "kind", op: "in", value: ["mail"] } },
          { key: "price", label: "Price", type: "decimal", required: true, condition: { all: [{ field: "address", op: "not_empty" }, { field: "kind", op: "not_in", value: ["mail"] }] } },
        ],
      },
    ];
    const model = await createModel(token, fields);
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    const refused = await manage<Err>(token, "POST", "/entries", {
      body: { model_id: model.body.model_id, slug: "a", fields: { format: "video", links: [{ kind: "web" }, { kind: "mail" }, { kind: "web", address: "x" }] } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.issues?.map((i) => [i.path, i.code])).toEqual([
      ["video_url", "required"],
      ["links[1].address", "required"],
      ["links[2].price", "required"],
    ]);
    const saved = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.body.model_id, slug: "a", fields: { format: "text", links: [{ kind: "web" }, { kind: "mail", address: "a@b.example" }] } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  });

  it("refuses invalid conditions at model apply with 422 invalid_field_condition naming each by path", async () => {
    const { token } = await site();
    const base: Field[] = [
      { key: "title", label: "Title", type: "text" },
      FORMAT,
      { key: "flag", label: "Flag", type: "boolean" },
      { key: "count", label: "Count", type: "integer" },
      { key: "day", label: "Day", type: "date" },
      { key: "seo", label: "SEO", type: "component", fields: [{ key: "title", label: "T", type: "text" }] },
    ];
    const term = (field: string, op: string, value?: unknown) => ({ field, op, ...(value !== undefined ? { value } : {}) });
    const cases: [unknown, string, string][] = [
      [term("nope", "empty"), "fields[6].condition.field", "No field"],
      [term("subject", "empty"), "fields[6].condition.field", "itself"],
      [term("title", "lt", 3), "fields[6].condition.op", "does not apply"],
      [term("title", "bogus"), "fields[6].condition.op", "op must be one of"],
      [term("flag", "equals", "yes"), "fields[6].condition.value", "true or false"],
      [term("format", "in", ["video", "vhs"]), "fields[6].condition.value", '"vhs"'],
      [term("format", "in", []), "fields[6].condition.value", "1 to 200"],
      [term("count", "gt", "3"), "fields[6].condition.value", "finite number"],
      [term("day", "before", "2024-13-01"), "fields[6].condition.value", "YYYY-MM-DD"],
      [term("title", "empty", "x"), "fields[6].condition.value", "takes no value"],
      [term("title", "equals"), "fields[6].condition.value", "needs a value"],
      [term("seo", "empty"), "fields[6].condition.op", "cannot be tested"],
      [{ field: "title", op: "empty", extra: 1 }, "fields[6].condition.extra", "only field, op and value"],
      [{ all: [term("flag", "equals", true)], any: [] }, "fields[6].condition", "exactly one key"],
      [{ all: [] }, "fields[6].condition.all", "at least one"],
      [{ any: [1, 2, 3, 4, 5].map(() => term("flag", "equals", true)) }, "fields[6].condition.any", "at most 4"],
      [{ all: [{ any: [{ all: [{ any: [term("flag", "equals", true)] }] }] }] }, "fields[6].condition.all[0].any[0].all[0].any", "at most 3 levels"],
      [{ all: [{ any: [term("flag", "equals", true), "x"] }] }, "fields[6].condition.all[0].any[1]", "a term"],
    ];
    for (const [condition, path, words] of cases) {
      const refused = await createModel(token, [...base, { key: "subject", label: "Subject", type: "text", condition }]);
      expect(refused.status, JSON.stringify(condition)).toBe(422);
      expect(refused.body.error.code).toBe("invalid_field_condition");
      expect(refused.body.error.issues?.map((i) => i.path), JSON.stringify(condition)).toEqual([path]);
      expect(refused.body.error.issues?.[0]?.message).toContain(words);
    }
    // Three levels with four items each are fine.
    const wide = { all: [{ any: [{ all: [1, 2, 3, 4].map(() => term("flag", "equals", true)) }, term("count", "lte", 2), term("day", "after", "2024-01-01"), term("format", "not_in", ["text"])] }] };
    expect((await createModel(token, [...base, { key: "subject", label: "Subject", type: "text", condition: wide }], "wide")).status).toBe(201);

    // A cycle between conditional fields; a condition is not an object (shape: 400).
    const cycle = await createModel(token, [
      { key: "a", label: "A", type: "text", condition: { field: "b", op: "not_empty" } },
      { key: "b", label: "B", type: "text", condition: { field: "c", op: "not_empty" } },
      { key: "c", label: "C", type: "text", condition: { field: "a", op: "empty" } },
    ]);
    expect([cycle.status, cycle.body.error.code]).toEqual([422, "invalid_field_condition"]);
    expect(cycle.body.error.issues?.map((i) => i.path)).toEqual(["fields[0].condition"]);
    expect(cycle.body.error.issues?.[0]?.message).toContain("a → b → c → a");
    expect((await createModel(token, [{ key: "a", label: "A", type: "text", condition: ["x"] }])).status).toBe(400);

    // Inside a component a condition names the component's own fields, not the model's.
    const scoped = await createModel(token, [FORMAT, { key: "g", label: "G", type: "component", fields: [{ key: "x", label: "X", type: "text", condition: { field: "format", op: "in", value: ["video"] } }] }]);
    expect([scoped.status, scoped.body.error.code, scoped.body.error.issues?.map((i) => i.path)]).toEqual([422, "invalid_field_condition", ["fields[1].fields[0].condition.field"]]);
    expect((await manage<{ data: { slug: string }[] }>(token, "GET", "/models")).body.data.map((m) => m.slug)).toEqual(["wide"]);
  });

  it("refuses executable custom validation with 422 unsupported_text_validation, in definitions and proposals", async () => {
    const { token } = await site();
    const top = await createModel(token, [{ key: "code", label: "Code", type: "text", validation: { custom: "value => value.length > 2" } }]);
    expect([top.status, top.body.error.code, top.body.error.issues?.map((i) => i.path)]).toEqual([422, "unsupported_text_validation", ["fields[0].validation.custom"]]);
    const nested = await createModel(token, [{ key: "g", label: "G", type: "component", fields: [{ key: "code", label: "Code", type: "text", validation: { custom: { script: "x" } } }] }]);
    expect([nested.status, nested.body.error.code, nested.body.error.issues?.map((i) => i.path)]).toEqual([422, "unsupported_text_validation", ["fields[0].fields[0].validation.custom"]]);
    const proposal = await manage<Err>(token, "POST", "/models/proposals", {
      body: { mode: "create", definition: { model: { name: "Memo", slug: "memo" }, fields: [{ key: "code", label: "Code", type: "text", validation: JSON.stringify({ custom: "return true" }) }] } },
    });
    expect([proposal.status, proposal.body.error.code]).toEqual([422, "unsupported_text_validation"]);
    expect((await manage<{ data: unknown[] }>(token, "GET", "/models")).body.data).toEqual([]);
  });
});
