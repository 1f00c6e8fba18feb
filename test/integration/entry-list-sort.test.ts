import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ENTRY_SORTS, type EntrySort } from "../../schema/entry-sorts";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { addLanguage, createEntry, publishEntry, saveDraft, type EntryView } from "../../shared/services/lifecycle";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";

/**
 * The entry list's server-side sort and "Updated by" (issue #30 item 10, docs/admin-ui-lists.md):
 * every sort in both directions over the whole list, pages joined equal to the whole, a cursor
 * bound to its sort, hostile values refused; the last writer of each entry by name.
 */

type Writer = { kind: string; person_id: string | null; name: string | null } | null;
type Row = EntryView & { updated_by: Writer };
type List = { data: Row[]; page: { next_cursor: string | null } };
type Err = { error: { code: string } };

/** A site with seven article languages: mixed-case and equal titles, two owners, three states, two languages. */
async function setup() {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  const editor = await s.person("editor");
  await env.DB.prepare("UPDATE persons SET name = ? WHERE id = ?").bind("Beatrix Editor", editor.id).run();
  await env.DB.prepare("UPDATE persons SET name = ? WHERE id = ?").bind("Zoe Admin", s.adminId).run();
  let n = 0;
  const make = (actor = s.admin, title: string) => apply(s.ctx(actor), createEntry(s.ctx(actor), { model_id: article.id, lang: "en", slug: `item-${(n += 1)}`, fields: { title } }));
  const apple = await make(s.admin, "apple");
  await make(editor, "Banana");
  await make(s.admin, "banana");
  const cherry = await make(editor, `O'Brien "cherry" %_`);
  await make(s.admin, "Date");
  await apply(s.ctx(), publishEntry(s.ctx(), { instance_id: apple.instance_id }));
  await apply(s.ctx(editor), addLanguage(s.ctx(editor), { instance_id: cherry.instance_id, lang: "fr", fields: { title: "Cerise" } }));
  const fig = await make(editor, "fig");
  // A later save moves "fig"'s updated_at past everything else's.
  await apply(s.ctx(editor), saveDraft(s.ctx(editor), { instance_id: fig.instance_id, expected_version_id: fig.current_version_id ?? "", fields: { title: "Fig" } }));
  return { s, article, editor };
}

/** The order the list must have: the key of each sort, ties by instance id in the same direction. */
function expected(rows: readonly Row[], sort: EntrySort, owners: Map<string, string>): string[] {
  const key: Record<string, (r: Row) => string> = {
    title: (r) => (r.label ?? r.slug ?? "").toLowerCase(),
    created: (r) => r.created_at,
    updated: (r) => r.updated_at,
    state: (r) => r.workflow.state,
    lang: (r) => r.lang,
    owner: (r) => (r.owner_id ? (owners.get(r.owner_id) ?? "") : "").toLowerCase(),
    updated_by: (r) => (r.updated_by?.name ?? "").toLowerCase(),
  };
  const sign = sort.startsWith("-") ? -1 : 1;
  const of = key[sort.replace("-", "")] as (r: Row) => string;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort((a, b) => sign * (cmp(of(a), of(b)) || cmp(a.instance_id, b.instance_id))).map((r) => r.instance_id);
}

describe("listEntries: sort over the whole list", () => {
  it("orders by each column both ways, pages of three join to the whole, and a cursor continues only its sort", async () => {
    const { s, article, editor } = await setup();
    const owners = new Map([[s.adminId, "Zoe Admin"], [editor.id, "Beatrix Editor"]]);
    let token = await credential(s, ["content:read"]);
    const all = await manage<List>(token, "GET", `/entries?model_id=${article.id}&limit=100`);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(7);
    let calls = 1;
    for (const sort of ENTRY_SORTS) {
      // A fresh credential now and then: the test's rate limit counts requests per credential.
      if (calls > 32) [token, calls] = [await credential(s, ["content:read"]), 0];
      const joined: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: List } = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=${encodeURIComponent(sort)}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.status, sort).toBe(200);
        joined.push(...page.body.data.map((r) => r.instance_id));
        cursor = page.body.page.next_cursor;
        calls += 1;
      } while (cursor);
      // The pages joined are the whole list in the order computed here from the unsorted answer.
      expect(joined, `${sort} in pages`).toEqual(expected(all.body.data, sort, owners));
    }
    // Spot checks in words: titles ignore case, the newest save is first by -updated, Beatrix before Zoe.
    const byTitle = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=title&lang=en`);
    expect(byTitle.body.data.map((r) => r.label)).toEqual(expect.arrayContaining(["apple", "Banana", "banana", "Date", "Fig"]));
    expect(byTitle.body.data[0]?.label).toBe("apple");
    expect(byTitle.body.data.at(-1)?.label).toBe(`O'Brien "cherry" %_`);
    const newest = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=-updated&limit=1`);
    expect(newest.body.data[0]?.label).toBe("Fig");
    const byOwner = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=owner&limit=1`);
    expect(byOwner.body.data[0]?.owner_id).toBe(editor.id);
    // "Updated by" by the writer's name: Beatrix (fig, Banana, cherry) before Zoe (apple, banana, Date).
    const byWriter = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=updated_by&limit=1`);
    expect(byWriter.body.data[0]?.updated_by?.name).toBe("Beatrix Editor");
    const byWriterDown = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=-updated_by&limit=1`);
    expect(byWriterDown.body.data[0]?.updated_by?.name).toBe("Zoe Admin");

    // A cursor of one sort does not continue another, nor the unsorted list.
    const first = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=title&limit=2`);
    const next = encodeURIComponent(first.body.page.next_cursor ?? "");
    for (const other of ["&sort=-title", "&sort=updated", ""]) {
      const refused = await manage<Err>(token, "GET", `/entries?model_id=${article.id}${other}&limit=2&cursor=${next}`);
      expect(refused.status, other).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
  });

  it("refuses an unknown or hostile sort with 400 invalid_request", async () => {
    const s = await seedSite();
    const token = await credential(s, ["content:read"]);
    for (const bad of ["bogus", "TITLE", "--title", "title,updated", "title; DROP TABLE entries", "label", "+title", ""]) {
      const res = await manage<Err>(token, "GET", `/entries?sort=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code, bad).toBe("invalid_request");
    }
    const twice = await manage<Err>(token, "GET", "/entries?sort=title&sort=-title");
    expect(twice.status).toBe(400);
  });
});

describe("listEntries: sort by a hidden title", () => {
  it("sorts entries whose title the reader may not read by slug, so the order reveals nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    // By title "Aardvark" would come first; by slug "a-slug" ("Zulu") does.
    const zulu = await apply(s.ctx(), createEntry(s.ctx(), { model_id: article.id, lang: "en", slug: "a-slug", fields: { title: "Zulu" } }));
    const aardvark = await apply(s.ctx(), createEntry(s.ctx(), { model_id: article.id, lang: "en", slug: "z-slug", fields: { title: "Aardvark" } }));
    const token = await credential(s, ["content:read"]);
    const open = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=title`);
    expect(open.body.data.map((r) => r.instance_id)).toEqual([aardvark.instance_id, zulu.instance_id]);
    const summaryId = article.fields.find((f) => f.key === "summary")?.id ?? "";
    await changeAdminRole(s, (p) => ({ ...p, limits: { fields: { [article.id]: { read: [summaryId] } } } }));
    const hidden = await manage<List>(token, "GET", `/entries?model_id=${article.id}&sort=title`);
    expect(hidden.body.data.map((r) => [r.instance_id, r.label])).toEqual([[zulu.instance_id, null], [aardvark.instance_id, null]]);
  });
});

describe("listEntries: updated by", () => {
  it("names the person of the last save, a credential by its name, and never another site's person", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    await env.DB.prepare("UPDATE persons SET name = ? WHERE id = ?").bind("Ada Admin", s.adminId).run();
    const editor = await s.person("editor");
    await env.DB.prepare("UPDATE persons SET name = ? WHERE id = ?").bind("Ben Editor", editor.id).run();
    const adminSession = await signIn(await emailOf(s.adminId));
    const editorSession = await signIn(await emailOf(editor.id), "pw");
    const asPerson = (session: typeof adminSession, method: string, path: string, body?: unknown, key?: string) =>
      adminCall<Row & List & Err>(session, method, `/api/v1${path}`, { siteId: s.site.id, body, headers: key ? { "idempotency-key": key } : {} });

    const created = await asPerson(adminSession, "POST", "/entries", { model_id: article.id, fields: { title: "Shared story" } }, "create-shared");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const listed = async () => (await asPerson(editorSession, "GET", `/entries?model_id=${article.id}&sort=title`)).body.data;
    expect((await listed())[0]?.updated_by).toEqual({ kind: "person", person_id: s.adminId, name: "Ada Admin" });

    // A second person's save makes them the one who updated it.
    const saved = await asPerson(editorSession, "PUT", `/entries/${created.body.instance_id}`, { expected_version_id: created.body.current_version_id, fields: { title: "Shared story, edited" } }, "save-shared");
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await listed())[0]?.updated_by).toEqual({ kind: "person", person_id: editor.id, name: "Ben Editor" });

    // A credential's write shows the credential's name (its creator is the person behind it).
    const sync = await createManagementCredential(s.ctx(), { name: "Nightly sync", scopes: ["content:read", "content:write"] });
    const byCredential = await manage<Row>(sync.token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: saved.body.current_version_id, fields: { title: "Shared story, synced" } } });
    expect(byCredential.status, JSON.stringify(byCredential.body)).toBe(200);
    const afterSync = (await listed())[0]?.updated_by;
    expect(afterSync).toMatchObject({ kind: "credential", person_id: s.adminId, name: "Nightly sync" });

    // A version written by a person of another site (as a copied site's history would be) is not named.
    const other = await seedSite();
    await env.DB.prepare("UPDATE persons SET name = ? WHERE id = ?").bind("Secret Stranger", other.adminId).run();
    await env.DB.prepare("UPDATE versions SET created_by = ?, created_via = NULL WHERE site_id = ? AND id = ?").bind(other.adminId, s.site.id, byCredential.body.current_version_id).run();
    const stranger = (await listed())[0]?.updated_by;
    expect(stranger).toEqual({ kind: "person", person_id: other.adminId, name: null });
    expect(JSON.stringify(await listed())).not.toContain("Secret Stranger");
  });
});
