import { describe, expect, it } from "vitest";
import { adminCall } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { member } from "../helpers/people-api";

/**
 * Issue #30 items 7 and 11 (docs/admin-ui-content.md, docs/recovery-drafts.md): the editor's
 * unsaved text kept while typing (recovery draft reason `unsaved`), and the home dashboard read
 * (`GET /api/dashboard`): the person's drafts, assigned to them, waiting for their review,
 * scheduled this week, recently published — this site's readable entries only, Trash left out.
 */

type Entry = { instance_id: string; current_version_id: string; workflow: { revision: number } };
type Row = { instance_id: string; model_name: string; label: string | null; state: string };
type Dashboard = { my_drafts: Row[]; assigned_to_me: Row[]; waiting_for_review: Row[]; scheduled_this_week: (Row & { action: string; at: string })[]; recently_published: Row[] };

const ids = (rows: readonly Row[]) => rows.map((r) => r.instance_id);

async function site() {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  const token = await credential(s);
  const editor = await member(s, "editor");
  const create = async (title: string) => {
    const made = await manage<Entry>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title } } });
    expect(made.status).toBe(201);
    return made.body;
  };
  return { s, article, token, editor, create };
}

describe("the editor's day: dashboard and unsaved text", () => {
  it("the dashboard lists the person's drafts, assignments, reviews, this week's schedules and recent publications", async () => {
    const f = await site();
    const call = <T>(method: string, path: string, body?: unknown) => adminCall<T>(f.editor.session, method, path, { siteId: f.s.site.id, ...(body === undefined ? {} : { body, headers: { "idempotency-key": newKey() } }) });
    // The editor's own draft (created through the admin bridge: the editor owns it).
    const mine = await call<Entry>("POST", "/api/v1/entries", { model_id: f.article.id, fields: { title: "My own draft" } });
    expect(mine.status).toBe(201);
    // An administrator's entry assigned to the editor; one in review for anyone; one scheduled in two days, one in ten; one published; one in Trash.
    const assigned = await f.create("Assigned to the editor");
    expect((await manage(f.token, "PUT", `/entries/${assigned.instance_id}/assignment`, { body: { assignee_ids: [f.editor.id] } })).status).toBe(200);
    const review = await f.create("Waiting for review");
    expect((await manage(f.token, "POST", `/entries/${review.instance_id}/move`, { body: { to: "in_review", expected_workflow_revision: review.workflow.revision } })).status).toBe(200);
    const soon = await f.create("Goes out this week");
    const later = await f.create("Goes out later");
    const day = 24 * 3600 * 1000;
    expect((await manage(f.token, "POST", "/schedules", { body: { entry_id: soon.instance_id, action: "publish", at: new Date(Date.now() + 2 * day).toISOString() } })).status).toBe(201);
    expect((await manage(f.token, "POST", "/schedules", { body: { entry_id: later.instance_id, action: "publish", at: new Date(Date.now() + 10 * day).toISOString() } })).status).toBe(201);
    const published = await f.create("Just published");
    expect((await manage(f.token, "POST", `/entries/${published.instance_id}/publish`, { body: {} })).status).toBe(200);
    const trashed = await f.create("Assigned but in Trash");
    expect((await manage(f.token, "PUT", `/entries/${trashed.instance_id}/assignment`, { body: { assignee_ids: [f.editor.id] } })).status).toBe(200);
    expect((await manage(f.token, "POST", `/entries/${trashed.instance_id}/trash`, { body: {} })).status).toBe(200);
    // Another site's entry assigned to nobody here never shows.
    const elsewhere = await site();
    await elsewhere.create("Another site's draft");

    const board = await call<Dashboard>("GET", "/api/dashboard");
    expect(board.status).toBe(200);
    expect(ids(board.body.my_drafts)).toEqual([mine.body.instance_id]);
    expect(ids(board.body.assigned_to_me)).toEqual([assigned.instance_id]);
    expect(board.body.assigned_to_me[0]).toMatchObject({ label: "Assigned to the editor", model_name: "Article", state: "draft" });
    expect(ids(board.body.waiting_for_review)).toEqual([review.instance_id]);
    expect(ids(board.body.scheduled_this_week)).toEqual([soon.instance_id]);
    expect(board.body.scheduled_this_week[0]?.action).toBe("publish");
    expect(ids(board.body.recently_published)).toEqual([published.instance_id]);

    // Another editor's board: none of the first editor's drafts or assignments; the unassigned review is theirs to pick up too.
    const other = await member(f.s, "editor");
    const theirs = await adminCall<Dashboard>(other.session, "GET", "/api/dashboard", { siteId: f.s.site.id });
    expect(theirs.body.my_drafts).toEqual([]);
    expect(theirs.body.assigned_to_me).toEqual([]);
    expect(ids(theirs.body.waiting_for_review)).toEqual([review.instance_id]);
    // Without a session: 401; without a site: 400; a site the person is not a member of: 403.
    expect((await adminCall(undefined, "GET", "/api/dashboard", { siteId: f.s.site.id })).status).toBe(401);
    expect((await adminCall(f.editor.session, "GET", "/api/dashboard")).status).toBe(400);
    expect((await adminCall(f.editor.session, "GET", "/api/dashboard", { siteId: elsewhere.s.site.id })).status).toBe(403);
  });

  it("unsaved text is kept as the person's recovery draft with reason unsaved, read back, and dropped", async () => {
    const f = await site();
    const entry = await f.create("Tides");
    const path = `/api/v1/entries/${entry.instance_id}/recovery-draft`;
    const call = <T>(method: string, body?: unknown) => adminCall<T>(f.editor.session, method, path, { siteId: f.s.site.id, ...(body === undefined ? {} : { body }), ...(method === "GET" ? {} : { headers: { "idempotency-key": newKey() } }) });
    const kept = await call<{ reason: string }>("PUT", { values: { title: "Tides, half typed" }, base_version_id: entry.current_version_id, reason: "unsaved" });
    expect(kept.status).toBe(200);
    const back = await call<{ reason: string; values: Record<string, unknown>; base_version_id: string }>("GET");
    expect(back.body).toMatchObject({ reason: "unsaved", values: { title: "Tides, half typed" }, base_version_id: entry.current_version_id });
    // A reason the service does not know is refused, nothing kept over the draft.
    const bad = await call<{ error: { code: string } }>("PUT", { values: { title: "x" }, reason: "autosave" });
    expect(bad.status).toBe(400);
    expect((await call<{ values: Record<string, unknown> }>("GET")).body.values).toEqual({ title: "Tides, half typed" });
    expect((await call("DELETE")).status).toBe(200);
    expect((await call("GET")).status).toBe(404);
  });
});
