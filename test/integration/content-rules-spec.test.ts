import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { toolResult } from "../helpers/mcp";

/*
 * Issue #22, "Content rules the spec states differently": Trash leaves lists (spec 3, States),
 * and field keys that are names JavaScript objects already use (docs/content-rules-fields.md,
 * "Field keys"). Components holding relations, media and rich text: component-references.test.ts.
 */

type Listed = { data: EntryView[] };

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
