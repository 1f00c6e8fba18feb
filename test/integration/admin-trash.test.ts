import { describe, expect, it } from "vitest";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/** The Trash screen's read (GET /api/trash, schema/admin-trash.ts; docs/admin-ui-trash.md). */
type Item = {
  instance_id: string;
  model_id: string;
  model_name: string;
  lang: string;
  label: string | null;
  trashed_at: string;
  purge_at: string;
  trashed_by: { surface: string; person_id: string | null } | null;
  can_delete: boolean;
  refusal: string | null;
};
type Page = { retention_days: number; models: { id: string; name: string }[]; data: Item[]; next_cursor: string | null };
type Created = { instance_id: string };
const DAY_MS = 24 * 60 * 60 * 1000;

describe("GET /api/trash (the admin's Trash screen)", () => {
  it("lists Trash across models newest first, with the purge date, who trashed it and whether you may restore it", async () => {
    // The site shortens its window to 7 days (spec 3: trash_days may only shorten 30).
    const s = await seedSite({ settings: { retention: { trash_days: 7 } } });
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    const article = await manage<Created>(token, "POST", "/entries", { body: { model_id: models.article.id, fields: { title: "Old article" } } });
    const kept = await manage<Created>(token, "POST", "/entries", { body: { model_id: models.article.id, fields: { title: "Kept article" } } });
    const note = await manage<Created>(token, "POST", "/entries", { body: { model_id: models.note.id, fields: { title: "Old note" } } });
    expect([article.status, kept.status, note.status]).toEqual([201, 201, 201]);
    // One through a management credential, one from the admin (a person's session).
    expect((await manage(token, "POST", `/entries/${article.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const admin = await signIn(`${s.site.slug}@example.test`);
    const trashed = await adminCall(admin, "POST", `/api/v1/entries/${note.body.instance_id}/trash`, { siteId: s.site.id, body: {}, headers: { "idempotency-key": `trash-${note.body.instance_id}` } });
    expect(trashed.status).toBe(200);

    const all = await adminCall<Page>(admin, "GET", "/api/trash", { siteId: s.site.id });
    expect(all.status).toBe(200);
    expect(all.body.retention_days).toBe(7);
    expect(all.body.models.map((m) => m.id).sort()).toEqual(Object.values(models).map((m) => m.id).sort());
    // Newest first; the kept article is not in Trash.
    expect(all.body.data.map((i) => i.instance_id)).toEqual([note.body.instance_id, article.body.instance_id]);
    const [first, second] = all.body.data;
    expect(first).toMatchObject({ model_id: models.note.id, model_name: models.note.name, lang: "en", label: "Old note", trashed_by: { surface: "admin", person_id: s.adminId }, can_delete: true, refusal: null });
    expect(second).toMatchObject({ model_id: models.article.id, label: "Old article", trashed_by: { surface: "credential", person_id: s.adminId }, can_delete: true });
    for (const item of all.body.data) expect(Date.parse(item.purge_at) - Date.parse(item.trashed_at)).toBe(7 * DAY_MS);

    // One model (the screen's model picker), and pages.
    const articles = await adminCall<Page>(admin, "GET", `/api/trash?model_id=${models.article.id}`, { siteId: s.site.id });
    expect(articles.body.data.map((i) => i.instance_id)).toEqual([article.body.instance_id]);
    const one = await adminCall<Page>(admin, "GET", "/api/trash?limit=1", { siteId: s.site.id });
    expect(one.body.data.map((i) => i.instance_id)).toEqual([note.body.instance_id]);
    expect(one.body.next_cursor).not.toBeNull();
    const next = await adminCall<Page>(admin, "GET", `/api/trash?limit=1&cursor=${encodeURIComponent(one.body.next_cursor ?? "")}`, { siteId: s.site.id });
    expect(next.body.data.map((i) => i.instance_id)).toEqual([article.body.instance_id]);
    expect(next.body.next_cursor).toBeNull();

    // Restored: it leaves the Trash list.
    expect((await manage(token, "POST", `/entries/${article.body.instance_id}/restore`, { body: {} })).status).toBe(200);
    const after = await adminCall<Page>(admin, "GET", "/api/trash", { siteId: s.site.id });
    expect(after.body.data.map((i) => i.instance_id)).toEqual([note.body.instance_id]);

    // Hostile input: 400 with nothing read.
    expect((await adminCall(admin, "GET", "/api/trash?cursor=nonsense", { siteId: s.site.id })).status).toBe(400);
    expect((await adminCall(admin, "GET", "/api/trash?limit=0", { siteId: s.site.id })).status).toBe(400);
    expect((await adminCall(admin, "GET", "/api/trash?other=1", { siteId: s.site.id })).status).toBe(400);
  });

  it("shows a reader without delete permission the Trash with restore refused in words", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    const note = await manage<Created>(token, "POST", "/entries", { body: { model_id: models.note.id, fields: { title: "Someone's note" } } });
    expect((await manage(token, "POST", `/entries/${note.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const viewer = await s.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const page = await adminCall<Page>(session, "GET", "/api/trash", { siteId: s.site.id });
    expect(page.status).toBe(200);
    expect(page.body.retention_days).toBe(30);
    const [item] = page.body.data;
    expect(item).toMatchObject({ instance_id: note.body.instance_id, can_delete: false });
    expect(item?.refusal).toMatch(/delete permission/);
    // Without a session: 401, nothing listed.
    expect((await adminCall(undefined, "GET", "/api/trash", { siteId: s.site.id })).status).toBe(401);
  });
});
