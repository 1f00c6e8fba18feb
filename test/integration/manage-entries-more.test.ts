import { describe, expect, it } from "vitest";
import { createEntry, type EntryView } from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite, versionCount } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";

type Err = { error: { code: string; [k: string]: unknown } };
type Listed<T> = { data: T[] };


async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  return { s, token, ...models };
}

describe("management API: labels and field read limits", () => {
  it("answers label null wherever the reader may not read the title field", async () => {
    const { s, token, article, author } = await setup();
    const ann = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    const post = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, slug: "secret", fields: { title: "Secret title", author: ann.body.instance_id } } });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    expect(post.body.label).toBe("Secret title");
    const summaryId = article.fields.find((f) => f.key === "summary")?.id ?? "";
    await changeAdminRole(s, (p) => ({ ...p, limits: { fields: { [article.id]: { read: [summaryId] } } } }));

    const read = await manage<EntryView>(token, "GET", `/entries/${post.body.instance_id}`);
    expect(read.body.label).toBeNull();
    const list = await manage<Listed<EntryView>>(token, "GET", `/entries?model_id=${article.id}`);
    expect(list.body.data.map((e) => e.label)).toEqual([null]);
    const versions = await manage<Listed<{ label: string | null }>>(token, "GET", `/entries/${post.body.instance_id}/versions`);
    expect(versions.body.data.map((x) => x.label)).toEqual([null]);
    const dependents = await manage<Listed<{ instance_id: string; label: string | null; published: boolean }>>(token, "GET", `/entries/${ann.body.instance_id}/dependents`);
    expect(dependents.body.data).toEqual([{ instance_id: post.body.instance_id, model_id: article.id, lang: "en", label: null, published: false }]);
    expect(JSON.stringify([read.body, list.body, versions.body, dependents.body])).not.toContain("Secret title");
    // The author model's title stays readable.
    expect((await manage<EntryView>(token, "GET", `/entries/${ann.body.instance_id}`)).body.label).toBe("Ann");
  });
});

describe("management API: entry routes without other tests", () => {
  it("lists dependents: entries whose current or published version links to the item", async () => {
    const { token, article, author } = await setup();
    const ann = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    const post = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Links", author: ann.body.instance_id } } });
    expect((await manage<EntryView>(token, "POST", `/entries/${ann.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const published = await manage<EntryView>(token, "POST", `/entries/${post.body.instance_id}/publish`, { body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const dependents = await manage<Listed<unknown>>(token, "GET", `/entries/${ann.body.instance_id}/dependents`);
    expect(dependents.status).toBe(200);
    expect(dependents.body.data).toEqual([{ instance_id: post.body.instance_id, model_id: article.id, lang: "en", label: "Links", published: true }]);
    expect((await manage<Listed<unknown>>(token, "GET", `/entries/${post.body.instance_id}/dependents`)).body.data).toEqual([]);
    expect((await manage<Err>(token, "GET", "/entries/ent_nope/dependents")).status).toBe(404);
  });

  it("moves an entry through a workflow step with workflow:move; a stale workflow revision is refused", async () => {
    const { s, token, author } = await setup();
    const ann = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    const noScope = await credential(s, ["content:write"]);
    const scoped = await manage<Err>(noScope, "POST", `/entries/${ann.body.instance_id}/move`, { body: { to: "in_review", expected_workflow_revision: 0 } });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toMatchObject({ code: "insufficient_scope", scope: "workflow:move" });
    const moved = await manage<EntryView>(token, "POST", `/entries/${ann.body.instance_id}/move`, { body: { to: "in_review", expected_workflow_revision: ann.body.workflow.revision } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.workflow.state).toBe("in_review");
    const stale = await manage<Err>(token, "POST", `/entries/${ann.body.instance_id}/move`, { body: { to: "draft", expected_workflow_revision: ann.body.workflow.revision } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("workflow_conflict");
    expect((await manage<EntryView>(token, "GET", `/entries/${ann.body.instance_id}`)).body.workflow.state).toBe("in_review");
  });

  it("restores an old version as the draft; needs content:write", async () => {
    const { s, token, author } = await setup();
    const ann = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann", bio: "First" } } });
    const saved = await manage<EntryView>(token, "PUT", `/entries/${ann.body.instance_id}`, { body: { expected_version_id: ann.body.current_version_id, fields: { bio: "Second" } } });
    const path = `/entries/${ann.body.instance_id}/versions/${ann.body.current_version_id}/restore`;
    const readOnly = await credential(s, ["content:read"]);
    const refused = await manage<Err>(readOnly, "POST", path, { body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "insufficient_scope", scope: "content:write" });
    expect(await versionCount(ann.body.instance_id)).toBe(2);
    const restored = await manage<EntryView>(token, "POST", path, { body: { expected_version_id: saved.body.current_version_id } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.fields).toMatchObject({ name: "Ann", bio: "First" });
    expect(await versionCount(ann.body.instance_id)).toBe(3);
  });

  it("update:own: a credential whose creator may update only own entries gets not_owner on others", async () => {
    const { s, token, author } = await setup();
    const editor = await s.person("editor");
    const theirs = await apply(s.ctx(editor), createEntry(s.ctx(editor), { model_id: author.id, fields: { name: "Theirs" } }));
    const mine = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Mine" } } });
    await changeAdminRole(s, (p) => ({ ...p, models: { "*": ["read", "create", "update:own"] } }));
    const refused = await manage<Err>(token, "PUT", `/entries/${theirs.instance_id}`, { body: { expected_version_id: theirs.current_version_id, fields: { bio: "no" } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("not_owner");
    expect(await versionCount(theirs.instance_id)).toBe(1);
    const own = await manage<EntryView>(token, "PUT", `/entries/${mine.body.instance_id}`, { body: { expected_version_id: mine.body.current_version_id, fields: { bio: "yes" } } });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it("publish outside the creator's publish languages is locale_denied, nothing published", async () => {
    const { s, token, article } = await setup();
    const post = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "English" } } });
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { publish: ["fr"] } } }));
    const refused = await manage<Err>(token, "POST", `/entries/${post.body.instance_id}/publish`, { body: { expected_version_id: post.body.current_version_id } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "locale_denied", lang: "en" });
    const read = await manage<EntryView>(token, "GET", `/entries/${post.body.instance_id}`);
    expect(read.body.published_version_id).toBeNull();
  });

  it("a refused write frees its key: the corrected retry with the same key runs", async () => {
    const { token, author } = await setup();
    const ann = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    const key = newKey();
    const stale = await manage<Err>(token, "PUT", `/entries/${ann.body.instance_id}`, { key, body: { expected_version_id: "ver_stale", fields: { bio: "B" } } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    const retried = await manage<EntryView & { replayed?: boolean }>(token, "PUT", `/entries/${ann.body.instance_id}`, { key, body: { expected_version_id: ann.body.current_version_id, fields: { bio: "B" } } });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.replayed).toBeUndefined();
    expect(retried.body.fields).toMatchObject({ bio: "B" });
  });
});
