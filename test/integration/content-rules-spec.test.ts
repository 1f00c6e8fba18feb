import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { toolResult } from "../helpers/mcp";
import { modelCreator, siteWithCredential, type Field } from "../helpers/model-api";

/*
 * Issue #22, "Content rules the spec states differently": Trash leaves lists (spec 3, States),
 * and field keys that are names JavaScript objects already use (docs/content-rules-fields.md,
 * "Field keys"). Components holding relations, media and rich text: component-references.test.ts.
 */

type Listed = { data: EntryView[] };
type KeyErr = { error: { code: string; keys?: string[]; issues?: { path: string; message: string }[] } };

describe("Trash leaves lists (spec 3: removed from lists, relation choice, dashboards)", () => {
  it("lists an entry in Trash only where Trash is asked for: management API, MCP and the admin's session", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const model = await addModel(s.ctx(), { slug: "note", name: "Note", fields: [{ key: "title", label: "Title", type: "text", title: true }] });
    const kept = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.id, slug: "kept", fields: { title: "Kept" } } });
    const binned = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: model.id, slug: "binned", fields: { title: "Binned" } } });
    expect((await manage(token, "POST", `/entries/${binned.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const ids = (body: Listed) => body.data.map((e) => e.instance_id);

    // The default list (no state), a model's list (the relation picker's), a language's list and a
    // workflow state's list leave Trash out; `state=trash` is the Trash tab.
    expect(ids((await manage<Listed>(token, "GET", "/entries")).body)).toEqual([kept.body.instance_id]);
    expect(ids((await manage<Listed>(token, "GET", `/entries?model_id=${model.id}&limit=100`)).body)).toEqual([kept.body.instance_id]);
    expect(ids((await manage<Listed>(token, "GET", `/entries?model_id=${model.id}&lang=en`)).body)).toEqual([kept.body.instance_id]);
    expect(ids((await manage<Listed>(token, "GET", `/entries?translation_group_id=${binned.body.translation_group_id}`)).body)).toEqual([]);
    expect(ids((await manage<Listed>(token, "GET", `/entries?model_id=${model.id}&slug=binned&lang=en`)).body)).toEqual([]);
    const trash = await manage<Listed>(token, "GET", `/entries?model_id=${model.id}&state=trash`);
    expect(ids(trash.body)).toEqual([binned.body.instance_id]);
    expect(trash.body.data[0]?.trashed_at).not.toBeNull();

    // MCP's list_entries is the same handler.
    const tool = await toolResult<Listed>(s.host, token, "list_entries", { model_id: model.id });
    expect(ids(tool.structuredContent.body)).toEqual([kept.body.instance_id]);
    const toolTrash = await toolResult<Listed>(s.host, token, "list_entries", { model_id: model.id, state: "trash" });
    expect(ids(toolTrash.structuredContent.body)).toEqual([binned.body.instance_id]);

    // The admin UI's entry list and relation picker (listEntries under the session), and its Trash tab.
    const session = await signIn(await emailOf(s.adminId));
    const listed = await adminCall<Listed>(session, "GET", `/api/v1/entries?model_id=${model.id}&limit=100`, { siteId: s.site.id });
    expect(ids(listed.body)).toEqual([kept.body.instance_id]);
    const tab = await adminCall<Listed>(session, "GET", `/api/v1/entries?model_id=${model.id}&state=trash`, { siteId: s.site.id });
    expect(ids(tab.body)).toEqual([binned.body.instance_id]);

    // Restored, it is listed again.
    expect((await manage(token, "POST", `/entries/${binned.body.instance_id}/restore`, { body: {} })).status).toBe(200);
    expect(ids((await manage<Listed>(token, "GET", `/entries?model_id=${model.id}`)).body).sort()).toEqual([kept.body.instance_id, binned.body.instance_id].sort());
  });
});

describe("field keys that are names JavaScript objects already use (422 invalid_field_key)", () => {
  const createModel = modelCreator("thing");
  const RESERVED = ["constructor", "__proto__", "toString", "prototype", "hasOwnProperty", "valueOf"];

  it("refuses them at model create, top level and inside a component, naming the key", async () => {
    const { token } = await siteWithCredential();
    for (const key of RESERVED) {
      const top = await createModel(token, [{ key: "title", label: "Title", type: "text" }, { key, label: "K", type: "text", required: true }], `top-${key.replace(/_/g, "").toLowerCase()}`);
      expect([top.status, (top.body as KeyErr).error.code], key).toEqual([422, "invalid_field_key"]);
      expect((top.body as KeyErr).error.keys).toEqual([key]);
      expect((top.body as KeyErr).error.issues?.map((i) => i.path)).toEqual(["definition.fields[1].key"]);

      const nested = await createModel(token, [{ key: "group", label: "G", type: "component", fields: [{ key: "a", label: "A", type: "text" }, { key, label: "K", type: "text" }] }], `nested-${key.replace(/_/g, "").toLowerCase()}`);
      expect([nested.status, (nested.body as KeyErr).error.code], key).toEqual([422, "invalid_field_key"]);
      expect((nested.body as KeyErr).error.keys).toEqual([key]);
      expect((nested.body as KeyErr).error.issues?.map((i) => i.path)).toEqual(["fields[0].fields[1].key"]);
    }
    expect((await manage<{ data: unknown[] }>(token, "GET", "/models")).body.data).toEqual([]);
    // Neighbours of the names stay ordinary keys.
    const fine = await createModel(token, [{ key: "constructorName", label: "C", type: "text" }, { key: "to_string", label: "T", type: "text" }], "fine");
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
  });

  it("refuses them in a definition replace and in model proposals (create, update)", async () => {
    const { token } = await siteWithCredential();
    const created = await createModel(token, [{ key: "title", label: "Title", type: "text" }]);
    expect(created.status).toBe(201);
    const read = await manage<{ revision: number; updated_at: string; definition: { model: Record<string, unknown>; fields: Field[] } }>(token, "GET", `/models/${created.body.model_id}`);
    for (const key of ["constructor", "__proto__", "toString"]) {
      const replaced = await manage<KeyErr>(token, "PUT", `/models/${created.body.model_id}/definition`, {
        body: { expected_revision: read.body.revision, definition: { model: read.body.definition.model, fields: [...read.body.definition.fields, { key, label: "K", type: "text" }] } },
      });
      expect([replaced.status, replaced.body.error.code, replaced.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);
      const nested = await manage<KeyErr>(token, "PUT", `/models/${created.body.model_id}/definition`, {
        body: { expected_revision: read.body.revision, definition: { model: read.body.definition.model, fields: [...read.body.definition.fields, { key: "box", label: "Box", type: "component", fields: [{ key, label: "K", type: "text" }] }] } },
      });
      expect([nested.status, nested.body.error.code, nested.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);

      const proposedNew = await manage<KeyErr>(token, "POST", "/models/proposals", { body: { mode: "create", definition: { model: { name: "Memo", slug: "memo" }, fields: [{ key, label: "K", type: "text" }] } } });
      expect([proposedNew.status, proposedNew.body.error.code, proposedNew.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);
      const proposedNested = await manage<KeyErr>(token, "POST", "/models/proposals", {
        body: { mode: "update", model_id: created.body.model_id, base_updated_at: read.body.updated_at, definition: { model: read.body.definition.model, fields: [...read.body.definition.fields, { key: "box", label: "Box", type: "component", config: JSON.stringify({ fields: [{ key, label: "K", type: "text" }] }) }] } },
      });
      expect([proposedNested.status, proposedNested.body.error.code, proposedNested.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);
    }
    expect((await manage<{ revision: number }>(token, "GET", `/models/${created.body.model_id}`)).body.revision).toBe(read.body.revision);
  });

  it("refuses an entry value under such a key with the same code, whatever the name", async () => {
    const { token } = await siteWithCredential();
    const model = await createModel(token, [{ key: "title", label: "Title", type: "text" }]);
    for (const key of ["constructor", "__proto__", "toString", "prototype"]) {
      const raw = `{"model_id":${JSON.stringify(model.body.model_id)},"fields":{"title":"T",${JSON.stringify(key)}:"x"}}`;
      const written = await manage<KeyErr>(token, "POST", "/entries", { rawBody: raw });
      expect([written.status, written.body.error.code, written.body.error.keys], key).toEqual([422, "invalid_field_key", [key]]);
    }
    expect((await manage<Listed>(token, "GET", `/entries?model_id=${model.body.model_id}`)).body.data).toEqual([]);
  });
});
