import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { authenticateManagement } from "../../shared/auth/management-authority";
import { sha256Hex } from "../../shared/crypto/digest";
import { adminCall, signIn, emailOf } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { connect, oauthForm } from "../helpers/oauth";
import { draft, expectEnvelope, setup, type Exchanged } from "../helpers/plugin-protocol";
import { pluginCall } from "../helpers/plugins";

type Err = { error: { code: string; scope?: string } };
interface ConnectionView {
  id: string;
  client_id: string;
  client_name: string | null;
  person_id: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  last_refresh_at: string | null;
}

describe("Authorization: Bearer dwo_… on /api/manage/v1 (a connection acts like a management credential)", () => {
  it("reads /site with the connection's scopes, as its person", async () => {
    const s = await seedSite();
    const tokens = await connect(s, { scopes: ["content:write"] });
    const res = await manage<{ id: string }>(tokens.access_token, "GET", "/site");
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(s.site.id);
    const auth = await authenticateManagement(env.DB, new Request("http://x/", { headers: { authorization: `Bearer ${tokens.access_token}` } }));
    expect(auth.credential).toEqual({ kind: "oauth_connection", id: tokens.connection_id, name: "Test app", scopes: ["content:read", "content:write"], model_ids: null });
    expect(auth.actor).toMatchObject({ kind: "management_credential", id: s.adminId, credentialId: tokens.connection_id });
    // The same function still authenticates dwm_ credentials.
    const dwm = await credential(s, ["content:read"]);
    const byCredential = await authenticateManagement(env.DB, new Request("http://x/", { headers: { authorization: `Bearer ${dwm}` } }));
    expect(byCredential.credential.kind).toBe("management_credential");
  });

  it("narrowed scopes: a route needing another scope is 403 insufficient_scope", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const tokens = await connect(s, { scopes: ["content:read"] });
    const refused = await manage<Err>(tokens.access_token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "A" } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "insufficient_scope", scope: "content:write" });
  });

  it("re-reads the person's authority on every request: removed from the site → 403 on the next request; role lowered → narrowed", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const tokens = await connect(s);
    expect((await manage(tokens.access_token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "A" } } })).status).toBe(201);
    await changeAdminRole(s, (p) => ({ ...p, models: {} }));
    expect((await manage(tokens.access_token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "B" } } })).status).toBe(404);
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(s.adminId, s.site.id).run();
    const removed = await manage<Err>(tokens.access_token, "GET", "/site");
    expect(removed.status).toBe(403);
    expect(removed.body.error.code).toBe("creator_unauthorized");
  });

  it("an expired access token is 401 unauthorized, like an unknown credential", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    await env.DB.prepare("UPDATE oauth_tokens SET expires_at = ? WHERE digest = ?").bind(Date.now() - 1, await sha256Hex(tokens.access_token)).run();
    const expired = await manage<Err>(tokens.access_token, "GET", "/site");
    const unknown = await manage<Err>(`dwo_${"B".repeat(43)}`, "GET", "/site");
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(unknown.body);
    // A refresh token is not an access token.
    expect((await manage(tokens.refresh_token, "GET", "/site")).status).toBe(401);
  });

  it("writes audit rows naming the connection (credential_id)", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const tokens = await connect(s);
    const created = await manage<{ instance_id: string }>(tokens.access_token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Audited" } } });
    expect(created.status).toBe(201);
    const row = await env.DB.prepare("SELECT actor_kind, actor_id, credential_id FROM audit_log WHERE site_id = ? AND target_id = ? AND action LIKE 'entry.%'")
      .bind(s.site.id, created.body.instance_id)
      .first<{ actor_kind: string; actor_id: string; credential_id: string }>();
    expect(row).toEqual({ actor_kind: "management_credential", actor_id: s.adminId, credential_id: tokens.connection_id });
  });

  it("keys idempotency by the connection: the same key from a dwm_ credential is another key", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const tokens = await connect(s);
    const dwm = await credential(s);
    const key = newKey();
    const a = await manage<{ instance_id: string }>(tokens.access_token, "POST", "/entries", { key, body: { model_id: author.id, fields: { name: "One" } } });
    const replay = await manage<{ instance_id: string; replayed?: boolean }>(tokens.access_token, "POST", "/entries", { key, body: { model_id: author.id, fields: { name: "One" } } });
    // Another body under the same key: from the same caller that would be idempotency_key_reused.
    const b = await manage<{ instance_id: string; replayed?: boolean }>(dwm, "POST", "/entries", { key, body: { model_id: author.id, fields: { name: "Two" } } });
    const reused = await manage<Err>(tokens.access_token, "POST", "/entries", { key, body: { model_id: author.id, fields: { name: "Two" } } });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    expect(a.status).toBe(201);
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.instance_id).toBe(a.body.instance_id);
    expect(b.status).toBe(201);
    expect(b.body.instance_id).not.toBe(a.body.instance_id);
  });

  it("counts the rate limit per connection (MANAGE_RATE_LIMIT is 40 in tests): the 41st request is 429; the person's other credentials are not held", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    const other = await connect(s);
    const dwm = await credential(s);
    for (let i = 0; i < 40; i++) expect((await manage(tokens.access_token, "GET", "/site")).status).toBe(200);
    const limited = await manage<Err>(tokens.access_token, "GET", "/site");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await manage(other.access_token, "GET", "/site")).status).toBe(200);
    expect((await manage(dwm, "GET", "/site")).status).toBe(200);
  });
});

describe("admin: GET/DELETE /api/oauth-connections", () => {
  it("lists the site's connections (never a token) and revokes one: its tokens are refused on the next request", async () => {
    const s = await seedSite();
    const tokens = await connect(s, { scopes: ["media:write"] });
    const session = await signIn(await emailOf(s.adminId));
    const list = await adminCall<{ data: ConnectionView[] }>(session, "GET", "/api/oauth-connections", { siteId: s.site.id });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { id: tokens.connection_id, client_id: tokens.client_id, client_name: "Test app", person_id: s.adminId, scopes: ["content:read", "media:write"], created_at: expect.any(String), revoked_at: null, revoked_reason: null, last_refresh_at: expect.any(String) },
    ]);
    // Connecting issued the first access token: its time is the last refresh until the app refreshes.
    expect(Math.abs(Date.parse(list.body.data[0]?.last_refresh_at ?? "") - Date.now())).toBeLessThan(60_000);
    expect(JSON.stringify(list.body)).not.toContain(tokens.access_token);

    const revoked = await adminCall<ConnectionView>(session, "DELETE", `/api/oauth-connections/${tokens.connection_id}`, { siteId: s.site.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(revoked.body.revoked_reason).toBe("person");
    expect((await manage(tokens.access_token, "GET", "/site")).status).toBe(401);
    expect((await oauthForm<{ error: string }>(s.host, "token", { grant_type: "refresh_token", client_id: tokens.client_id, refresh_token: tokens.refresh_token })).body.error).toBe("invalid_grant");
    // Revoking again answers it unchanged.
    const again = await adminCall<ConnectionView>(session, "DELETE", `/api/oauth-connections/${tokens.connection_id}`, { siteId: s.site.id });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const audit = await env.DB.prepare("SELECT actor_kind, actor_id FROM audit_log WHERE target_id = ? AND action = 'oauth_connection.revoke'").bind(tokens.connection_id).all();
    expect(audit.results).toEqual([{ actor_kind: "person", actor_id: s.adminId }]);
  });

  it("a person without site:settings sees and revokes only their own connections; another site's is 404", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const adminTokens = await connect(s);
    const editor = await s.person("editor");
    const editorTokens = await connect(s, { personId: editor.id });
    const otherTokens = await connect(other);
    const session = await signIn(await emailOf(editor.id), "pw");
    const list = await adminCall<{ data: ConnectionView[] }>(session, "GET", "/api/oauth-connections", { siteId: s.site.id });
    expect(list.body.data.map((c) => c.id)).toEqual([editorTokens.connection_id]);
    const refused = await adminCall<Err>(session, "DELETE", `/api/oauth-connections/${adminTokens.connection_id}`, { siteId: s.site.id });
    expect(refused.status).toBe(404);
    expect((await manage(adminTokens.access_token, "GET", "/site")).status).toBe(200);
    const adminSession = await signIn(await emailOf(s.adminId));
    expect((await adminCall(adminSession, "DELETE", `/api/oauth-connections/${otherTokens.connection_id}`, { siteId: s.site.id })).status).toBe(404);
    expect((await manage(otherTokens.access_token, "GET", "/site")).status).toBe(200);
    const all = await adminCall<{ data: ConnectionView[] }>(adminSession, "GET", "/api/oauth-connections", { siteId: s.site.id });
    expect(all.body.data.map((c) => c.id).sort()).toEqual([adminTokens.connection_id, editorTokens.connection_id].sort());
    expect((await adminCall(session, "DELETE", `/api/oauth-connections/${editorTokens.connection_id}`, { siteId: s.site.id })).status).toBe(200);
    expect((await manage(editorTokens.access_token, "GET", "/site")).status).toBe(401);
  });

  it("needs a session, CSRF on DELETE and a membership", async () => {
    const s = await seedSite();
    const tokens = await connect(s);
    expect((await adminCall(undefined, "GET", "/api/oauth-connections", { siteId: s.site.id })).status).toBe(401);
    const session = await signIn(await emailOf(s.adminId));
    expect((await adminCall(session, "DELETE", `/api/oauth-connections/${tokens.connection_id}`, { siteId: s.site.id, csrf: null })).status).toBe(403);
    expect((await manage(tokens.access_token, "GET", "/site")).status).toBe(200);
  });
});

describe("plugin launches through a connection", () => {
  it("a delegation launched with a dwo_ token holds while the connection lives and is refused once it is revoked", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const tokens = await connect(s);
    const launched = await manage<{ url: string }>(tokens.access_token, "POST", `/plugins/${plugin.id}/content-actions/review/entries/${post.instance_id}/launch`, { key: null, body: {} });
    expect(launched.status).toBe(201);
    const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code: new URL(launched.body.url).searchParams.get("code") } });
    const delegation = exchanged.body.data?.delegation_id ?? "";
    const row = await env.DB.prepare("SELECT credential_id FROM plugin_delegations WHERE id = ?").bind(delegation).first<{ credential_id: string }>();
    expect(row?.credential_id).toBe(tokens.connection_id);
    const read = () => pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expect((await read()).status).toBe(200);
    expect((await oauthForm(s.host, "revoke", { token: tokens.refresh_token })).status).toBe(200);
    expectEnvelope(await read(), "requester_unauthorized");
  });
});
