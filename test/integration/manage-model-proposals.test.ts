import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ModelProposalView } from "../../shared/services/proposals/model-proposals";
import type { ModelWriteAnswer } from "../../shared/services/models/apply-model";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Err = { error: { code: string; [k: string]: unknown } };
interface ModelBody { id: string; slug: string; name: string; revision: number; updated_at: string; definition: { fields: { id: string; key: string; label: string; type: string }[] } }

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  const author = (await manage<ModelBody>(token, "GET", `/models/${models.author.id}`)).body;
  return { s, token, author };
}

async function adminSession(s: SeededSite) {
  const actor = await s.person("admin");
  return { actor, session: await signIn(await emailOf(actor.id), "pw") };
}

const newModel = { mode: "create", definition: { model: { name: "Event", slug: "event", enableI18n: false }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] }, note: "for events" };

function updateBody(author: ModelBody, fields: Record<string, unknown>[], base = author.updated_at) {
  return { mode: "update", model_id: author.id, base_updated_at: base, definition: { model: { name: "Writer", slug: "writer" }, fields } };
}

async function modelCount(s: SeededSite): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM models WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n ?? -1;
}

describe("management API: model proposals", () => {
  it("creates create and update proposals, lists newest first and reads one", async () => {
    const { s, token, author } = await setup();
    const created = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: newModel });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ mode: "create", state: "open", model_id: null, stale: false, revision: 0, note: "for events", changes: [] });
    expect(created.body.id).toMatch(/^mpr_/);
    expect(created.body.source).toMatchObject({ kind: "management", label: "test" });

    // Removing "bio" from an author with a bio value is content-breaking: permitted, and listed.
    const withBio = await manage(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann", bio: "Writes." } } });
    expect(withBio.status).toBe(201);
    const nameField = author.definition.fields.find((f) => f.key === "name");
    const update = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: updateBody(author, [{ ...nameField }, { key: "twitter", label: "Twitter", type: "text" }]) });
    expect(update.status, JSON.stringify(update.body)).toBe(201);
    expect(update.body).toMatchObject({ mode: "update", model_id: author.id, base_updated_at: author.updated_at, stale: false });
    expect(update.body.changes).toEqual([expect.objectContaining({ kind: "field_removed_with_values", field: "bio", affected_count: 1 })]);
    expect(await modelCount(s)).toBe(4);

    const list = await manage<{ data: ModelProposalView[] }>(token, "GET", "/models/proposals");
    expect(list.status).toBe(200);
    expect(list.body.data.map((p) => p.id)).toEqual([update.body.id, created.body.id]);
    const open = await manage<{ data: ModelProposalView[] }>(token, "GET", "/models/proposals?state=applied");
    expect(open.body.data).toEqual([]);
    expect((await manage<ModelProposalView>(token, "GET", `/models/proposals/${update.body.id}`)).body).toMatchObject({ id: update.body.id, stale: false });
    expect((await manage<Err>(token, "GET", "/models/proposals/mpr_nope")).status).toBe(404);
    expect((await manage<Err>(token, "POST", "/models/proposals", { body: updateBody({ ...author, id: "mdl_nope" }, []) })).status).toBe(404);
    const moved = await manage<Err>(token, "POST", "/models/proposals", { body: updateBody(author, [], "2000-01-01T00:00:00.000Z") });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatchObject({ code: "model_changed", current_updated_at: author.updated_at });
  });

  it("a person applies proposals as a normal apply; a stale one is refused with nothing written; dismiss", async () => {
    const { s, token, author } = await setup();
    const { actor, session } = await adminSession(s);
    const created = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: newModel });
    const applied = await adminCall<{ proposal: ModelProposalView; model: ModelWriteAnswer }>(session, "POST", `/api/models/proposals/${created.body.id}/apply`, { siteId: s.site.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.proposal).toMatchObject({ state: "applied", revision: 1, decided_by: actor.id });
    expect(applied.body.model).toMatchObject({ slug: "event" });
    expect(await modelCount(s)).toBe(5);
    const again = await adminCall<Err>(session, "POST", `/api/models/proposals/${created.body.id}/apply`, { siteId: s.site.id });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("schema_proposal_stale");

    const keep = author.definition.fields;
    const first = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: updateBody(author, [...keep, { key: "twitter", label: "Twitter", type: "text" }]) });
    const second = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: updateBody(author, keep) });
    const ok = await adminCall<{ proposal: ModelProposalView; model: ModelWriteAnswer }>(session, "POST", `/api/models/proposals/${first.body.id}/apply`, { siteId: s.site.id });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.model).toMatchObject({ model_id: author.id, slug: "writer", renamed_from: "author", revision: author.revision + 1 });
    expect(ok.body.model.created_field_ids).toHaveLength(1);
    const audit = await env.DB.prepare("SELECT actor_id FROM audit_log WHERE site_id = ? AND action = 'model.definition' AND target_id = ?").bind(s.site.id, author.id).first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(actor.id);

    // The model changed after `second` was made: stale, apply refused, nothing written.
    const now = (await manage<ModelBody>(token, "GET", `/models/${author.id}`)).body;
    expect((await manage<ModelProposalView>(token, "GET", `/models/proposals/${second.body.id}`)).body).toMatchObject({ state: "open", stale: true });
    const stale = await adminCall<Err>(session, "POST", `/api/models/proposals/${second.body.id}/apply`, { siteId: s.site.id });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "schema_proposal_stale", current_updated_at: now.updated_at });
    expect((await manage<ModelBody>(token, "GET", `/models/${author.id}`)).body).toMatchObject({ revision: now.revision, slug: "writer", updated_at: now.updated_at });
    expect((await manage<ModelProposalView>(token, "GET", `/models/proposals/${second.body.id}`)).body).toMatchObject({ state: "open", revision: 0 });

    const dismissed = await adminCall<ModelProposalView>(session, "POST", `/api/models/proposals/${second.body.id}/dismiss`, { siteId: s.site.id });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ state: "dismissed", revision: 1, decided_by: actor.id });
    expect((await adminCall<Err>(session, "POST", `/api/models/proposals/${second.body.id}/dismiss`, { siteId: s.site.id })).status).toBe(409);
  });

  it("a content-breaking proposal meets the apply's own refusal", async () => {
    const { s, token, author } = await setup();
    const { session } = await adminSession(s);
    await manage(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann", bio: "Writes." } } });
    const nameField = author.definition.fields.find((f) => f.key === "name");
    const p = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: updateBody(author, [{ ...nameField }]) });
    expect(p.status).toBe(201);
    const refused = await adminCall<Err>(session, "POST", `/api/models/proposals/${p.body.id}/apply`, { siteId: s.site.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("model_change_blocked");
    expect((await manage<ModelProposalView>(token, "GET", `/models/proposals/${p.body.id}`)).body.state).toBe("open");
  });

  it("enforces limits and the schema:propose scope", async () => {
    const { s, token } = await setup();
    const fields = Array.from({ length: 201 }, (_, i) => ({ key: `f${i}`, label: `F${i}`, type: "text" }));
    expect((await manage<Err>(token, "POST", "/models/proposals", { body: { ...newModel, definition: { ...newModel.definition, fields } } })).status).toBe(400);
    expect((await manage<Err>(token, "POST", "/models/proposals", { body: { ...newModel, note: "x".repeat(501) } })).status).toBe(400);
    expect((await manage<Err>(token, "POST", "/models/proposals", { body: { ...newModel, note: "\u{1f30a}".repeat(501) } })).status).toBe(400);
    expect((await manage<Err>(token, "POST", "/models/proposals", { body: { ...newModel, note: "a\u0000b" } })).status).toBe(400);
    const readOnly = await credential(s, ["content:read"]);
    expect((await manage<Err>(readOnly, "POST", "/models/proposals", { body: newModel })).body.error).toMatchObject({ code: "insufficient_scope", scope: "schema:propose" });
    expect((await manage<Err>(readOnly, "GET", "/models/proposals")).status).toBe(403);
    expect((await manage<Err>(readOnly, "GET", "/models/proposals/mpr_x")).status).toBe(403);
  });
});

describe("management API: model proposals and the credential's models", () => {
  it("leaves out and hides update proposals on models the credential may not read", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    const author = (await manage<ModelBody>(token, "GET", `/models/${models.author.id}`)).body;
    const created = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: newModel });
    const update = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: updateBody(author, author.definition.fields) });
    expect(update.status, JSON.stringify(update.body)).toBe(201);
    const narrowed = await credential(s, ["schema:propose"], [models.article.id]);
    const list = await manage<{ data: ModelProposalView[] }>(narrowed, "GET", "/models/proposals");
    expect(list.status).toBe(200);
    expect(list.body.data.map((p) => p.id)).toEqual([created.body.id]);
    const one = await manage<Err>(narrowed, "GET", `/models/proposals/${update.body.id}`);
    expect(one.status).toBe(404);
    expect(one.body.error.code).toBe("not_found");
    expect((await manage<ModelProposalView>(narrowed, "GET", `/models/proposals/${created.body.id}`)).status).toBe(200);
  });
});

describe("management API: model proposal fields as JSON text (spec 2)", () => {
  it("accepts config, ui and validation as JSON text, refuses derived fields and malformed text", async () => {
    const { token } = await setup();
    const field = {
      key: "status",
      label: "Status",
      type: "select",
      config: JSON.stringify({ options: [{ value: "draft", label: "Draft" }, { value: "final", label: "Final" }] }),
      ui: JSON.stringify({ help: "Where the text stands." }),
      derived: "{}",
    };
    const title = { key: "title", label: "Title", type: "text", title: true, validation: JSON.stringify({ max_length: 80 }) };
    const body = { mode: "create", definition: { model: { name: "Memo", slug: "memo" }, fields: [title, field] } };
    const created = await manage<ModelProposalView>(token, "POST", "/models/proposals", { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.definition.fields).toEqual([
      { key: "title", label: "Title", type: "text", title: true, validation: { max_length: 80 } },
      { key: "status", label: "Status", type: "select", options: [{ value: "draft", label: "Draft" }, { value: "final", label: "Final" }], help: "Where the text stands." },
    ]);
    for (const bad of [{ ...field, derived: JSON.stringify({ from: "title" }) }, { ...field, config: "{not json" }, { ...field, ui: JSON.stringify({ colour: "red" }) }, { ...field, config: JSON.stringify({ nonsense: true }) }]) {
      const refused = await manage<Err>(token, "POST", "/models/proposals", { body: { ...body, definition: { ...body.definition, fields: [title, bad] } } });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
  });
});

