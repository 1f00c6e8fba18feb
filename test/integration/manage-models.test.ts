import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { installTestPlugin } from "../helpers/plugins";
import { publicGet } from "../helpers/public-api";
import { modelRow, type Err, type ModelBody, type WriteBody } from "../helpers/model-answers";

async function auditCount(s: SeededSite, action: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = ?").bind(s.site.id, action).first<{ n: number }>();
  return row?.n ?? 0;
}

async function publishArticle(token: string, articleId: string, title: string, extra: Record<string, unknown> = {}): Promise<EntryView> {
  const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: articleId, fields: { title, ...extra } } });
  expect(created.status).toBe(201);
  const published = await manage<EntryView>(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
  expect(published.status).toBe(200);
  return published.body;
}

describe("management API: models", () => {
  it("lists and reads models, leaving out those the credential may not read", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const token = await credential(s);
    const list = await manage<{ data: ModelBody[] }>(token, "GET", "/models");
    expect(list.status).toBe(200);
    expect(list.body.data.map((m) => m.slug)).toEqual(["article", "author", "category", "note"]);
    const one = await manage<ModelBody>(token, "GET", `/models/${article.id}`);
    expect(one.body).toMatchObject({ id: article.id, slug: "article", revision: 1, folder: null });
    expect(one.body.definition.fields.map((f) => f.key)).toContain("internal_note");
    const narrow = await credential(s, ["content:read"], [author.id]);
    expect((await manage<{ data: ModelBody[] }>(narrow, "GET", "/models")).body.data.map((m) => m.slug)).toEqual(["author"]);
    expect((await manage<Err>(narrow, "GET", `/models/${article.id}`)).status).toBe(404);
    expect((await manage<Err>(token, "GET", "/models/mdl_nope")).status).toBe(404);
  });

  it("creates a model, replays the write, and refuses taken slugs, names, duplicate keys and missing scope", async () => {
    const s = await seedSite();
    await blogModels(s.ctx());
    const token = await credential(s);
    const readOnly = await credential(s, ["content:read"]);
    const body = { definition: { model: { name: "Event", slug: "event", enableI18n: true }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] } };
    expect((await manage<Err>(readOnly, "POST", "/models", { body })).body.error).toMatchObject({ code: "insufficient_scope", scope: "schema:write" });
    const key = newKey();
    const created = await manage<WriteBody>(token, "POST", "/models", { key, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "event", renamed_from: null, revision: 1 });
    expect(created.body.created_field_ids).toHaveLength(1);
    const replay = await manage<WriteBody>(token, "POST", "/models", { key, body });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...created.body, replayed: true });
    const count = await env.DB.prepare("SELECT count(*) AS n FROM models WHERE site_id = ? AND slug = 'event'").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);

    expect((await manage<Err>(token, "POST", "/models", { body })).body.error.code).toBe("model_slug_taken");
    expect((await manage<Err>(token, "POST", "/models", { body: { definition: { ...body.definition, model: { name: "Event", slug: "event2" } } } })).body.error.code).toBe("model_name_collision");
    const dup = await manage<Err>(token, "POST", "/models", {
      body: { definition: { model: { name: "Dup", slug: "dup" }, fields: [{ key: "a", label: "A", type: "text" }, { key: "a", label: "B", type: "text" }] } },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("duplicate_field_key");
    expect((await manage<Err>(token, "POST", "/models", { body: { definition: { model: { name: "X", slug: "x" }, fields: [{ id: "f1", key: "a", label: "A", type: "text" }] } } })).status).toBe(400);
  });

  it("renames a field key and the model slug: published items follow in the same write, stale revisions write nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const entry = await publishArticle(token, article.id, "Hello Models");
    const before = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/article/hello-models");
    expect(before.body.data.fields).toHaveProperty("title", "Hello Models");

    const fields = article.fields.map((f) => (f.key === "title" ? { ...f, key: "headline" } : f));
    const stale = await manage<Err>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 0, definition: { model: { name: article.name, slug: article.slug }, fields } } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("model_changed");
    expect((await modelRow(s, article.id))?.revision).toBe(1);

    const auditsBefore = await auditCount(s, "model.definition");
    const renamed = await manage<WriteBody>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 1, definition: { model: { name: article.name, slug: article.slug }, fields: [...fields, { key: "subtitle", label: "Subtitle", type: "text" }] } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ model_id: article.id, slug: "article", revision: 2, renamed_from: null, dependents: { complete: true } });
    expect(renamed.body.created_field_ids).toHaveLength(1);
    expect(await auditCount(s, "model.definition")).toBe(auditsBefore + 1);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'model.updated'").bind(s.site.id).first<{ n: number }>();
    expect(events?.n).toBeGreaterThan(0);
    const after = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/article/hello-models");
    expect(after.body.data.fields).toHaveProperty("headline", "Hello Models");
    expect(after.body.data.fields).not.toHaveProperty("title");

    const moveKey = newKey();
    const moved = await manage<WriteBody>(token, "PUT", `/models/${article.id}`, { key: moveKey, body: { expected_revision: 2, model: { slug: "post", name: "Post" } } });
    expect(moved.status).toBe(200);
    const movedAgain = await manage<WriteBody>(token, "PUT", `/models/${article.id}`, { key: moveKey, body: { expected_revision: 2, model: { slug: "post", name: "Post" } } });
    expect(movedAgain.body).toMatchObject({ slug: "post", renamed_from: "article", revision: 3, replayed: true });
    expect(movedAgain.body).not.toHaveProperty("dependents");
    expect(moved.body).toMatchObject({ slug: "post", renamed_from: "article", revision: 3, dependents: { complete: true } });
    const served = await publicGet<{ data: { model: string; id: string } }>(s.host, "/v1/post/hello-models");
    expect(served.status).toBe(200);
    expect(served.body.data).toMatchObject({ model: "post", id: entry.instance_id });

    expect((await manage<Err>(token, "PUT", `/models/${article.id}`, { body: { expected_revision: 3, model: { slug: "author" } } })).body.error.code).toBe("model_slug_taken");
    expect((await manage<Err>(token, "PUT", `/models/${article.id}`, { body: { expected_revision: 3, model: { name: "Author" } } })).body.error.code).toBe("model_name_collision");
    const unknownField = await manage<Err>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 3, definition: { model: { name: "Post", slug: "post" }, fields: [{ ...fields[0], id: "fld_nope" }] } } });
    expect(unknownField.body.error.code).toBe("field_not_found");
    const dupKey = await manage<Err>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 3, definition: { model: { name: "Post", slug: "post" }, fields: [...fields, { key: "headline", label: "Again", type: "text" }] } } });
    expect(dupKey.body.error.code).toBe("duplicate_field_key");
    expect((await modelRow(s, article.id))?.revision).toBe(3);
  });

  it("blocks changes unsafe for content, listing each change, and writes nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const tagged = await manage<WriteBody>(token, "PUT", `/models/${article.id}/definition`, {
      body: { expected_revision: 1, definition: { model: { name: article.name, slug: article.slug }, fields: [...article.fields, { key: "tone", label: "Tone", type: "select", options: [{ value: "calm", label: "Calm" }, { value: "loud", label: "Loud" }] }] } },
    });
    expect(tagged.status).toBe(200);
    const model = (await manage<ModelBody>(token, "GET", `/models/${article.id}`)).body;
    await publishArticle(token, article.id, "Blocked", { summary: "Has summary", tone: "loud", internal_note: "secret" });
    const row = await modelRow(s, article.id);

    const fields = model.definition.fields
      .filter((f) => f.key !== "summary")
      .map((f) => {
        if (f.key === "body") return { ...f, required: true };
        if (f.key === "internal_note") return { ...f, type: "long_text", private: true };
        if (f.key === "tone") return { ...f, options: [{ value: "calm", label: "Calm" }] };
        return f;
      });
    const blocked = await manage<Err & { error: { changes: { kind: string; field: string; affected_count: number; message: string; suggestion: string }[] } }>(token, "PUT", `/models/${article.id}/definition`, {
      body: { expected_revision: model.revision, definition: { model: model.definition.model, fields } },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(409);
    expect(blocked.body.error.code).toBe("model_change_blocked");
    const kinds = blocked.body.error.changes.map((c) => `${c.kind}:${c.field}`).sort();
    expect(kinds).toEqual(["field_removed_with_values:summary", "option_removed:tone", "required_added:body", "type_changed:internal_note"]);
    for (const change of blocked.body.error.changes) {
      expect(change.affected_count).toBe(1);
      expect(change.message.length).toBeGreaterThan(0);
      expect(change.suggestion.length).toBeGreaterThan(0);
    }
    expect(await modelRow(s, article.id)).toEqual(row);
  });

  it("files a model in a folder without changing its revision", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const token = await credential(s);
    const filed = await manage<{ model_id: string; slug: string; folder: string | null }>(token, "PUT", `/models/${author.id}/folder`, { body: { folder: "People" } });
    expect(filed.status).toBe(200);
    expect(filed.body).toEqual({ model_id: author.id, slug: "author", folder: "People" });
    const row = await modelRow(s, author.id);
    expect(row).toMatchObject({ folder: "People", revision: 1, updated_at: author.updated_at });
    expect((await manage(token, "PUT", `/models/${author.id}/folder`, { body: { folder: "x".repeat(41) } })).status).toBe(400);
    expect((await manage(token, "PUT", `/models/${author.id}/folder`, { body: { folder: "" } })).status).toBe(400);
    // 40 characters as people count them (code points), and a readable name like every label the admin lists.
    for (const folder of ["People\u0000", "People\u202e", "\ud800", "\u{1f30a}".repeat(41)]) {
      expect((await manage(token, "PUT", `/models/${author.id}/folder`, { body: { folder } })).status, JSON.stringify(folder)).toBe(400);
    }
    expect((await manage<{ folder: string | null }>(token, "PUT", `/models/${author.id}/folder`, { body: { folder: "\u{1f30a}".repeat(40) } })).body.folder).toBe("\u{1f30a}".repeat(40));
    expect((await manage<{ folder: string | null }>(token, "PUT", `/models/${author.id}/folder`, { body: { folder: null } })).body.folder).toBeNull();
  });

  it("removes only an empty model, with confirm and the current revision", async () => {
    const s = await seedSite();
    const { article, note } = await blogModels(s.ctx());
    const token = await credential(s);
    const plugin = await installTestPlugin(s, { modelIds: [article.id, note.id] });
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: note.id, fields: { title: "Trashed" } } });
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/trash`, { body: {} })).status).toBe(200);

    expect((await manage<Err>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: "other" } })).status).toBe(400);
    expect((await manage<Err>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 7, confirm: note.id } })).body.error.code).toBe("model_changed");
    const notEmpty = await manage<Err>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(notEmpty.status).toBe(409);
    expect(notEmpty.body.error.code).toBe("model_not_empty");
    expect(await modelRow(s, note.id)).not.toBeNull();

    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/purge`, { body: {} })).status).toBe(200);
    const key = newKey();
    const removed = await manage<WriteBody>(token, "POST", `/models/${note.id}/remove`, { key, body: { expected_revision: 1, confirm: note.id } });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ model_id: note.id, slug: "note", dependents: { complete: true } });
    expect(await modelRow(s, note.id)).toBeNull();
    // Permission migration: the plugin's grant no longer names the removed model.
    const grant = await env.DB.prepare("SELECT granted_model_ids FROM plugin_installations WHERE id = ?").bind(plugin.id).first<{ granted_model_ids: string }>();
    expect(JSON.parse(grant?.granted_model_ids ?? "null")).toEqual([article.id]);
    const replay = await manage<WriteBody>(token, "POST", `/models/${note.id}/remove`, { key, body: { expected_revision: 1, confirm: note.id } });
    expect(replay.body.replayed).toBe(true);
    // dependents.complete describes the first run's re-rendering: absent on a replay (spec 2).
    const { dependents: _first, ...firstWithoutDependents } = removed.body;
    expect(replay.body).toEqual({ ...firstWithoutDependents, replayed: true });
    expect((await manage<Err>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } })).status).toBe(404);
    expect((await manage<Err>(token, "GET", `/models/${article.id}`)).status).toBe(200);
  });
});


describe("management API: one shape of a model definition (spec 2: complete definition)", () => {
  const head = { name: "Event", slug: "event", description: "Things that happen", enableI18n: true, settings: { icon: "calendar" } };
  const eventFields = [
    { key: "title", label: "Title", type: "text", required: true, title: true },
    { key: "starts", label: "Starts", type: "datetime" },
  ];

  it("GET /models/{id} answers definition { model, fields } in the shape POST /models takes", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: head, fields: eventFields } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    expect(read.body.definition.model).toEqual({
      name: "Event",
      slug: "event",
      description: "Things that happen",
      kind: "collection",
      is_public: true,
      enableI18n: true,
      settings: { preview_url: null, icon: "calendar", help_text: null, site_path: null },
      unique_combinations: [],
    });
    expect(read.body.definition.fields.map((f) => f.key)).toEqual(["title", "starts"]);
    const listed = await manage<{ data: ModelBody[] }>(token, "GET", "/models");
    expect(listed.body.data.find((m) => m.id === created.body.model_id)?.definition).toEqual(read.body.definition);
  });

  it("a model read can be written back unchanged with PUT /models/{id}/definition", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: head, fields: eventFields } } });
    const read = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    const back = await manage<WriteBody>(token, "PUT", `/models/${created.body.model_id}/definition`, { body: { expected_revision: read.body.revision, definition: read.body.definition } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ model_id: created.body.model_id, slug: "event", renamed_from: null, created_field_ids: [] });
    const again = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    expect(again.body.definition).toEqual(read.body.definition);
  });

  it("takes the complete definition: a changed name or slug renames the model, answered with renamed_from", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: head, fields: eventFields } } });
    const read = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    const renamed = await manage<WriteBody>(token, "PUT", `/models/${created.body.model_id}/definition`, {
      body: { expected_revision: read.body.revision, definition: { model: { ...read.body.definition.model, name: "Happening", slug: "happening" }, fields: read.body.definition.fields } },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ slug: "happening", renamed_from: "event", dependents: { complete: true } });
    const after = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    expect(after.body).toMatchObject({ name: "Happening", slug: "happening", definition: { model: { name: "Happening", slug: "happening" } } });
  });

  it("refuses a definition without its model part with 400 and writes nothing; an empty collection may become single", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: head, fields: eventFields } } });
    const read = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    const fieldsOnly = await manage<Err>(token, "PUT", `/models/${created.body.model_id}/definition`, { body: { expected_revision: read.body.revision, definition: { fields: read.body.definition.fields } } });
    expect(fieldsOnly.status).toBe(400);
    expect(fieldsOnly.body.error.code).toBe("invalid_request");
    const kind = await manage<Err>(token, "PUT", `/models/${created.body.model_id}/definition`, {
      body: { expected_revision: read.body.revision, definition: { model: { ...read.body.definition.model, kind: "single" }, fields: read.body.definition.fields } },
    });
    // Spec 3: a collection becomes single with at most one item (content-rules-single-unique.test.ts covers the refusal).
    expect(kind.status, JSON.stringify(kind.body)).toBe(200);
    expect((await modelRow(s, created.body.model_id))?.revision).toBe(read.body.revision + 1);
    expect((await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`)).body).toMatchObject({ kind: "single" });
  });

  it("a model read can be proposed back as an update proposal in the same shape", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", { body: { definition: { model: head, fields: eventFields } } });
    const read = await manage<ModelBody>(token, "GET", `/models/${created.body.model_id}`);
    const proposed = await manage<{ state: string; definition: { model: Record<string, unknown> } }>(token, "POST", "/models/proposals", {
      body: { mode: "update", model_id: created.body.model_id, base_updated_at: read.body.updated_at, definition: { ...read.body.definition, model: { ...read.body.definition.model, description: "Changed" } } },
    });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    expect(proposed.body.definition.model).toMatchObject({ name: "Event", slug: "event", description: "Changed" });
  });
});
