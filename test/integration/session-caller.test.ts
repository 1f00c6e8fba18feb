import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import personSourceMigration from "../../migrations/d1/0028_proposal_person_source.sql";
import type { EntryView } from "../../shared/services/lifecycle";
import type { ProposalView } from "../../shared/services/proposals/entry-proposals";
import type { ModelProposalView } from "../../shared/services/proposals/model-proposals";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/**
 * Who asks (docs/management-api.md, "Who asks"): a proposal made through the admin's session
 * bridge (/api/v1) comes from the person, not from a management credential; one made with a
 * credential still names the credential. Stored sources of the older shape are migrated.
 */

const newModel = (slug: string) => ({ mode: "create", definition: { model: { name: slug, slug, enableI18n: false }, fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] } });

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  const entry = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, slug: "story", fields: { title: "Original" } } });
  expect(entry.status).toBe(201);
  const editor = await s.person("editor");
  const session = await signIn(await emailOf(editor.id), "pw");
  return { s, token, entry: entry.body, editor, session };
}

async function storedSource(table: "entry_proposals" | "model_proposals", id: string): Promise<unknown> {
  const row = await env.DB.prepare(`SELECT source FROM ${table} WHERE id = ?`).bind(id).first<{ source: string }>();
  return JSON.parse(row?.source ?? "null");
}

describe("proposals record who asks", () => {
  it("an entry proposal through the admin session comes from the person; one through a credential from the credential", async () => {
    const { s, token, entry, editor, session } = await setup();
    const body = { base_version_id: entry.current_version_id, fields: { title: "From the editor" } };
    const bySession = await adminCall<ProposalView>(session, "POST", `/api/v1/entries/${entry.instance_id}/proposals`, { siteId: s.site.id, body, headers: { "idempotency-key": "propose-1" } });
    expect(bySession.status, JSON.stringify(bySession.body)).toBe(201);
    expect(bySession.body.source).toEqual({ kind: "person", id: editor.id, label: "editor" });
    expect(bySession.body.created_by).toBe(editor.id);
    expect(await storedSource("entry_proposals", bySession.body.id)).toEqual({ kind: "person", id: editor.id, label: "editor" });

    const byCredential = await manage<ProposalView>(token, "POST", `/entries/${entry.instance_id}/proposals`, { body });
    expect(byCredential.status).toBe(201);
    expect(byCredential.body.source).toMatchObject({ kind: "management", label: "test" });
    expect(byCredential.body.source.id).toMatch(/^mcr_/);
  });

  it("a model proposal through the admin session comes from the person", async () => {
    const { s, session } = await setup();
    const admin = await signIn(await emailOf(s.adminId));
    const proposed = await adminCall<ModelProposalView>(admin, "POST", "/api/v1/models/proposals", { siteId: s.site.id, body: newModel("event"), headers: { "idempotency-key": "model-1" } });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    expect(proposed.body.source).toEqual({ kind: "person", id: s.adminId, label: "Admin" });
    expect(await storedSource("model_proposals", proposed.body.id)).toEqual({ kind: "person", id: s.adminId, label: "Admin" });
    // The editor's role has no schema:propose permission behind the scope a session holds: the same refusal as before.
    expect((await adminCall(session, "POST", "/api/v1/models/proposals", { siteId: s.site.id, body: newModel("other"), headers: { "idempotency-key": "model-2" } })).status).toBe(403);
  });

  it("migration 0028 rewrites sources recorded as the session's person:… id to the person, and leaves credentials' alone", async () => {
    const { token, entry, editor } = await setup();
    const body = { base_version_id: entry.current_version_id, fields: { title: "Older" } };
    const old = (await manage<ProposalView>(token, "POST", `/entries/${entry.instance_id}/proposals`, { body })).body;
    const kept = (await manage<ProposalView>(token, "POST", `/entries/${entry.instance_id}/proposals`, { body })).body;
    const oldModel = (await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: newModel("event") })).body;
    const keptModel = (await manage<ModelProposalView>(token, "POST", "/models/proposals", { body: newModel("venue") })).body;
    // The shape a proposal made through the session was stored in before.
    const before = JSON.stringify({ kind: "management", id: `person:${editor.id}`, label: "editor", requested_by: "someone" });
    await env.DB.prepare("UPDATE entry_proposals SET source = ? WHERE id = ?").bind(before, old.id).run();
    await env.DB.prepare("UPDATE model_proposals SET source = ? WHERE id = ?").bind(before, oldModel.id).run();

    const updates = personSourceMigration.split(/;\s*\n/).map((part) => part.replace(/^\s*--.*$/gm, "").trim()).filter((part) => part.startsWith("UPDATE"));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await env.DB.prepare(statement).run();

    const person = { kind: "person", id: editor.id, label: "editor", requested_by: "someone" };
    expect(await storedSource("entry_proposals", old.id)).toEqual(person);
    expect(await storedSource("model_proposals", oldModel.id)).toEqual(person);
    expect((await manage<ProposalView>(token, "GET", `/proposals/${old.id}`)).body.source).toEqual(person);
    expect(await storedSource("entry_proposals", kept.id)).toEqual(kept.source);
    expect(await storedSource("model_proposals", keptModel.id)).toEqual(keptModel.source);
  });
});
