import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { settle } from "../../workers/forward";
import * as lifecycle from "../../shared/services/lifecycle";
import { commitPlan } from "../../shared/services/lifecycle";
import { uniqueValue } from "../../shared/services/lifecycle/unique-values";
import { createModel } from "../../shared/services/models/create-model";
import { replaceModelDefinition } from "../../shared/services/models/apply-model";
import type { Model } from "../../shared/repositories/model-repository";
import { addModel, apply, seedSite, type SeededSite, failure } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

async function claims(s: SeededSite, instanceId?: string): Promise<{ field_id: string; scope: string; value: string; instance_id: string }[]> {
  const sql = `SELECT field_id, scope, value, instance_id FROM unique_values WHERE site_id = ?${instanceId ? " AND instance_id = ?" : ""} ORDER BY field_id, scope, value, instance_id`;
  const stmt = env.DB.prepare(sql);
  const { results } = await (instanceId ? stmt.bind(s.site.id, instanceId) : stmt.bind(s.site.id)).all<{ field_id: string; scope: string; value: string; instance_id: string }>();
  return results;
}

/** product: `sku` unique per model, `code` unique per language, `number` unique integer, `note` free. */
async function productModel(s: SeededSite): Promise<Model> {
  return addModel(s.ctx(), {
    slug: "product",
    name: "Product",
    i18n: true,
    fields: [
      { key: "name", label: "Name", type: "text", title: true },
      { key: "sku", label: "SKU", type: "text", unique: "model" },
      { key: "code", label: "Code", type: "slug", unique: "language" },
      { key: "number", label: "Number", type: "integer", unique: "model" },
      { key: "note", label: "Note", type: "text" },
    ],
  });
}

const fieldId = (model: Model, key: string) => model.fields.find((f) => f.key === key)?.id ?? "";

function create(s: SeededSite, model: Model, name: string, fields: Record<string, unknown>, lang?: string) {
  return apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: model.id, fields: { name, ...fields }, ...(lang ? { lang } : {}) }));
}

function save(s: SeededSite, entry: lifecycle.EntryView, fields: Record<string, unknown>) {
  return apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields }));
}

describe("unique fields: model apply", () => {
  it("refuses unique on a type that cannot be unique, in the service and through the management API", async () => {
    const s = await seedSite();
    const target = await productModel(s);
    const relation = await failure(
      apply(s.ctx(), createModel(s.ctx(), { slug: "shelf", name: "Shelf", fields: [{ key: "item", label: "Item", type: "relation", targets: [target.id], unique: "model" }] })),
    );
    expect(relation.code).toBe("unique_unsupported");
    expect(relation.status).toBe(422);
    expect(relation.details).toEqual({ fields: [{ key: "item", type: "relation" }] });

    const token = await credential(s);
    const refused = await manage<{ error: { code: string; fields?: unknown } }>(token, "POST", "/models", {
      body: { definition: { model: { name: "Flag", slug: "flag" }, fields: [{ key: "title", label: "Title", type: "text", unique: "model" }, { key: "on", label: "On", type: "boolean", unique: "language" }] } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "unique_unsupported", fields: [{ key: "on", type: "boolean" }] });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM models WHERE site_id = ? AND slug = 'flag'").bind(s.site.id).first<{ n: number }>()).toEqual({ n: 0 });

    const created = await manage<{ model_id: string; revision: number }>(token, "POST", "/models", {
      body: { definition: { model: { name: "Flag", slug: "flag" }, fields: [{ key: "title", label: "Title", type: "text", unique: "model" }, { key: "on", label: "On", type: "boolean" }] } },
    });
    expect(created.status).toBe(201);
    const read = await manage<{ definition: { model: Record<string, unknown>; fields: { id: string; key: string; type: string; unique?: string }[] } }>(token, "GET", `/models/${created.body.model_id}`);
    expect(read.body.definition.fields.find((f) => f.key === "title")?.unique).toBe("model");
    const fields = read.body.definition.fields.map((f) => (f.key === "on" ? { ...f, unique: "model" } : f));
    const replace = await manage<{ error: { code: string } }>(token, "PUT", `/models/${created.body.model_id}/definition`, { body: { expected_revision: created.body.revision, definition: { model: read.body.definition.model, fields } } });
    expect(replace.status).toBe(422);
    expect(replace.body.error.code).toBe("unique_unsupported");
  });

  it("blocks making a field unique while drafts share a value, then backfills claims and enforces them", async () => {
    const s = await seedSite();
    const model = await addModel(s.ctx(), {
      slug: "tag",
      name: "Tag",
      i18n: true,
      fields: [
        { key: "name", label: "Name", type: "text", title: true },
        { key: "sku", label: "SKU", type: "text" },
      ],
    });
    const a = await create(s, model, "A", { sku: "Dup" });
    const b = await create(s, model, "B", { sku: "dup " });
    await create(s, model, "C", { sku: "other" });
    await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: a.instance_id, lang: "fr" })); // same group: shares "dup"
    const trashed = await create(s, model, "T", { sku: "other" });
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: trashed.instance_id })); // Trash holds no claim

    const unique = model.fields.map((f) => (f.key === "sku" ? { ...f, unique: "model" as const } : f));
    const blocked = await failure(apply(s.ctx(), replaceModelDefinition(s.ctx(), { model_id: model.id, expected_revision: model.revision, definition: { fields: unique } })));
    expect(blocked.code).toBe("model_change_blocked");
    expect(blocked.details?.changes).toEqual([expect.objectContaining({ kind: "unique_conflict", field: "sku", affected_count: 3 })]);
    const row = await env.DB.prepare("SELECT revision FROM models WHERE id = ?").bind(model.id).first<{ revision: number }>();
    expect(row?.revision).toBe(model.revision);
    expect(await claims(s)).toEqual([]);

    await save(s, b, { sku: "bee" });
    const answer = await apply(s.ctx(), replaceModelDefinition(s.ctx(), { model_id: model.id, expected_revision: model.revision, definition: { fields: unique } }));
    expect(answer.revision).toBe(model.revision + 1);
    expect((await claims(s)).map((c) => c.value)).toEqual(["bee", "dup", "dup", "other"]);

    const after = { ...model, fields: unique, revision: answer.revision };
    const taken = await failure(create(s, after, "D", { sku: "DUP" }));
    expect(taken.code).toBe("field_validation_failed");
    expect(taken.details?.issues).toEqual([expect.objectContaining({ path: "sku", code: "unique_taken" })]);

    // Language scope: the same value per language, rebuilt from the drafts.
    const perLanguage = model.fields.map((f) => (f.key === "sku" ? { ...f, unique: "language" as const } : f));
    const rescoped = await apply(s.ctx(), replaceModelDefinition(s.ctx(), { model_id: model.id, expected_revision: answer.revision, definition: { fields: perLanguage } }));
    expect((await claims(s)).map((c) => `${c.scope}:${c.value}`)).toEqual(["en:bee", "en:dup", "en:other", "fr:dup"]);
    const fr = await create(s, { ...model, fields: perLanguage }, "E", { sku: "bee" }, "fr");
    expect(fr.lang).toBe("fr");

    // Removing unique drops the claims; the value is free again.
    const removed = await apply(s.ctx(), replaceModelDefinition(s.ctx(), { model_id: model.id, expected_revision: rescoped.revision, definition: { fields: model.fields } }));
    expect(removed.revision).toBe(rescoped.revision + 1);
    expect(await claims(s)).toEqual([]);
    await create(s, model, "F", { sku: "dup" });
  });
});

describe("unique fields: content writes", () => {
  it("refuses a value another item holds on create and save, under both scopes", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const a = await create(s, model, "A", { sku: "ABC-1", code: "alpha", number: 5 });
    expect((await claims(s, a.instance_id)).map((c) => `${c.scope}:${c.value}`)).toEqual(
      [fieldId(model, "sku"), fieldId(model, "code"), fieldId(model, "number")]
        .map((id, i) => ({ id, claim: [":abc-1", "en:alpha", ":5"][i] }))
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .map((x) => x.claim ?? ""),
    );

    const sku = await failure(create(s, model, "B", { sku: "  abc-1 " }));
    expect(sku.code).toBe("field_validation_failed");
    expect(sku.status).toBe(422);
    expect(sku.details?.issues).toEqual([{ path: "sku", code: "unique_taken", message: "SKU is already used by another entry.", instance_id: a.instance_id }]);
    expect((await failure(create(s, model, "B", { number: 5 }))).details?.issues).toEqual([expect.objectContaining({ path: "number", instance_id: a.instance_id })]);
    expect((await failure(create(s, model, "B", { code: "alpha" }))).details?.issues).toEqual([expect.objectContaining({ path: "code", instance_id: a.instance_id })]);
    // Language scope: another language may hold the same value; model scope: not.
    await create(s, model, "B-fr", { code: "alpha" }, "fr");
    expect((await failure(create(s, model, "C-fr", { sku: "abc-1" }, "fr"))).code).toBe("field_validation_failed");

    const b = await create(s, model, "B", { sku: "XYZ", number: 6 });
    const saveRefused = await failure(save(s, b, { sku: "Abc-1" }));
    expect(saveRefused.code).toBe("field_validation_failed");
    expect(saveRefused.details?.issues).toEqual([expect.objectContaining({ path: "sku", code: "unique_taken", instance_id: a.instance_id })]);
    // Saving its own value again is fine; once A lets go of the value, B may take it.
    const aSaved = await save(s, a, { sku: "abc-1", note: "kept" });
    await save(s, aSaved, { sku: "abc-2" });
    const bSaved = await save(s, b, { sku: "ABC-1" });
    expect(bSaved.current_version_id).not.toBe(b.current_version_id);
    expect((await claims(s, b.instance_id)).find((c) => c.field_id === fieldId(model, "sku"))?.value).toBe("abc-1");
  });

  it("lets empty values claim nothing", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    await create(s, model, "A", {});
    await create(s, model, "B", { sku: null, code: "", number: null });
    await create(s, model, "C", { sku: "   " });
    expect(await claims(s)).toEqual([]);
  });

  it("lets the languages of one item share a value under model scope", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const a = await create(s, model, "A", { sku: "shared", code: "same" });
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: a.instance_id, lang: "fr" }));
    expect((await claims(s, fr.instance_id)).map((c) => `${c.scope}:${c.value}`).sort()).toEqual([":shared", "fr:same"]);
    await save(s, fr, { sku: "SHARED", note: "traduit" });
    expect((await failure(create(s, model, "B", { sku: "shared" }, "fr"))).code).toBe("field_validation_failed");
    // Publishing re-checks the claims of the published values.
    const published = await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: a.instance_id }));
    expect(published.workflow.state).toBe("published");
  });

  it("releases claims in Trash, refuses a restore whose value was taken meanwhile, and releases on purge", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const a = await create(s, model, "A", { sku: "t1" });
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: a.instance_id }));
    expect(await claims(s, a.instance_id)).toEqual([]);
    const b = await create(s, model, "B", { sku: "T1" });

    const refused = await failure(apply(s.ctx(), lifecycle.restoreEntry(s.ctx(), { instance_id: a.instance_id })));
    expect(refused.code).toBe("field_validation_failed");
    expect(refused.details?.issues).toEqual([expect.objectContaining({ path: "sku", code: "unique_taken", instance_id: b.instance_id, lang: "en" })]);
    const row = await env.DB.prepare("SELECT trashed_at FROM entries WHERE instance_id = ?").bind(a.instance_id).first<{ trashed_at: string | null }>();
    expect(row?.trashed_at).not.toBeNull();

    await save(s, b, { sku: "t2" });
    await apply(s.ctx(), lifecycle.restoreEntry(s.ctx(), { instance_id: a.instance_id }));
    expect((await claims(s, a.instance_id)).map((c) => c.value)).toEqual(["t1"]);
    expect((await failure(create(s, model, "C", { sku: "t1" }))).code).toBe("field_validation_failed");

    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: a.instance_id }));
    await apply(s.ctx(), lifecycle.purgeEntry(s.ctx(), { instance_id: a.instance_id }));
    expect(await claims(s, a.instance_id)).toEqual([]);
    await create(s, model, "C", { sku: "t1" });
  });

  it("checks a restored version's values", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const a = await create(s, model, "A", { sku: "r1" });
    await save(s, a, { sku: "r2" });
    await create(s, model, "B", { sku: "r1" });
    const refused = await failure(apply(s.ctx(), lifecycle.restoreVersion(s.ctx(), { instance_id: a.instance_id, version_id: a.current_version_id ?? "" })));
    expect(refused.code).toBe("field_validation_failed");
    expect((await claims(s, a.instance_id)).map((c) => c.value)).toEqual(["r2"]);
  });

  it("aborts a batch whose claim was taken after its pre-check with write_conflict", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const late = await lifecycle.createEntry(s.ctx(), { model_id: model.id, fields: { name: "Late", sku: "race" } });
    await create(s, model, "First", { sku: "RACE" });
    const refused = await failure(commitPlan(s.ctx(), late));
    expect(refused.code).toBe("write_conflict");
    expect(refused.status).toBe(409);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it("gives exactly one success to concurrent creates of one value through the site's object", async () => {
    const s = await seedSite();
    const model = await productModel(s);
    const stub = env.SITE.getByName(s.site.id);
    const results = await Promise.all(
      ["One", "Two", "Three", "Four"].map((name) => settle(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: model.id, fields: { name, sku: "only-once" } } }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.flatMap((r) => (r.ok ? [] : [r.error.code]))).toEqual(["field_validation_failed", "field_validation_failed", "field_validation_failed"]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(n?.n).toBe(1);
    expect(await claims(s)).toHaveLength(1);
  });
});

describe("unique fields: normalised values", () => {
  it("compares text trimmed, NFC and case-insensitively, and numbers canonically", () => {
    expect(uniqueValue("  Café ")).toBe(uniqueValue("cafe\u0301"));
    expect(uniqueValue("ABC")).toBe("abc");
    expect(uniqueValue("   ")).toBeNull();
    expect(uniqueValue("")).toBeNull();
    expect(uniqueValue(null)).toBeNull();
    expect(uniqueValue(-0)).toBe("0");
    expect(uniqueValue(1.5)).toBe("1.5");
    expect(uniqueValue(10)).toBe("10");
  });
});
