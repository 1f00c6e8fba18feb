import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, adminCall, emailOf, roleId, signIn } from "../helpers/admin-api";
import { adminSession, customRole, freshEmail, inspect, invite, invited, member } from "../helpers/people-api";
import { addModel, seedSite } from "../helpers/fixtures";
import { draft, setup, type Exchanged } from "../helpers/plugin-protocol";
import { pluginCall } from "../helpers/plugins";
import { workerFetch } from "../helpers/worker";

const OPS_TOKEN = "test-ops-token"; // vitest.config.ts

/**
 * Findings of the black-box probe of the management API under a session (/api/v1,
 * docs/admin-ui.md "One API"): each case failed before its fix.
 */

describe("plugin launches through /api/v1 (the session)", () => {
  it("launches as the person, so the plugin's delegation works and names no credential", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const session = await signIn(await emailOf(s.adminId));
    const path = `/api/v1/plugins/${plugin.id}/content-actions/review/entries/${post.instance_id}/launch`;
    // A launch is a write: the session's CSRF token is needed.
    const noCsrf = await adminCall<{ error: { code: string } }>(session, "POST", path, { siteId: s.site.id, csrf: null, body: {} });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    const launched = await adminCall<{ url: string }>(session, "POST", path, { siteId: s.site.id, body: {} });
    expect(launched.status).toBe(201);
    const code = new URL(launched.body.url).searchParams.get("code");
    // Before the fix the delegation named "person:…" as its credential: the exchange was refused as revoked.
    const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code } });
    expect(exchanged.status).toBe(200);
    const delegation = exchanged.body.data?.delegation_id ?? "";
    expect(exchanged.body.data?.person.id).toBe(s.adminId);
    const row = await env.DB.prepare("SELECT credential_id FROM plugin_delegations WHERE id = ?").bind(delegation).first<{ credential_id: string | null }>();
    expect(row?.credential_id).toBeNull();
    const read = await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expect(read.status).toBe(200);
    // The delegation still stands for the person: a deactivated membership ends it.
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(s.adminId, s.site.id).run();
    const after = await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expect(after.status).toBe(403);
    expect(after.body.outcome.code).toBe("requester_unauthorized");
  });
});

describe("operators' route: the Authorization scheme", () => {
  async function move(siteId: string, authorization: string) {
    const res = await workerFetch(`${ADMIN}/api/ops/sites/${siteId}/database`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ binding: "DB" }),
    });
    return { status: res.status, body: (await res.json()) as { moved?: boolean; error?: { code: string } } };
  }

  it("takes the scheme in any case, as the other bearer surfaces do, and still nothing but the exact token", async () => {
    const s = await seedSite();
    // Before the fix `bearer …` was 401 although the token was right.
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const ok = await move(s.site.id, `${scheme} ${OPS_TOKEN}`);
      expect(ok.status, scheme).toBe(200);
      expect(ok.body.moved).toBe(false);
    }
    for (const wrong of [`Bearer ${OPS_TOKEN}x`, `Bearer ${OPS_TOKEN.toUpperCase()}`, `Basic ${OPS_TOKEN}`, OPS_TOKEN, `Bearer ${OPS_TOKEN} extra`, "Bearer", ""]) {
      const refused = await move(s.site.id, wrong);
      expect(refused.status, wrong).toBe(401);
      expect(refused.body.error?.code).toBe("unauthorized");
    }
  });
});

describe("Idempotency-Keys and the rate limit under a session are the person's own on the site", () => {
  it("never replays another person's answer, nor the same person's answer on another site", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const model = await addModel(s.ctx(), { slug: "page", name: "Page", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    const editor = await s.person("editor");
    const admin = await signIn(await emailOf(s.adminId));
    const second = await signIn(await emailOf(editor.id), "pw");
    const key = { "idempotency-key": "shared-click" };
    const first = await adminCall<{ instance_id: string }>(admin, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: model.id, slug: "one", fields: { title: "One" } }, headers: key });
    expect(first.status).toBe(201);
    // The same key and body from another person is a new request: it meets the slug rule, no replay.
    const theirs = await adminCall<{ error: { code: string } }>(second, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: model.id, slug: "one", fields: { title: "One" } }, headers: key });
    expect(theirs.status).toBe(409);
    expect(theirs.body.error.code).toBe("slug_taken");
    const own = await adminCall<{ instance_id: string }>(second, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: model.id, slug: "two", fields: { title: "Two" } }, headers: key });
    expect(own.status).toBe(201);
    expect(own.body.instance_id).not.toBe(first.body.instance_id);
    // The same person, key and body on another site (also administered by them) runs there.
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) SELECT ?, ?, role_id, 1, created_at FROM memberships WHERE site_id = ? AND person_id = ?")
      .bind(other.site.id, s.adminId, other.site.id, other.adminId)
      .run();
    const roleBody = { slug: "reviewer", name: "Reviewer", permissions: { models: {}, system: [] } };
    const here = await adminCall<{ id: string }>(admin, "POST", "/api/v1/roles", { siteId: s.site.id, body: roleBody, headers: { "idempotency-key": "role-click" } });
    const there = await adminCall<{ id: string }>(admin, "POST", "/api/v1/roles", { siteId: other.site.id, body: roleBody, headers: { "idempotency-key": "role-click" } });
    expect(here.status).toBe(201);
    expect(there.status).toBe(201);
    expect(there.body.id).not.toBe(here.body.id);
    const again = await adminCall<{ id: string }>(admin, "POST", "/api/v1/roles", { siteId: other.site.id, body: roleBody, headers: { "idempotency-key": "role-click" } });
    expect(again.body.id).toBe(there.body.id);
  });

  it("answers 429 rate_limited with Retry-After past MANAGE_RATE_LIMIT, for that person only", async () => {
    const s = await seedSite();
    const editor = await s.person("editor");
    const admin = await signIn(await emailOf(s.adminId));
    const second = await signIn(await emailOf(editor.id), "pw");
    const limit = Number(env.MANAGE_RATE_LIMIT);
    for (let i = 0; i < limit; i++) expect((await adminCall(admin, "GET", "/api/v1/site", { siteId: s.site.id })).status).toBe(200);
    const res = await workerFetch(`${ADMIN}/api/v1/site`, { headers: { cookie: admin.cookie, "x-site-id": s.site.id } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect((await adminCall(second, "GET", "/api/v1/site", { siteId: s.site.id })).status).toBe(200);
  });
});

describe("invitations of a wider role: a lesser manager neither revokes nor replaces them", () => {
  it("refuses revoking or re-inviting over an invitation whose role goes beyond the manager's (403), and the link keeps working", async () => {
    const s = await seedSite();
    const admin = await adminSession(s);
    const manager = await member(s, await customRole(s, "manager", { models: { "*": ["read"] }, system: ["role:manage"] }));
    const email = freshEmail("wide");
    const wide = await invited(admin, s, email, "editor");
    // Before the fix both of these cancelled the Administrator's Editor invitation.
    const revoke = await adminCall<{ error: { code: string } }>(manager.session, "DELETE", `/api/invitations/${wide.invitation.id}`, { siteId: s.site.id });
    expect(revoke.status).toBe(403);
    expect(revoke.body.error.code).toBe("escalation_refused");
    const replace = await invite(manager.session, s.site.id, email, await roleId(s.site.id, "viewer"));
    expect(replace.status).toBe(403);
    expect((replace.body as unknown as { error: { code: string } }).error.code).toBe("escalation_refused");
    const still = await inspect<{ role: { name: string } }>(wide.token);
    expect(still.status).toBe(200);
    expect(still.body.role.name).toBe("Editor");
    // Within the manager's own set both still work: a viewer invitation is theirs to replace and revoke.
    const other = freshEmail("narrow");
    const first = await invited(manager.session, s, other, "viewer");
    const second = await invited(manager.session, s, other, "viewer");
    expect((await inspect(first.token)).status).toBe(404);
    const revoked = await adminCall<{ revoked: boolean }>(manager.session, "DELETE", `/api/invitations/${second.invitation.id}`, { siteId: s.site.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBe(true);
    // The administrator may replace the Editor invitation; the answer never shows a permission set.
    const byAdmin = await invite(admin, s.site.id, email, await roleId(s.site.id, "viewer"));
    expect(byAdmin.status).toBe(201);
    expect(Object.keys(byAdmin.body).sort()).toEqual(["created_at", "email", "expires_at", "id", "invited_by", "link", "role"]);
    expect((await inspect(wide.token)).status).toBe(404);
  });
});

describe("GET /api/member-names: a repeated ids parameter", () => {
  it("is refused with invalid_request, never answered for the last one only", async () => {
    const s = await seedSite();
    const session = await signIn(await emailOf(s.adminId));
    // Before the fix the first value was dropped silently and the answer named the admin.
    const res = await adminCall<{ error: { code: string } }>(session, "GET", `/api/member-names?ids=per_nobody&ids=${s.adminId}`, { siteId: s.site.id });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const one = await adminCall<{ data: { id: string }[] }>(session, "GET", `/api/member-names?ids=per_nobody,${s.adminId}`, { siteId: s.site.id });
    expect(one.status).toBe(200);
    expect(one.body.data.map((p) => p.id)).toEqual([s.adminId]);
  });
});
