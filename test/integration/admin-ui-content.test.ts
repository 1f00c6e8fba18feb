import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { adminCall, emailOf, roleId, signIn } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";

/**
 * What the admin UI's content screens need from the service (docs/admin-ui-content.md): the
 * entries list searched by title (`q`) and by exact slug (`slug`, the editor's availability
 * check), and the person's effective permissions (`GET /api/permissions`, read-only fields).
 */

type Err = { error: { code: string; [k: string]: unknown } };
type Page = { data: EntryView[]; page: { has_more: boolean; next_cursor: string | null } };
type Permissions = {
  role: { slug: string };
  person_id: string;
  permissions: { models: Record<string, string[]> };
  models: { model_id: string; operations: string[]; readable_field_ids: string[]; writable_field_ids: string[] }[];
  languages: Record<string, string[]>;
};

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  const create = async (title: string, slug?: string, lang?: string) => {
    const made = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, ...(slug ? { slug } : {}), ...(lang ? { lang } : {}), fields: { title } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body;
  };
  return { s, token, ...models, create };
}

describe("GET /entries?q=: search by title", () => {
  it("finds entries whose label contains the text, ignoring ASCII case, with % and _ taken literally", async () => {
    const { token, article, create } = await setup();
    const tide = await create("Tide tables for May");
    const pools = await create("Rock pools at low TIDE");
    await create("Sea glass");
    const percent = await create("100% cotton_sails");
    const found = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&q=tide`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((e) => e.instance_id).sort()).toEqual([tide.instance_id, pools.instance_id].sort());
    // LIKE wildcards are plain characters: "%" finds only the title holding one, "_" likewise.
    expect((await manage<Page>(token, "GET", `/entries?model_id=${article.id}&q=${encodeURIComponent("%")}`)).body.data.map((e) => e.instance_id)).toEqual([percent.instance_id]);
    expect((await manage<Page>(token, "GET", `/entries?model_id=${article.id}&q=_`)).body.data.map((e) => e.instance_id)).toEqual([percent.instance_id]);
    expect((await manage<Page>(token, "GET", `/entries?q=${encodeURIComponent("<img src=x>")}`)).body.data).toEqual([]);
  });

  it("pages a search with its own cursor; a cursor of another search is refused", async () => {
    const { token, article, create } = await setup();
    for (const n of [1, 2, 3]) await create(`Harbour note ${n}`);
    await create("Something else");
    const first = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&q=harbour&limit=2`);
    expect(first.body.data.length).toBe(2);
    expect(first.body.page.has_more).toBe(true);
    const cursor = encodeURIComponent(first.body.page.next_cursor ?? "");
    const second = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&q=harbour&limit=2&cursor=${cursor}`);
    expect(second.body.data.map((e) => e.label)).toEqual(["Harbour note 1"]);
    const other = await manage<Err>(token, "GET", `/entries?model_id=${article.id}&q=note&limit=2&cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe("invalid_request");
  });

  it("refuses an empty or over-long q, and leaves out models whose title the reader may not read", async () => {
    const { s, token, article, create } = await setup();
    await create("Secret harbour");
    expect((await manage<Err>(token, "GET", "/entries?q=")).body.error.code).toBe("invalid_request");
    expect((await manage<Err>(token, "GET", `/entries?q=${"a".repeat(201)}`)).status).toBe(400);
    const summaryId = article.fields.find((f) => f.key === "summary")?.id ?? "";
    await changeAdminRole(s, (p) => ({ ...p, limits: { fields: { [article.id]: { read: [summaryId] } } } }));
    // The label is hidden from this reader, so searching it must not tell whether it matches.
    const hidden = await manage<Page>(token, "GET", `/entries?q=secret`);
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual([]);
    expect((await manage<Page>(token, "GET", `/entries?model_id=${article.id}`)).body.data.length).toBe(1);
  });
});

describe("GET /entries?slug=: the slug availability check", () => {
  it("answers the entry at exactly that slug of the model and language, and nothing for a free slug", async () => {
    const { token, article, author, create } = await setup();
    const taken = await create("Taken", "harbour-lights");
    await create("French", "harbour-lights-fr", "fr");
    const hit = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&lang=en&slug=harbour-lights`);
    expect(hit.body.data.map((e) => e.instance_id)).toEqual([taken.instance_id]);
    expect((await manage<Page>(token, "GET", `/entries?model_id=${article.id}&lang=en&slug=harbour`)).body.data).toEqual([]);
    expect((await manage<Page>(token, "GET", `/entries?model_id=${article.id}&lang=fr&slug=harbour-lights`)).body.data).toEqual([]);
    expect((await manage<Page>(token, "GET", `/entries?model_id=${author.id}&lang=en&slug=harbour-lights`)).body.data).toEqual([]);
    expect((await manage<Err>(token, "GET", `/entries?slug=${"a".repeat(201)}`)).status).toBe(400);
  });
});

describe("GET /entries?translation_group_id=: an item's languages", () => {
  it("answers the item's languages outside Trash, the trashed ones only when asked (state=trash), and nothing of other items", async () => {
    const { token, article, create } = await setup();
    const en = await create("Harbour");
    await create("Other");
    const fr = await manage<EntryView>(token, "POST", `/entries/${en.instance_id}/languages`, { body: { lang: "fr", fields: { title: "Port" } } });
    expect(fr.status, JSON.stringify(fr.body)).toBe(201);
    expect((await manage(token, "POST", `/entries/${fr.body.instance_id}/trash`, { body: { language_only: true } })).status).toBe(200);
    const group = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&translation_group_id=${en.translation_group_id}`);
    expect(group.body.data.map((e) => e.lang).sort()).toEqual(["en"]);
    const trashed = await manage<Page>(token, "GET", `/entries?model_id=${article.id}&translation_group_id=${en.translation_group_id}&state=trash`);
    expect(trashed.body.data.map((e) => e.lang)).toEqual(["fr"]);
    expect((await manage<Page>(token, "GET", `/entries?translation_group_id=grp_none`)).body.data).toEqual([]);
  });
});

describe("GET /api/permissions", () => {
  it("answers the admin's full set: every operation and field of each model, every language", async () => {
    const { s, article } = await setup();
    const session = await signIn(await emailOf(s.adminId));
    const res = await adminCall<Permissions>(session, "GET", "/api/permissions", { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body.role.slug).toBe("admin");
    expect(res.body.person_id).toBe(s.adminId);
    const model = res.body.models.find((m) => m.model_id === article.id);
    expect(model?.operations).toContain("update");
    expect(model?.writable_field_ids).toEqual(article.fields.map((f) => f.id));
    expect(res.body.languages.update).toEqual(["en", "fr"]);
  });

  it("narrows with the role: field and language limits, update:own for authors, read only for viewers; re-read on every request", async () => {
    const { s, article } = await setup();
    const titleId = article.fields.find((f) => f.key === "title")?.id ?? "";
    const author = await s.person("author");
    const authorSession = await signIn(await emailOf(author.id), "pw");
    const asAuthor = await adminCall<Permissions>(authorSession, "GET", "/api/permissions", { siteId: s.site.id });
    expect(asAuthor.body.models.find((m) => m.model_id === article.id)?.operations).toEqual(["read", "create", "update:own"]);
    const viewer = await s.person("viewer");
    const viewerSession = await signIn(await emailOf(viewer.id), "pw");
    const asViewer = await adminCall<Permissions>(viewerSession, "GET", "/api/permissions", { siteId: s.site.id });
    expect(asViewer.body.models.find((m) => m.model_id === article.id)?.operations).toEqual(["read"]);

    // The viewer's role is narrowed to writing the title in French only: the next answer says so.
    const viewerRole = await roleId(s.site.id, "viewer");
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?")
      .bind(JSON.stringify({ models: { "*": ["read", "update"] }, system: [], limits: { fields: { [article.id]: { write: [titleId] } }, languages: { update: ["fr"] } } }), viewerRole)
      .run();
    const narrowed = await adminCall<Permissions>(viewerSession, "GET", "/api/permissions", { siteId: s.site.id });
    const m = narrowed.body.models.find((x) => x.model_id === article.id);
    expect(m?.writable_field_ids).toEqual([titleId]);
    expect(m?.readable_field_ids).toEqual(article.fields.map((f) => f.id));
    expect(narrowed.body.languages.update).toEqual(["fr"]);
    expect(narrowed.body.languages.read).toEqual(["en", "fr"]);
  });

  it("lists only models the role may read", async () => {
    const { s, article, note } = await setup();
    const viewer = await s.person("viewer");
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?")
      .bind(JSON.stringify({ models: { [article.id]: ["read"] }, system: [] }), await roleId(s.site.id, "viewer"))
      .run();
    const session = await signIn(await emailOf(viewer.id), "pw");
    const res = await adminCall<Permissions>(session, "GET", "/api/permissions", { siteId: s.site.id });
    expect(res.body.models.map((m) => m.model_id)).toEqual([article.id]);
    expect(res.body.models.some((m) => m.model_id === note.id)).toBe(false);
  });

  it("needs a session, the site header and a membership; another site is refused alike", async () => {
    const { s } = await setup();
    const other = await seedSite();
    expect((await adminCall<Err>(undefined, "GET", "/api/permissions", { siteId: s.site.id })).status).toBe(401);
    const session = await signIn(await emailOf(s.adminId));
    const noHeader = await adminCall<Err>(session, "GET", "/api/permissions");
    expect(noHeader.status).toBe(400);
    const foreign = await adminCall<Err>(session, "GET", "/api/permissions", { siteId: other.site.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    const forged = await adminCall<Err>(session, "GET", "/api/permissions", { siteId: "site_<script>" });
    expect(forged.status).toBe(403);
  });
});
