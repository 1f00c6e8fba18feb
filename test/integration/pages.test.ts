import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { addModel, apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

/** Pages (issue #29 item 2; docs/pages.md) through the management and public APIs. */

type Err = { error: { code: string } };
interface Page {
  instance_id: string;
  translation_group_id: string;
  slug: string | null;
  current_version_id: string;
  parent_id: string | null;
  path: string | null;
  fields: Record<string, unknown>;
  created?: boolean;
  replayed?: boolean;
}
interface Tree {
  data: { id: string; slug: string; title: string; path: string; parent_id: string | null; locale: string }[];
}
interface Resolved {
  data: { id: string; slug: string; fields: Record<string, unknown> };
  page: { path: string; parent_id: string | null; breadcrumbs: { id: string; title: string; path: string }[] };
}

async function pageModel(s: SeededSite) {
  return addModel(s.ctx(), {
    slug: "page",
    name: "Page",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "long_text" },
      { key: "parent", label: "Parent page", type: "relation", relation: "many_to_one", hierarchy: true },
    ],
  });
}

const save = (token: string, body: unknown, key = newKey()) => manage<Page>(token, "POST", "/pages", { key, body });

describe("pages", () => {
  it("are created and saved in one write each, nest under parents with computed paths, and replay as created: false", async () => {
    const s = await seedSite();
    await pageModel(s);
    // A page editor's credential: pages:write alone creates and saves pages.
    const editor = await credential(s, ["content:read", "pages:write"]);

    const key = newKey();
    const about = await save(editor, { slug: "about", fields: { title: "About" } }, key);
    expect(about.status, JSON.stringify(about.body)).toBe(201);
    expect(about.body).toMatchObject({ created: true, slug: "about", path: "/about", parent_id: null, fields: { title: "About" } });
    // The same request again with its key: answered from the first, saying it created nothing now.
    const replay = await save(editor, { slug: "about", fields: { title: "About" } }, key);
    expect([replay.status, replay.body.created, replay.body.replayed, replay.body.instance_id]).toEqual([200, false, true, about.body.instance_id]);
    expect((await save(editor, { slug: "about", fields: { title: "Other" } }, key)).body).toMatchObject({ error: { code: "idempotency_key_reused" } });

    const team = await save(editor, { slug: "team", parent_id: about.body.instance_id, fields: { title: "Team" } });
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({ created: true, path: "/about/team", parent_id: about.body.translation_group_id });

    const edited = await save(editor, { id: team.body.instance_id, expected_version_id: team.body.current_version_id, fields: { body: "Who we are" } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ created: false, path: "/about/team", fields: { title: "Team", body: "Who we are" } });
    // Saved over a version that is no longer the draft: refused, nothing written.
    expect((await save(editor, { id: team.body.instance_id, expected_version_id: team.body.current_version_id, fields: { body: "x" } })).body).toMatchObject({ error: { code: "version_conflict" } });
    // A parent link that would loop is refused.
    const loop = await save(editor, { id: about.body.instance_id, parent_id: team.body.instance_id });
    expect([loop.status, (loop.body as unknown as Err).error.code]).toEqual([422, "relation_hierarchy_cycle"]);

    const listed = await manage<{ data: Page[] }>(editor, "GET", "/pages");
    expect(listed.body.data.map((p) => [p.path, p.parent_id])).toEqual([["/about", null], ["/about/team", about.body.translation_group_id]]);
    const one = await manage<Page>(editor, "GET", `/pages/${team.body.instance_id}`);
    expect(one.body).toMatchObject({ path: "/about/team", fields: { body: "Who we are" } });

    // Moved to the top: its path follows.
    const moved = await save(editor, { id: team.body.instance_id, parent_id: null });
    expect(moved.body).toMatchObject({ created: false, path: "/team", parent_id: null });
  });

  it("refuses what is not a page, a site without a page model, and callers without pages:write", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const missing = await save(token, { fields: { title: "Home" } });
    expect([missing.status, (missing.body as unknown as Err).error.code]).toEqual([404, "page_model_missing"]);
    expect((await manage<Err>(token, "GET", "/pages")).body.error.code).toBe("page_model_missing");

    await pageModel(s);
    const post = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Post" } }));
    const notPage = await save(token, { id: post.instance_id, fields: { title: "x" } });
    expect([notPage.status, (notPage.body as unknown as Err).error.code]).toEqual([404, "not_found"]);
    expect((await manage<Err>(token, "GET", `/pages/${post.instance_id}`)).status).toBe(404);
    const reader = await credential(s, ["content:read", "content:write"]);
    expect((await save(reader, { fields: { title: "Home" } })).body).toMatchObject({ error: { code: "insufficient_scope" } });
    const bad = await save(token, { fields: { title: "Home" }, colour: "red" });
    expect([bad.status, (bad.body as unknown as Err).error.code]).toEqual([400, "invalid_request"]);
    expect((await manage<{ data: Page[] }>(token, "GET", "/pages")).body.data).toEqual([]);
    // A page keeps its language; the parent is given once.
    const home = (await save(token, { slug: "home", fields: { title: "Home" } })).body;
    expect((await save(token, { id: home.instance_id, lang: "fr", fields: { title: "Accueil" } })).body).toMatchObject({ error: { code: "invalid_request" } });
    expect((await save(token, { slug: "x", parent_id: home.instance_id, fields: { title: "X", parent: home.instance_id } })).body).toMatchObject({ error: { code: "invalid_request" } });
    expect((await manage<{ data: Page[] }>(token, "GET", "/pages")).body.data.map((p) => p.path)).toEqual(["/home"]);
  });

  it("are served on the site host by path with breadcrumbs; a page under an unpublished parent is not served", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    await pageModel(s);
    const token = await credential(s);
    const about = (await save(token, { slug: "about", fields: { title: "About" } })).body;
    const team = (await save(token, { slug: "team", parent_id: about.instance_id, fields: { title: "Team" } })).body;
    const draft = (await save(token, { slug: "soon", parent_id: about.instance_id, fields: { title: "Soon" } })).body;
    for (const page of [about, team]) await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: page.instance_id }));

    const tree = await publicGet<Tree>(s.host, "/v1/_pages");
    expect(tree.status).toBe(200);
    expect(tree.body.data.map((p) => [p.path, p.title])).toEqual([["/about", "About"], ["/about/team", "Team"]]);
    const page = await publicGet<Resolved>(s.host, "/v1/_pages/resolve?path=/about/team");
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data).toMatchObject({ id: team.instance_id, slug: "team" });
    expect(page.body.page).toEqual({ path: "/about/team", parent_id: about.translation_group_id, breadcrumbs: [{ id: about.instance_id, title: "About", path: "/about" }] });
    // French falls back to English (the site's chain) for pages without a French version.
    expect((await publicGet<Tree>(s.host, "/v1/_pages?locale=fr")).body.data.map((p) => [p.path, p.locale])).toEqual([["/about", "en"], ["/about/team", "en"]]);

    expect((await publicGet(s.host, `/v1/_pages/resolve?path=/about/soon`)).status).toBe(404);
    expect((await publicGet(s.host, "/v1/_pages/resolve?path=about")).status).toBe(400);
    expect((await publicGet(s.host, "/v1/_pages/resolve?path=/about/")).status).toBe(400);
    expect(draft.path).toBe("/about/soon");

    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: about.instance_id }));
    expect((await publicGet<Tree>(s.host, "/v1/_pages")).body.data).toEqual([]);
    expect((await publicGet(s.host, "/v1/_pages/resolve?path=/about/team")).status).toBe(404);
  });
});
