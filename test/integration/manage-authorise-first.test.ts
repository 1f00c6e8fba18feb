import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import type { EntryView } from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { addModel, apply, blogModels, seedSite, versionCount } from "../helpers/fixtures";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";

/**
 * Authorise first, then reveal (issue #9, items 2 and 4): a refusal that tells something about
 * content (an existing entry's id, the current version, a language that exists, a lease) is given
 * only to a caller the permission check let through; a caller who may not read the entry gets the
 * same 404 `GET /entries/{id}` answers.
 */

type Err = { error: { code: string; [k: string]: unknown } };

const groupSize = async (groupId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE translation_group_id = ?").bind(groupId).first<{ n: number }>())?.n ?? -1;

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const token = await credential(s);
  const source = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, slug: "tide", fields: { title: "Secret title", summary: "Secret summary" } }));
  return { s, token, source, ...models };
}

describe("POST /entries/{id}/languages authorises reading the source first (spec 2, Authority)", () => {
  it("answers 404 not_found, writing nothing, to a caller who may not read the source language", async () => {
    const { s, token, source } = await setup();
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { read: ["fr"] } } }));
    expect((await manage<Err>(token, "GET", `/entries/${source.instance_id}`)).status).toBe(404);

    const added = await manage<Err>(token, "POST", `/entries/${source.instance_id}/languages`, { body: { lang: "fr", slug: "maree" } });
    expect(added.status).toBe(404);
    expect(added.body.error.code).toBe("not_found");
    expect(JSON.stringify(added.body)).not.toContain("Secret");
    expect(await groupSize(source.translation_group_id)).toBe(1);
  });

  it("answers only what the caller may read: no fields of a language it may create but not read", async () => {
    const { s, token, source } = await setup();
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { read: ["en"] } } }));
    const added = await manage<EntryView>(token, "POST", `/entries/${source.instance_id}/languages`, { body: { lang: "fr", slug: "maree" } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.fields).toEqual({});
    expect(added.body.label).toBeNull();
    expect(JSON.stringify(added.body)).not.toContain("Secret");
  });

  it("answers only the fields the caller may read of the copied draft", async () => {
    const { s, token, source, article } = await setup();
    const titleId = article.fields.find((f) => f.key === "title")?.id ?? "";
    await changeAdminRole(s, (p) => ({ ...p, limits: { fields: { [article.id]: { read: [titleId] } } } }));
    const added = await manage<EntryView>(token, "POST", `/entries/${source.instance_id}/languages`, { body: { lang: "fr", slug: "maree", fields: { title: "Marée" } } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(Object.keys(added.body.fields)).toEqual(["title"]);
    expect(JSON.stringify(added.body)).not.toContain("Secret summary");
  });

  it("gives locale_exists and language_in_trash only after the create permission is granted", async () => {
    const { s, token, source } = await setup();
    const fr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: source.instance_id, lang: "fr", slug: "maree" }));
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { create: ["en"] } } }));
    const existing = await manage<Err>(token, "POST", `/entries/${source.instance_id}/languages`, { body: { lang: "fr", slug: "autre" } });
    expect(existing.status).toBe(403);
    expect(existing.body.error.code).toBe("locale_denied");
    expect(JSON.stringify(existing.body)).not.toContain(fr.instance_id);

    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: fr.instance_id, language_only: true }));
    const trashed = await manage<Err>(token, "POST", `/entries/${source.instance_id}/languages`, { body: { lang: "fr", slug: "autre" } });
    expect(trashed.body.error.code).toBe("locale_denied");
    expect(JSON.stringify(trashed.body)).not.toContain(fr.instance_id);
  });
});

describe("management writes authorise before they reveal (issue #9 item 4)", () => {
  it("POST /entries of a single model the credential does not hold: 404, never the existing entry's id", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const home = await addModel(s.ctx(), { slug: "homepage", name: "Homepage", kind: "single", fields: [{ key: "headline", label: "Headline", type: "text" }] });
    const existing = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: home.id, fields: { headline: "Hi" } }));
    const authorsOnly = await credential(s, ["content:read", "content:write"], [author.id]);
    const refused = await manage<Err>(authorsOnly, "POST", "/entries", { body: { model_id: home.id, fields: { headline: "Mine" } } });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("not_found");
    expect(JSON.stringify(refused.body)).not.toContain(existing.instance_id);
  });

  it("POST /entries of a single model to a caller without create: missing_permission, not single_entry_exists", async () => {
    const s = await seedSite();
    const home = await addModel(s.ctx(), { slug: "homepage", name: "Homepage", kind: "single", fields: [{ key: "headline", label: "Headline", type: "text" }] });
    const existing = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: home.id, fields: { headline: "Hi" } }));
    const token = await credential(s);
    await changeAdminRole(s, (p) => ({ ...p, models: { "*": ["read", "update"] } }));
    const refused = await manage<Err>(token, "POST", "/entries", { body: { model_id: home.id, fields: { headline: "Mine" } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect(JSON.stringify(refused.body)).not.toContain(existing.instance_id);
  });

  it("a stale save by a caller without update is missing_permission, without the current version", async () => {
    const { s, token, source } = await setup();
    const saved = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: source.instance_id, expected_version_id: source.current_version_id ?? "", fields: { summary: "newer" } }));
    await changeAdminRole(s, (p) => ({ ...p, models: { "*": ["read", "create"] } }));
    const stale = await manage<Err>(token, "PUT", `/entries/${source.instance_id}`, { body: { expected_version_id: source.current_version_id, fields: { title: "Mine" } } });
    expect(stale.status).toBe(403);
    expect(stale.body.error.code).toBe("missing_permission");
    expect(JSON.stringify(stale.body)).not.toContain(saved.current_version_id ?? "?");
    expect(await versionCount(source.instance_id)).toBe(2);
  });

  it("a stale save by a credential without the model is 404, without the current version", async () => {
    const { s, source, author } = await setup();
    const authorsOnly = await credential(s, ["content:read", "content:write"], [author.id]);
    const stale = await manage<Err>(authorsOnly, "PUT", `/entries/${source.instance_id}`, { body: { expected_version_id: "ver_old", fields: { title: "Mine" } } });
    expect(stale.status).toBe(404);
    expect(JSON.stringify(stale.body)).not.toContain(source.current_version_id ?? "?");
  });

  it("moves, Trash and restores of entries the credential may not read are 404; without the permission 403 before the state", async () => {
    const { s, token, source, author } = await setup();
    const authorsOnly = await credential(s, ["content:read", "workflow:move", "content:trash"], [author.id]);
    expect((await manage<Err>(authorsOnly, "POST", `/entries/${source.instance_id}/move`, { body: { to: "in_review", expected_workflow_revision: 7 } })).status).toBe(404);
    expect((await manage<Err>(authorsOnly, "POST", `/entries/${source.instance_id}/restore`, { body: {} })).status).toBe(404);
    expect((await manage<Err>(authorsOnly, "POST", `/entries/${source.instance_id}/trash`, { body: {} })).status).toBe(404);

    await changeAdminRole(s, (p) => ({ ...p, models: { "*": ["read"] } }));
    const move = await manage<Err>(token, "POST", `/entries/${source.instance_id}/move`, { body: { to: "in_review", expected_workflow_revision: 7 } });
    expect(move.body.error).toMatchObject({ code: "missing_permission" });
    expect(move.body.error).not.toHaveProperty("workflow_revision");
    const restore = await manage<Err>(token, "POST", `/entries/${source.instance_id}/restore`, { body: {} });
    expect(restore.body.error.code).toBe("missing_permission");
  });

  it("a slug taken by an entry the caller may not read is refused without that entry's id", async () => {
    const { s, token, source, article } = await setup();
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { read: ["fr"] } } }));
    const taken = await manage<Err>(token, "POST", "/entries", { body: { model_id: article.id, lang: "en", slug: "tide", fields: { title: "Mine" } } });
    expect(taken.body.error.code).toBe("slug_taken");
    expect(JSON.stringify(taken.body)).not.toContain(source.instance_id);
  });

  it("a preview or an editing lease of an entry the credential may not read is 404, not 403", async () => {
    const { s, source, author } = await setup();
    const authorsOnly = await credential(s, ["content:read", "content:write"], [author.id]);
    const preview = await manage<Err>(authorsOnly, "POST", `/entries/${source.instance_id}/preview`, { body: {}, key: null });
    expect(preview.status).toBe(404);
    const editing = await manage<Err>(authorsOnly, "POST", `/entries/${source.instance_id}/editing`, { body: {}, key: null });
    expect(editing.status).toBe(404);
  });

  it("another person's lease is told only to a caller allowed to write the entry", async () => {
    const { s, token, source, author } = await setup();
    expect((await manage(token, "POST", `/entries/${source.instance_id}/editing`, { body: {}, key: null })).status).toBe(201);
    const editor = await s.person("editor");
    const outsider = await createManagementCredential(s.ctx({ ...editor, permissions: { ...editor.permissions, system: [...editor.permissions.system, "site:settings"] } }), {
      name: "outsider",
      scopes: ["content:read", "content:write"],
      model_ids: [author.id],
    });
    const save = await manage<Err>(outsider.token, "PUT", `/entries/${source.instance_id}`, { body: { expected_version_id: source.current_version_id, fields: { title: "Mine" } } });
    expect(save.status).toBe(404);
    expect(save.body.error.code).toBe("not_found");
  });

  it("a person without update applying a stale entry proposal gets missing_permission, not the current version", async () => {
    const { s, token, source } = await setup();
    const proposed = await manage<{ id: string }>(token, "POST", `/entries/${source.instance_id}/proposals`, { body: { base_version_id: source.current_version_id, fields: { title: "Proposed" } } });
    expect(proposed.status).toBe(201);
    const saved = await apply(s.ctx(), lifecycle.saveDraft(s.ctx(), { instance_id: source.instance_id, expected_version_id: source.current_version_id ?? "", fields: { summary: "newer" } }));
    const viewer = await s.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const refused = await adminCall<Err>(session, "POST", `/api/proposals/${proposed.body.id}/apply`, { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect(JSON.stringify(refused.body)).not.toContain(saved.current_version_id ?? "?");
  });

  it("a person without model:apply applying a stale model proposal gets missing_permission, not the model's current time", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const token = await credential(s);
    const read = await manage<{ updated_at: string; revision: number; definition: { model: Record<string, unknown>; fields: Record<string, unknown>[] } }>(token, "GET", `/models/${author.id}`);
    const proposed = await manage<{ id: string }>(token, "POST", "/models/proposals", {
      body: { mode: "update", model_id: author.id, base_updated_at: read.body.updated_at, definition: { model: { name: "Writer", slug: "writer" }, fields: read.body.definition.fields } },
    });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
    const moved = await manage<{ updated_at: string }>(token, "PUT", `/models/${author.id}`, { body: { expected_revision: read.body.revision, model: { name: "Person" } } });
    expect(moved.status).toBe(200);
    const editor = await s.person("editor");
    const session = await signIn(await emailOf(editor.id), "pw");
    const refused = await adminCall<Err>(session, "POST", `/api/models/proposals/${proposed.body.id}/apply`, { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect(JSON.stringify(refused.body)).not.toContain(moved.body.updated_at);
  });

  it("a link to an entry the credential may not read is refused like a link to nothing (relation_target_not_found)", async () => {
    const { s, author, article } = await setup();
    const ann = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const articlesOnly = await credential(s, ["content:read", "content:write"], [article.id]);
    const hidden = await manage<Err>(articlesOnly, "POST", "/entries", { body: { model_id: article.id, slug: "linked", fields: { title: "Linked", author: ann.instance_id } } });
    const missing = await manage<Err>(articlesOnly, "POST", "/entries", { body: { model_id: article.id, slug: "linked", fields: { title: "Linked", author: "ent_nothing" } } });
    expect(hidden.status).toBe(422);
    expect(hidden.body.error.code).toBe("relation_target_not_found");
    expect(missing.body.error.code).toBe("relation_target_not_found");
    const everything = await credential(s);
    expect((await manage(everything, "POST", "/entries", { body: { model_id: article.id, slug: "linked", fields: { title: "Linked", author: ann.instance_id } } })).status).toBe(201);
  });
});
