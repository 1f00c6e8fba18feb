/** Model applies refused while a role, site token or management credential still names what the change removes (stale_role_grant, stale_token_scope). */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { createManagementCredential, revokeManagementCredential } from "../../shared/services/credentials/management-credentials";
import { createSiteToken, revokeSiteToken } from "../../shared/services/credentials/site-tokens";
import { modelRow, type Err, type Field, type ModelBody, type WriteBody } from "../helpers/model-answers";

type StaleErr = { error: { code: string; message: string; roles?: { id: string; slug: string }[]; model_id?: string; field_ids?: string[]; site_tokens?: string[]; management_credentials?: string[] } };

async function addRole(s: SeededSite, slug: string, permissions: unknown): Promise<string> {
  const id = `rol_${slug}_${Date.now()}`;
  const at = new Date().toISOString();
  await env.DB.prepare("INSERT INTO roles (id, site_id, slug, name, permissions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .bind(id, s.site.id, slug, slug, JSON.stringify(permissions), at, at)
    .run();
  return id;
}

async function setRolePermissions(id: string, permissions: unknown): Promise<void> {
  await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = ?").bind(JSON.stringify(permissions), id).run();
}

describe("management API: model apply refusals for stale grants and scopes", () => {
  it("refuses removing a model a role names (models or field limits), writing nothing, then removes it once the roles no longer name it", async () => {
    const s = await seedSite();
    const { note } = await blogModels(s.ctx());
    const token = await credential(s);
    const reader = await addRole(s, "note-reader", { models: { [note.id]: ["read"] }, system: [] });
    const limited = await addRole(s, "note-limited", { models: { "*": ["read"] }, system: [], limits: { fields: { [note.id]: { read: [note.fields[0]!.id] } } } });
    const row = await modelRow(s, note.id);

    const refused = await manage<StaleErr>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("stale_role_grant");
    expect(refused.body.error.model_id).toBe(note.id);
    expect(refused.body.error.roles).toEqual([
      { id: limited, slug: "note-limited" },
      { id: reader, slug: "note-reader" },
    ]);
    expect(refused.body.error.message).toMatch(/change those roles first/);
    expect(await modelRow(s, note.id)).toEqual(row);

    await setRolePermissions(reader, { models: { "*": ["read"] }, system: [] });
    const still = await manage<StaleErr>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(still.body.error.code).toBe("stale_role_grant");
    expect(still.body.error.roles).toEqual([{ id: limited, slug: "note-limited" }]);
    expect(await modelRow(s, note.id)).toEqual(row);

    await setRolePermissions(limited, { models: { "*": ["read"] }, system: [] });
    const removed = await manage<WriteBody>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(removed.status).toBe(200);
    expect(await modelRow(s, note.id)).toBeNull();
  });

  it("refuses removing a field a role's field limits list, writing nothing, then removes it once the role no longer lists it", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const summary = article.fields.find((f) => f.key === "summary")!;
    const title = article.fields.find((f) => f.key === "title")!;
    const role = await addRole(s, "summary-writer", { models: { [article.id]: ["read", "update"] }, system: [], limits: { fields: { [article.id]: { read: [title.id], write: [summary.id] } } } });
    const row = await modelRow(s, article.id);
    const fields = article.fields.filter((f) => f.id !== summary.id);

    const refused = await manage<StaleErr>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 1, definition: { model: { name: article.name, slug: article.slug }, fields } } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "stale_role_grant", model_id: article.id, field_ids: [summary.id], roles: [{ id: role, slug: "summary-writer" }] });
    expect(await modelRow(s, article.id)).toEqual(row);
    expect(JSON.parse((await modelRow(s, article.id))!.definition).fields.map((f: Field) => f.id)).toContain(summary.id);

    // Keeping the field (changing something else) is not refused.
    await setRolePermissions(role, { models: { [article.id]: ["read", "update"] }, system: [], limits: { fields: { [article.id]: { read: [title.id] } } } });
    const done = await manage<WriteBody>(token, "PUT", `/models/${article.id}/definition`, { body: { expected_revision: 1, definition: { model: { name: article.name, slug: article.slug }, fields } } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.revision).toBe(2);
  });

  it("refuses removing a model a live site token or management credential is scoped to, then removes it once they are revoked", async () => {
    const s = await seedSite();
    const { author, note } = await blogModels(s.ctx());
    const token = await credential(s);
    const siteToken = await createSiteToken(s.ctx(), { name: "notes", model_ids: [note.id, author.id] });
    const scoped = await createManagementCredential(s.ctx(), { name: "notes", scopes: ["content:read"], model_ids: [note.id] });
    const other = await createManagementCredential(s.ctx(), { name: "authors", scopes: ["content:read"], model_ids: [author.id] });
    const revokedToken = await createSiteToken(s.ctx(), { name: "old", model_ids: [note.id] });
    await revokeSiteToken(s.ctx(), revokedToken.id);
    const row = await modelRow(s, note.id);

    const refused = await manage<StaleErr>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "stale_token_scope", site_tokens: [siteToken.id], management_credentials: [scoped.id] });
    expect(refused.body.error.management_credentials).not.toContain(other.id);
    expect(await modelRow(s, note.id)).toEqual(row);

    await revokeSiteToken(s.ctx(), siteToken.id);
    const still = await manage<StaleErr>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(still.body.error).toMatchObject({ code: "stale_token_scope", site_tokens: [], management_credentials: [scoped.id] });
    expect(await modelRow(s, note.id)).toEqual(row);

    await revokeManagementCredential(s.ctx(), scoped.id);
    const removed = await manage<WriteBody>(token, "POST", `/models/${note.id}/remove`, { body: { expected_revision: 1, confirm: note.id } });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await modelRow(s, note.id)).toBeNull();
  });

  it("sets model settings on create and PUT /models/{id}: named keys merge, null clears, bad values write nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const created = await manage<WriteBody>(token, "POST", "/models", {
      body: { definition: { model: { name: "Page", slug: "page", settings: { icon: "file-text", help_text: "One page of the site." } }, fields: [{ key: "title", label: "Title", type: "text" }] } },
    });
    expect(created.status).toBe(201);
    type WithSettings = ModelBody & { settings: { preview_url: string | null; icon: string | null; help_text: string | null } };
    const read = await manage<WithSettings>(token, "GET", `/models/${created.body.model_id}`);
    expect(read.body.settings).toEqual({ preview_url: null, icon: "file-text", help_text: "One page of the site.", site_path: null });

    const updated = await manage<WriteBody>(token, "PUT", `/models/${created.body.model_id}`, {
      body: { expected_revision: 1, model: { settings: { preview_url: "https://www.example.com/{lang}/{slug}", help_text: null } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.revision).toBe(2);
    const after = await manage<WithSettings>(token, "GET", `/models/${created.body.model_id}`);
    expect(after.body.settings).toEqual({ preview_url: "https://www.example.com/{lang}/{slug}", icon: "file-text", help_text: null, site_path: null });
    expect(after.body.name).toBe("Page");

    for (const settings of [{ preview_url: "javascript:alert(1)" }, { icon: "Not An Icon" }, { colour: "red" }]) {
      const refused = await manage<Err>(token, "PUT", `/models/${created.body.model_id}`, { body: { expected_revision: 2, model: { settings } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
    expect((await modelRow(s, created.body.model_id))?.revision).toBe(2);
  });
});

