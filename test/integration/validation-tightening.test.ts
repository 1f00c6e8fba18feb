import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/*
 * docs/content-rules-fields.md, "Tightened rules at model apply": a change to a field's value rules
 * that published versions (and, in strict mode, current drafts) would fail is refused with 409
 * model_change_blocked, kind validation_tightened, counting the entries affected; nothing is written.
 */

type Change = { kind: string; field: string | null; affected_count: number; message: string; suggestion: string };
type Err = { error: { code: string; changes?: Change[]; issues?: unknown[] } };
interface WriteBody { model_id: string; revision: number }
type Field = Record<string, unknown>;

async function setup(settings: Record<string, unknown> = {}) {
  const s = await seedSite({ settings });
  const token = await credential(s);
  return { s, token };
}

async function model(token: string, fields: Field[]) {
  const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: { name: "Note", slug: "note" }, fields } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function entry(token: string, modelId: string, slug: string, fields: Record<string, unknown>, publish: boolean) {
  const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: modelId, slug, fields } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (publish) expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
  return created.body;
}

/** Replaces the model's fields: `change` maps each field (as read) to its new definition. */
async function replace(token: string, modelId: string, change: (field: Field) => Field) {
  const read = await manage<{ revision: number; definition: { fields: Field[] } }>(token, "GET", `/models/${modelId}`);
  return manage<Err & WriteBody>(token, "PUT", `/models/${modelId}/definition`, {
    body: { expected_revision: read.body.revision, definition: { model: { name: "Note", slug: "note" }, fields: read.body.definition.fields.map(change) } },
  });
}

const revisionOf = async (token: string, id: string) => (await manage<{ revision: number }>(token, "GET", `/models/${id}`)).body.revision;

describe("tightened validation at model apply (issue #13 item 10: validation_tightened)", () => {
  it("refuses a shrunk max_length, a new pattern or bounds that published content fails, counting entries, and accepts what content fits", async () => {
    const { token } = await setup();
    const m = await model(token, [{ key: "code", label: "Code", type: "text" }, { key: "n", label: "N", type: "integer" }]);
    await entry(token, m.model_id, "a", { code: "abcdef", n: 5 }, true);
    await entry(token, m.model_id, "b", { code: "abcdefgh", n: 50 }, true);
    await entry(token, m.model_id, "c", { code: "ab" }, true);
    // Drafts are not checked on a default-mode site.
    await entry(token, m.model_id, "d", { code: "a draft far too long" }, false);
    const revision = await revisionOf(token, m.model_id);

    const shrunk = await replace(token, m.model_id, (f) => (f.key === "code" ? { ...f, validation: { max_length: 4 } } : f));
    expect(shrunk.status).toBe(409);
    expect(shrunk.body.error.code).toBe("model_change_blocked");
    expect(shrunk.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "code", affected_count: 2 })]);
    expect(shrunk.body.error.changes?.[0]?.message).toContain("too_long at code");
    expect(shrunk.body.error.changes?.[0]?.suggestion).toBeTruthy();

    const pattern = await replace(token, m.model_id, (f) => (f.key === "code" ? { ...f, validation: { pattern: "^ab$" } } : f));
    expect(pattern.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "code", affected_count: 2 })]);
    const bounds = await replace(token, m.model_id, (f) => (f.key === "n" ? { ...f, validation: { max: 10, step: 5 } } : f));
    expect(bounds.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "n", affected_count: 1 })]);
    // Nothing was written by the refusals.
    expect(await revisionOf(token, m.model_id)).toBe(revision);

    // Rules every published value fits are applied; loosening them later is too.
    const fits = await replace(token, m.model_id, (f) => (f.key === "code" ? { ...f, validation: { max_length: 8, pattern: "^[a-h]+$" } } : f));
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    const loose = await replace(token, m.model_id, (f) => (f.key === "code" ? { ...f, validation: { max_length: 100 } } : f));
    expect(loose.status).toBe(200);
  });

  it("checks current drafts too on a strict site", async () => {
    const { token } = await setup({ validation_mode: "strict" });
    const m = await model(token, [{ key: "code", label: "Code", type: "text" }]);
    await entry(token, m.model_id, "d", { code: "a long draft" }, false);
    const refused = await replace(token, m.model_id, (f) => ({ ...f, validation: { max_length: 3 } }));
    expect(refused.status).toBe(409);
    expect(refused.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "code", affected_count: 1 })]);
  });

  it("checks a field made required under a condition only where the condition shows it", async () => {
    const { token } = await setup();
    const format = { key: "format", label: "Format", type: "select", options: [{ value: "text", label: "Text" }, { value: "video", label: "Video" }] };
    const m = await model(token, [format, { key: "video_url", label: "Video URL", type: "text" }]);
    await entry(token, m.model_id, "t", { format: "text" }, true);
    const conditional = (f: Field) => (f.key === "video_url" ? { ...f, required: true, condition: { field: "format", op: "in", value: ["video"] } } : f);
    // Only text entries: the condition hides the field, nothing fails.
    expect((await replace(token, m.model_id, conditional)).status).toBe(200);
    // Back to optional, then a published video entry without a URL blocks the same change.
    expect((await replace(token, m.model_id, (f) => (f.key === "video_url" ? { key: f.key, id: f.id, label: f.label, type: f.type } : f))).status).toBe(200);
    await entry(token, m.model_id, "v", { format: "video" }, true);
    const refused = await replace(token, m.model_id, conditional);
    expect(refused.status).toBe(409);
    expect(refused.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "video_url", affected_count: 1 })]);
    expect(refused.body.error.changes?.[0]?.message).toContain("required at video_url");
    // A plain required (no condition) is still counted by required_added, once.
    const plain = await replace(token, m.model_id, (f) => (f.key === "video_url" ? { ...f, required: true } : f));
    expect(plain.body.error.changes?.map((c) => [c.kind, c.field, c.affected_count])).toEqual([["required_added", "video_url", 2]]);
  });

  it("checks the nested rules of a component: a nested field tightened or made required", async () => {
    const { token } = await setup();
    const m = await model(token, [{ key: "faq", label: "FAQ", type: "component", multiple: true, fields: [{ key: "q", label: "Q", type: "text" }, { key: "a", label: "A", type: "text" }] }]);
    await entry(token, m.model_id, "one", { faq: [{ q: "Short?" }, { q: "A much longer question?", a: "yes" }] }, true);
    await entry(token, m.model_id, "two", { faq: [{ q: "Q", a: "A" }] }, true);
    const nested = (change: (n: Field) => Field) => (f: Field) => (f.key === "faq" ? { ...f, fields: (f.fields as Field[]).map(change) } : f);
    const shorter = await replace(token, m.model_id, nested((n) => (n.key === "q" ? { ...n, validation: { max_length: 10 } } : n)));
    expect(shorter.status).toBe(409);
    expect(shorter.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "faq", affected_count: 1 })]);
    expect(shorter.body.error.changes?.[0]?.message).toContain("too_long at faq[1].q");
    const required = await replace(token, m.model_id, nested((n) => (n.key === "a" ? { ...n, required: true } : n)));
    expect(required.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "faq", affected_count: 1 })]);
    const fewer = await replace(token, m.model_id, (f) => (f.key === "faq" ? { ...f, validation: { max_items: 1 } } : f));
    expect(fewer.body.error.changes).toEqual([expect.objectContaining({ kind: "validation_tightened", field: "faq", affected_count: 1 })]);
    expect((await replace(token, m.model_id, (f) => (f.key === "faq" ? { ...f, validation: { max_items: 2 } } : f))).status).toBe(200);
  });
});
