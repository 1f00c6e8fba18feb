import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import type { ProposalView } from "../../shared/services/proposals/entry-proposals";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { blogModels, seedSite, versionCount, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

type Err = { error: { code: string; [k: string]: unknown } };

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, slug: "story", fields: { title: "Original", summary: "Old summary" } } });
  expect(created.status).toBe(201);
  return { s, token, entry: created.body, ...models };
}

async function personSession(s: SeededSite, role: "editor" | "author" | "viewer") {
  const actor = await s.person(role);
  return { actor, session: await signIn(await emailOf(actor.id), "pw") };
}

const propose = (token: string, entry: EntryView, body: Record<string, unknown>, key?: string) =>
  manage<ProposalView & Err>(token, "POST", `/entries/${entry.instance_id}/proposals`, { ...(key ? { key } : {}), body: { base_version_id: entry.current_version_id, ...body } });

describe("management API: entry proposals", () => {
  it("a person applies a proposal as their own save; publish still works; closed proposals are refused", async () => {
    const { s, token, entry } = await setup();
    const key = newKey();
    const proposed = await propose(token, entry, { fields: { title: "Proposed", summary: "New summary" }, note: "please" }, key);
    expect(proposed.status).toBe(201);
    expect(proposed.body).toMatchObject({ state: "open", revision: 0, instance_id: entry.instance_id, note: "please", fields: { title: "Proposed", summary: "New summary" }, original_fields: { title: "Original", summary: "Old summary" } });
    expect(proposed.body.id).toMatch(/^prp_/);
    expect(proposed.body.source).toMatchObject({ kind: "management", label: "test" });
    expect(proposed.body.source.id).toMatch(/^mcr_/);
    const replay = await propose(token, entry, { note: "please", fields: { title: "Proposed", summary: "New summary" } }, key);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual({ ...proposed.body, replayed: true });
    const list = await manage<{ data: ProposalView[] }>(token, "GET", `/proposals?state=open&instance_id=${entry.instance_id}`);
    expect(list.body.data.map((p) => p.id)).toEqual([proposed.body.id]);
    expect((await manage<ProposalView>(token, "GET", `/proposals/${proposed.body.id}`)).body.state).toBe("open");
    // Nothing about the entry changed yet.
    expect(await versionCount(entry.instance_id)).toBe(1);

    const { actor, session } = await personSession(s, "editor");
    const applied = await adminCall<{ proposal: ProposalView; entry: EntryView }>(session, "POST", `/api/proposals/${proposed.body.id}/apply`, { siteId: s.site.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.proposal).toMatchObject({ state: "applied", revision: 1, decided_by: actor.id });
    expect(applied.body.entry.fields).toMatchObject({ title: "Proposed", summary: "New summary" });
    const version = await env.DB.prepare("SELECT created_by FROM versions WHERE id = ?").bind(applied.body.entry.current_version_id).first<{ created_by: string }>();
    expect(version?.created_by).toBe(actor.id);
    const audit = await env.DB.prepare("SELECT actor_id FROM audit_log WHERE site_id = ? AND action = 'proposal.apply'").bind(s.site.id).first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(actor.id);

    const again = await adminCall<Err>(session, "POST", `/api/proposals/${proposed.body.id}/apply`, { siteId: s.site.id });
    expect(again.status).toBe(409);
    const rejectClosed = await adminCall<Err>(session, "POST", `/api/proposals/${proposed.body.id}/reject`, { siteId: s.site.id });
    expect(rejectClosed.status).toBe(409);

    const published = await manage<EntryView>(token, "POST", `/entries/${entry.instance_id}/publish`, { body: { expected_version_id: applied.body.entry.current_version_id } });
    expect(published.status).toBe(200);
    expect(published.body.workflow.state).toBe("published");
  });

  it("a stale proposal is refused with proposal_stale and nothing is written; reject leaves the entry", async () => {
    const { s, token, entry } = await setup();
    const first = await propose(token, entry, { fields: { title: "One" } });
    const second = await propose(token, entry, { fields: { summary: "Two" } });
    const saved = await manage<EntryView>(token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { summary: "Moved on" } } });
    expect(saved.status).toBe(200);
    const { session } = await personSession(s, "editor");
    const before = await versionCount(entry.instance_id);
    const stale = await adminCall<Err>(session, "POST", `/api/proposals/${first.body.id}/apply`, { siteId: s.site.id });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("proposal_stale");
    expect(await versionCount(entry.instance_id)).toBe(before);
    expect((await manage<ProposalView>(token, "GET", `/proposals/${first.body.id}`)).body).toMatchObject({ state: "open", revision: 0 });

    const rejected = await adminCall<ProposalView>(session, "POST", `/api/proposals/${second.body.id}/reject`, { siteId: s.site.id });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ state: "rejected", revision: 1 });
    expect(await versionCount(entry.instance_id)).toBe(before);
    const current = await manage<EntryView>(token, "GET", `/entries/${entry.instance_id}`);
    expect(current.body.fields.summary).toBe("Moved on");
    expect((await manage<{ data: ProposalView[] }>(token, "GET", "/proposals?state=rejected")).body.data.map((p) => p.id)).toEqual([second.body.id]);
  });

  it("refuses relation and media fields, unknown fields and proposals over the limits", async () => {
    const { token, entry } = await setup();
    const unsupported = await propose(token, entry, { fields: { title: "X", author: null, cover: null } });
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.error).toMatchObject({ code: "proposal_field_unsupported", fields: ["author", "cover"] });
    const unknown = await propose(token, entry, { fields: { nope: "X" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe("field_validation_failed");
    const many: Record<string, string> = {};
    for (let i = 0; i < 51; i++) many[`f${i}`] = "x";
    expect((await propose(token, entry, { fields: many })).body.error.code).toBe("invalid_request");
    const big = await propose(token, entry, { fields: { summary: "x".repeat(64 * 1024) } });
    expect(big.status).toBe(400);
    expect(big.body.error.code).toBe("invalid_request");
    const note = await propose(token, entry, { fields: { title: "X" }, note: "n".repeat(2001) });
    expect(note.status).toBe(400);
    expect((await propose(token, entry, { fields: { title: "X" }, note: "n".repeat(2000) })).status).toBe(201);
    // Characters as people count them (an emoji is one); a reviewer reads the note as it is: line
    // breaks kept, no other control character or lone surrogate.
    expect((await propose(token, entry, { fields: { title: "X" }, note: "\u{1f30a}".repeat(2001) })).status).toBe(400);
    for (const bad of ["a\u0000b", "\ud800"]) expect((await propose(token, entry, { fields: { title: "X" }, note: bad })).status, JSON.stringify(bad)).toBe(400);
    expect((await propose(token, entry, { fields: { title: "Y" }, note: `${"\u{1f30a}".repeat(1990)}\nthanks` })).status).toBe(201);
    const readOnly = await credential((await seedSite()) as SeededSite, ["content:read"]);
    expect((await manage(readOnly, "GET", `/proposals`)).status).toBe(200);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM entry_proposals WHERE instance_id = ?").bind(entry.instance_id).first<{ n: number }>();
    expect(count?.n).toBe(2);
  });
});

describe("management API: assignment", () => {
  it("assigns eligible people and refuses people whose role may not update the model", async () => {
    const { s, token, entry } = await setup();
    const editor = await s.person("editor");
    const viewer = await s.person("viewer");
    const refused = await manage<Err>(token, "PUT", `/entries/${entry.instance_id}/assignment`, { body: { assignee_ids: [editor.id, viewer.id] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "assignee_not_eligible", ids: [viewer.id] });
    const stranger = await manage<Err>(token, "PUT", `/entries/${entry.instance_id}/assignment`, { body: { assignee_ids: ["per_nobody"] } });
    expect(stranger.body.error.code).toBe("assignee_not_eligible");
    const key = newKey();
    const assigned = await manage<{ assignee_ids: string[] }>(token, "PUT", `/entries/${entry.instance_id}/assignment`, { key, body: { assignee_ids: [editor.id], expected_workflow_revision: 0 } });
    expect(assigned.status).toBe(200);
    expect(assigned.body.assignee_ids).toEqual([editor.id]);
    const replay = await manage<{ replayed?: boolean }>(token, "PUT", `/entries/${entry.instance_id}/assignment`, { key, body: { assignee_ids: [editor.id], expected_workflow_revision: 0 } });
    expect(replay.body.replayed).toBe(true);
    const conflict = await manage<Err>(token, "PUT", `/entries/${entry.instance_id}/assignment`, { body: { assignee_ids: [], expected_workflow_revision: 5 } });
    expect(conflict.body.error.code).toBe("workflow_conflict");
    const event = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'entry.assigned'").bind(s.site.id).first<{ n: number }>();
    expect(event?.n).toBe(1);

    const who = await manage<{ assigned: { id: string; email: string }[]; eligible: { id: string; role: string }[] }>(token, "GET", `/entries/${entry.instance_id}/assignees`);
    expect(who.status).toBe(200);
    expect(who.body.assigned.map((p) => p.id)).toEqual([editor.id]);
    const eligibleIds = who.body.eligible.map((p) => p.id);
    expect(eligibleIds).toContain(editor.id);
    expect(eligibleIds).toContain(s.adminId);
    expect(eligibleIds).not.toContain(viewer.id);
    const narrow = await credential(s, ["content:read"]);
    expect((await manage<Err>(narrow, "GET", `/entries/${entry.instance_id}/assignees`)).body.error.code).toBe("insufficient_scope");
  });
});

describe("management API: preview", () => {
  it("mints a preview link without an Idempotency-Key that serves the draft on the public host", async () => {
    const { s, token, entry } = await setup();
    await manage(token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { title: "Draft title" } } });
    const res = await manage<{ preview: string; url: string; expires_at: string }>(token, "POST", `/entries/${entry.instance_id}/preview`, { key: null, body: { minutes: 5 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.url).toBe(`/v1/article/story?preview=${encodeURIComponent(res.body.preview)}`);
    const served = await publicGet<{ data: { fields: { title: string } } }>(s.host, res.body.url);
    expect(served.status).toBe(200);
    expect(served.body.data.fields.title).toBe("Draft title");
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/preview`, { key: null })).status).toBe(200);
  });
});

/** Replaces the limits of the admin role (the credentials' creator), bumping its revision. */
async function limitAdminRole(s: SeededSite, limits: Record<string, unknown>) {
  const role = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(s.adminId, s.site.id).first<{ id: string; permissions: string }>();
  const permissions = { ...(JSON.parse(role?.permissions ?? "{}") as Record<string, unknown>), limits };
  await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), role?.id).run();
}

const proposalCount = async (instanceId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM entry_proposals WHERE instance_id = ?").bind(instanceId).first<{ n: number }>())?.n ?? -1;

describe("management API: proposals and the reader's role", () => {
  it("reads leave out proposed and original values of fields the reader may not read", async () => {
    const { s, token, entry, article } = await setup();
    const proposed = await propose(token, entry, { fields: { title: "Proposed", summary: "New summary" } });
    expect(proposed.status).toBe(201);
    const titleId = article.fields.find((f) => f.key === "title")?.id ?? "";
    await limitAdminRole(s, { fields: { [article.id]: { read: [titleId] } } });
    const one = await manage<ProposalView>(token, "GET", `/proposals/${proposed.body.id}`);
    expect(one.body.fields).toEqual({ title: "Proposed" });
    expect(one.body.original_fields).toEqual({ title: "Original" });
    const list = await manage<{ data: ProposalView[] }>(token, "GET", `/proposals?instance_id=${entry.instance_id}`);
    expect(list.body.data.map((p) => [p.fields, p.original_fields])).toEqual([[{ title: "Proposed" }, { title: "Original" }]]);
    // Old values are kept whole: a reader who may read every field sees them all.
    await limitAdminRole(s, {});
    const full = await manage<ProposalView>(token, "GET", `/proposals/${proposed.body.id}`);
    expect(full.body.original_fields).toEqual({ title: "Original", summary: "Old summary" });
  });

  it("refuses proposed fields and languages outside the proposer's write limits, with nothing written", async () => {
    const { s, token, entry, article } = await setup();
    const titleId = article.fields.find((f) => f.key === "title")?.id ?? "";
    const summaryId = article.fields.find((f) => f.key === "summary")?.id ?? "";
    await limitAdminRole(s, { fields: { [article.id]: { write: [titleId] } } });
    const field = await propose(token, entry, { fields: { title: "Fine", summary: "Not mine" } });
    expect(field.status).toBe(403);
    expect(field.body.error).toMatchObject({ code: "field_denied", fields: [summaryId] });
    await limitAdminRole(s, { languages: { update: ["fr"] } });
    const locale = await propose(token, entry, { fields: { title: "Fine" } });
    expect(locale.status).toBe(403);
    expect(locale.body.error).toMatchObject({ code: "locale_denied", lang: "en" });
    expect(await proposalCount(entry.instance_id)).toBe(0);
  });

  it("pages past any number of proposals the reader may not read", async () => {
    const { s, token, entry, article, author } = await setup();
    const readable = await propose(token, entry, { fields: { title: "Readable" } });
    const writer = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    const hidden = await propose(token, writer.body, { fields: { name: "Hidden" } });
    expect(hidden.status).toBe(201);
    // 600 newer proposals on an entry of a model the narrowed credential may not read.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
       INSERT INTO entry_proposals (id, site_id, instance_id, base_version_id, fields, original_fields, note, source, state, revision, created_by, decided_by, created_at, updated_at)
       SELECT p.id || '_' || n.i, p.site_id, p.instance_id, p.base_version_id, p.fields, p.original_fields, p.note, p.source, p.state, p.revision, p.created_by, p.decided_by, '2999-01-01T00:00:00.000Z', p.updated_at
       FROM entry_proposals p, n WHERE p.id = ?`,
    ).bind(hidden.body.id).run();
    const narrowed = await credential(s, ["content:read"], [article.id]);
    const page = await manage<{ data: ProposalView[]; page: { has_more: boolean; next_cursor: string | null } }>(narrowed, "GET", "/proposals?limit=1");
    expect(page.status).toBe(200);
    expect(page.body.data.map((p) => p.id)).toEqual([readable.body.id]);
    expect(page.body.page).toMatchObject({ has_more: false, next_cursor: null });
    expect((await manage<Err>(narrowed, "GET", `/proposals/${hidden.body.id}`)).status).toBe(404);
  });
});
