import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, roleId, withoutRequestId, type ErrorBody, type SessionBody } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { manage } from "../helpers/manage-api";
import { connect } from "../helpers/oauth";
import { png } from "../helpers/media-samples";
import { streamUpload } from "../helpers/media-api";
import { AppError } from "../../shared/errors";
import { deactivateMember } from "../../shared/services/people/members";
import { adminSession, auditRows, customRole, interleaved, member, type MemberBody } from "../helpers/people-api";

/** A role that manages people but holds less than the seeded admin (and more than author, less than editor). */
const MANAGER = { models: { "*": ["read", "create", "update"] }, system: ["role:manage", "media:upload"] };

async function membership(siteId: string, personId: string): Promise<{ role_id: string; active: number } | null> {
  return env.DB.prepare("SELECT role_id, active FROM memberships WHERE site_id = ? AND person_id = ?").bind(siteId, personId).first();
}

async function credentialOf(session: Parameters<typeof adminCall>[0], siteId: string): Promise<string> {
  const res = await adminCall<{ token: string }>(session, "POST", "/api/management-credentials", { siteId, body: { name: "Agent", scopes: ["content:read"] } });
  if (res.status !== 201) throw new Error(`credential: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

describe("GET /api/people", () => {
  it("lists every member with role, state and joined date, deactivated ones included", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const editor = await member(s, "editor");
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, editor.id).run();
    const other = await seedSite();
    await member(other, "viewer");

    const res = await adminCall<{ data: MemberBody[] }>(session, "GET", "/api/people", { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const byId = new Map(res.body.data.map((m) => [m.person_id, m]));
    expect(res.body.data).toHaveLength(2);
    expect(byId.get(s.adminId)).toMatchObject({ email: `${s.site.slug}@example.test`, name: "Admin", role: { id: await roleId(s.site.id, "admin"), slug: "admin", name: "Admin" }, state: "active", account_active: true });
    expect(byId.get(editor.id)).toMatchObject({ email: editor.email, role: { slug: "editor" }, state: "deactivated", account_active: true });
    expect(Date.parse(byId.get(editor.id)?.joined_at ?? "")).not.toBeNaN();
    expect(Object.keys(byId.get(editor.id) ?? {}).sort()).toEqual(["account_active", "email", "joined_at", "name", "person_id", "role", "state"]);
  });

  it("needs role:manage, a session and a membership of the named site", async () => {
    const s = await seedSite();
    const editor = await member(s, "editor");
    const refused = await adminCall<ErrorBody>(editor.session, "GET", "/api/people", { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect((await adminCall<ErrorBody>(undefined, "GET", "/api/people", { siteId: s.site.id })).body.error.code).toBe("unauthorized");
    expect((await adminCall<ErrorBody>(editor.session, "GET", "/api/people")).status).toBe(400);
    const other = await seedSite();
    const foreign = await adminCall<ErrorBody>(await adminSession(s), "GET", "/api/people", { siteId: other.site.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
  });
});

describe("PUT /api/people/{person_id}/role", () => {
  it("changes the role, audits it, and the member's next request has the new permissions", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const editor = await member(s, "editor");
    expect((await streamUpload(editor.session, s.site.id, png(2, 2, "a"), { fields: { name: "a.png" } })).status).toBe(201);

    const viewerRole = await roleId(s.site.id, "viewer");
    const res = await adminCall<MemberBody>(session, "PUT", `/api/people/${editor.id}/role`, { siteId: s.site.id, body: { role_id: viewerRole } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ person_id: editor.id, role: { id: viewerRole, slug: "viewer" }, state: "active" });
    expect(await membership(s.site.id, editor.id)).toEqual({ role_id: viewerRole, active: 1 });
    expect(await auditRows(s.site.id, "membership.role_change")).toEqual([{ actor_id: s.adminId, target_id: editor.id }]);

    const refused = await streamUpload<ErrorBody>(editor.session, s.site.id, png(2, 2, "b"), { fields: { name: "b.png" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");

    // The same role again answers unchanged and writes nothing.
    const again = await adminCall<MemberBody>(session, "PUT", `/api/people/${editor.id}/role`, { siteId: s.site.id, body: { role_id: viewerRole } });
    expect(again.status).toBe(200);
    expect(await auditRows(s.site.id, "membership.role_change")).toHaveLength(1);
  });

  it("refuses unknown roles, unknown and other sites' people alike, bad bodies and writes without CSRF", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const editor = await member(s, "editor");
    const stranger = await member(other, "editor");
    const path = `/api/people/${editor.id}/role`;

    const unknownRole = await adminCall<ErrorBody>(session, "PUT", path, { siteId: s.site.id, body: { role_id: "role_nope" } });
    expect(unknownRole.status).toBe(422);
    expect(unknownRole.body.error.code).toBe("unknown_role");
    const foreignRole = await adminCall<ErrorBody>(session, "PUT", path, { siteId: s.site.id, body: { role_id: await roleId(other.site.id, "viewer") } });
    expect(foreignRole.status).toBe(422);
    expect(foreignRole.body.error.code).toBe("unknown_role");

    const viewer = await roleId(s.site.id, "viewer");
    const unknown = await adminCall<ErrorBody>(session, "PUT", "/api/people/per_nobody/role", { siteId: s.site.id, body: { role_id: viewer } });
    const foreign = await adminCall<ErrorBody>(session, "PUT", `/api/people/${stranger.id}/role`, { siteId: s.site.id, body: { role_id: viewer } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    expect(await membership(other.site.id, stranger.id)).toMatchObject({ active: 1 });

    for (const body of [{ role_id: viewer, extra: 1 }, { role_id: "" }, { role_id: 7 }, []]) {
      const bad = await adminCall<ErrorBody>(session, "PUT", path, { siteId: s.site.id, body });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("invalid_request");
    }
    const noCsrf = await adminCall<ErrorBody>(session, "PUT", path, { siteId: s.site.id, body: { role_id: viewer }, csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    expect((await membership(s.site.id, editor.id))?.role_id).toBe(await roleId(s.site.id, "editor"));
  });

  it("keeps a manager within what they hold: no wider role given, no wider member changed", async () => {
    const s = await seedSite();
    const manager = await member(s, await customRole(s, "manager", MANAGER));
    const author = await member(s, "author");

    const viewer = await roleId(s.site.id, "viewer");
    expect((await adminCall(manager.session, "PUT", `/api/people/${author.id}/role`, { siteId: s.site.id, body: { role_id: viewer } })).status).toBe(200);

    const wider = await adminCall<ErrorBody & { error: { reasons: string[] } }>(manager.session, "PUT", `/api/people/${author.id}/role`, { siteId: s.site.id, body: { role_id: await roleId(s.site.id, "editor") } });
    expect(wider.status).toBe(403);
    expect(wider.body.error.code).toBe("escalation_refused");
    expect(wider.body.error.reasons.length).toBeGreaterThan(0);

    const onAdmin = await adminCall<ErrorBody>(manager.session, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: viewer } });
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body.error.code).toBe("escalation_refused");
    const deactivateAdmin = await adminCall<ErrorBody>(manager.session, "POST", `/api/people/${s.adminId}/deactivate`, { siteId: s.site.id });
    expect(deactivateAdmin.body.error.code).toBe("escalation_refused");
    expect(await membership(s.site.id, s.adminId)).toMatchObject({ role_id: await roleId(s.site.id, "admin"), active: 1 });
  });

  it("never demotes the last administrator", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const editorRole = await roleId(s.site.id, "editor");
    const last = await adminCall<ErrorBody>(session, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: editorRole } });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_administrator");
    expect((await membership(s.site.id, s.adminId))?.role_id).toBe(await roleId(s.site.id, "admin"));
    expect(await auditRows(s.site.id, "membership.role_change")).toEqual([]);

    // A second administrator may step down while the first stays; the one left may not.
    const second = await member(s, "admin");
    expect((await adminCall(second.session, "PUT", `/api/people/${second.id}/role`, { siteId: s.site.id, body: { role_id: editorRole } })).status).toBe(200);
    expect((await adminCall<ErrorBody>(session, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: editorRole } })).body.error.code).toBe("last_administrator");
  });

  it("counts only active administrators: a deactivated admin does not keep the site administered", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const second = await member(s, "admin");
    expect((await adminCall(session, "POST", `/api/people/${second.id}/deactivate`, { siteId: s.site.id })).status).toBe(200);
    const res = await adminCall<ErrorBody>(session, "PUT", `/api/people/${s.adminId}/role`, { siteId: s.site.id, body: { role_id: await roleId(s.site.id, "viewer") } });
    expect(res.body.error.code).toBe("last_administrator");
  });
});

describe("POST /api/people/{person_id}/deactivate and /reactivate", () => {
  it("stops the member's session and management credential on this site at the next request, and reactivation restores both", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const second = await member(s, "admin");
    // The same person also works on another site, which deactivation here must not touch.
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) VALUES (?, ?, ?, 1, ?)").bind(other.site.id, second.id, await roleId(other.site.id, "editor"), new Date().toISOString()).run();
    const token = await credentialOf(second.session, s.site.id);
    expect((await manage(token, "GET", "/site")).status).toBe(200);
    const app = await connect(s, { personId: second.id });
    expect((await manage(app.access_token, "GET", "/site")).status).toBe(200);

    const res = await adminCall<MemberBody>(session, "POST", `/api/people/${second.id}/deactivate`, { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ person_id: second.id, state: "deactivated", account_active: true });
    expect(await membership(s.site.id, second.id)).toMatchObject({ active: 0 });
    expect(await auditRows(s.site.id, "membership.deactivate")).toEqual([{ actor_id: s.adminId, target_id: second.id }]);

    const refused = await adminCall<ErrorBody>(second.session, "GET", "/api/media/limits", { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    const viaCredential = await manage<ErrorBody>(token, "GET", "/site");
    expect(viaCredential.status).toBe(403);
    expect(viaCredential.body.error.code).toBe("creator_unauthorized");
    expect((await manage<ErrorBody>(app.access_token, "GET", "/site")).body.error.code).toBe("creator_unauthorized");
    // The session itself lives on: the other site still works and this site is no longer listed.
    const current = await adminCall<SessionBody>(second.session, "GET", "/api/session");
    expect(current.body.sites.map((site) => site.id)).toEqual([other.site.id]);
    expect((await adminCall(second.session, "GET", "/api/media/limits", { siteId: other.site.id })).status).toBe(200);

    // Deactivating again answers unchanged and writes nothing.
    expect((await adminCall(session, "POST", `/api/people/${second.id}/deactivate`, { siteId: s.site.id })).status).toBe(200);
    expect(await auditRows(s.site.id, "membership.deactivate")).toHaveLength(1);

    const back = await adminCall<MemberBody>(session, "POST", `/api/people/${second.id}/reactivate`, { siteId: s.site.id });
    expect(back.status).toBe(200);
    expect(back.body.state).toBe("active");
    expect(await auditRows(s.site.id, "membership.reactivate")).toHaveLength(1);
    expect((await adminCall(second.session, "GET", "/api/media/limits", { siteId: s.site.id })).status).toBe(200);
    expect((await manage(token, "GET", "/site")).status).toBe(200);
    expect((await manage(app.access_token, "GET", "/site")).status).toBe(200);
  });

  it("refuses oneself, unknown and other sites' people alike, callers without role:manage, and writes without CSRF", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const editor = await member(s, "editor");
    const stranger = await member(other, "editor");

    const self = await adminCall<ErrorBody>(session, "POST", `/api/people/${s.adminId}/deactivate`, { siteId: s.site.id });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("own_membership");

    for (const action of ["deactivate", "reactivate"]) {
      const unknown = await adminCall<ErrorBody>(session, "POST", `/api/people/per_nobody/${action}`, { siteId: s.site.id });
      const foreign = await adminCall<ErrorBody>(session, "POST", `/api/people/${stranger.id}/${action}`, { siteId: s.site.id });
      expect(unknown.status).toBe(404);
      expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    }
    expect(await membership(other.site.id, stranger.id)).toMatchObject({ active: 1 });

    const byEditor = await adminCall<ErrorBody>(editor.session, "POST", `/api/people/${s.adminId}/deactivate`, { siteId: s.site.id });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe("missing_permission");
    const noCsrf = await adminCall<ErrorBody>(session, "POST", `/api/people/${editor.id}/deactivate`, { siteId: s.site.id, csrf: null });
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    expect(await membership(s.site.id, editor.id)).toMatchObject({ active: 1 });
  });

  it("leaves an administrator when two administrators deactivate each other at once", async () => {
    const s = await seedSite();
    const first = await adminSession(s);
    const second = await member(s, "admin");
    const [a, b] = await Promise.all([
      adminCall<ErrorBody>(first, "POST", `/api/people/${second.id}/deactivate`, { siteId: s.site.id }),
      adminCall<ErrorBody>(second.session, "POST", `/api/people/${s.adminId}/deactivate`, { siteId: s.site.id }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const refusal = a.status === 200 ? b : a;
    expect(["last_administrator", "forbidden"]).toContain(refusal.body.error.code);
    const active = await env.DB.prepare("SELECT COUNT(*) AS n FROM memberships WHERE site_id = ? AND active = 1").bind(s.site.id).first<{ n: number }>();
    expect(active?.n).toBe(1);
  });

  it("refuses, inside its batch, a deactivation that would leave no administrator after another one landed", async () => {
    const s = await seedSite();
    const second = await member(s, "admin");
    let meanwhile = 0;
    // The seeded admin deactivates the second one; before that batch commits, the second deactivates the first.
    const d1 = interleaved(async () => {
      meanwhile = (await adminCall(second.session, "POST", `/api/people/${s.adminId}/deactivate`, { siteId: s.site.id })).status;
    });
    const late = await deactivateMember({ ...s.ctx(), d1 }, second.id).catch((e: unknown) => e);
    expect(meanwhile).toBe(200);
    expect((late as AppError).code).toBe("last_administrator");
    expect(await membership(s.site.id, second.id)).toMatchObject({ active: 1 });
    expect(await auditRows(s.site.id, "membership.deactivate")).toEqual([{ actor_id: second.id, target_id: s.adminId }]);
  });
});

describe("DELETE /api/people/{person_id}", () => {
  it("removes the membership, revokes the member's credentials on the site, audits, and refuses oneself", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const second = await member(s, "admin");
    const token = await credentialOf(second.session, s.site.id);
    const app = await connect(s, { personId: second.id });

    const self = await adminCall<ErrorBody>(session, "DELETE", `/api/people/${s.adminId}`, { siteId: s.site.id });
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe("own_membership");

    const res = await adminCall<MemberBody & { removed: boolean }>(session, "DELETE", `/api/people/${second.id}`, { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ person_id: second.id, removed: true });
    expect(await membership(s.site.id, second.id)).toBeNull();
    expect(await auditRows(s.site.id, "membership.remove")).toEqual([{ actor_id: s.adminId, target_id: second.id }]);
    const revoked = await env.DB.prepare("SELECT revoked_at FROM management_credentials WHERE site_id = ? AND created_by = ?").bind(s.site.id, second.id).first<{ revoked_at: string | null }>();
    expect(revoked?.revoked_at).not.toBeNull();

    expect((await adminCall<ErrorBody>(second.session, "GET", "/api/media/limits", { siteId: s.site.id })).body.error.code).toBe("forbidden");
    expect((await manage<ErrorBody>(token, "GET", "/site")).body.error.code).toBe("unauthorized");
    expect((await manage<ErrorBody>(app.access_token, "GET", "/site")).body.error.code).toBe("unauthorized");
    const connection = await env.DB.prepare("SELECT revoked_reason FROM oauth_connections WHERE id = ?").bind(app.connection_id).first<{ revoked_reason: string | null }>();
    expect(connection?.revoked_reason).toBe("person");
    // Gone: a second removal is the same 404 as an unknown person.
    const again = await adminCall<ErrorBody>(session, "DELETE", `/api/people/${second.id}`, { siteId: s.site.id });
    const unknown = await adminCall<ErrorBody>(session, "DELETE", "/api/people/per_nobody", { siteId: s.site.id });
    expect(again.status).toBe(404);
    expect(withoutRequestId(again.body)).toEqual(withoutRequestId(unknown.body));
  });

  it("refuses a manager removing a wider member, and an editor removing anyone", async () => {
    const s = await seedSite();
    const manager = await member(s, await customRole(s, "manager", MANAGER));
    const editor = await member(s, "editor");
    const byManager = await adminCall<ErrorBody>(manager.session, "DELETE", `/api/people/${editor.id}`, { siteId: s.site.id });
    expect(byManager.status).toBe(403);
    expect(byManager.body.error.code).toBe("escalation_refused");
    const byEditor = await adminCall<ErrorBody>(editor.session, "DELETE", `/api/people/${manager.id}`, { siteId: s.site.id });
    expect(byEditor.body.error.code).toBe("missing_permission");
    expect(await membership(s.site.id, editor.id)).not.toBeNull();
    expect(await membership(s.site.id, manager.id)).not.toBeNull();
  });
});
