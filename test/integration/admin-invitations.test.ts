import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../shared/clock";
import { sha256Hex } from "../../shared/crypto/digest";
import { createDb } from "../../shared/db/client";
import { AppError } from "../../shared/errors";
import { acceptInvitation } from "../../shared/services/people/accept";
import { adminCall, postSignIn, roleId, withoutRequestId, type ErrorBody, type SessionBody } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { streamUpload } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { accept, adminSession, auditRows, customRole, freshEmail, inspect, interleaved, invite, invited, member, sessionOf, tokenOf, type InvitationBody } from "../helpers/people-api";

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = "a long enough password";

type Issues = ErrorBody & { error: { issues: { path: string }[] } };

async function invitationRow(id: string): Promise<Record<string, unknown> | null> {
  return env.DB.prepare("SELECT * FROM invitations WHERE id = ?").bind(id).first();
}

describe("POST /api/invitations", () => {
  it("answers 201 with the single-use link once, stores only the digest, lists it without the token, and audits", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const editorRole = await roleId(s.site.id, "editor");
    const res = await invite(session, s.site.id, "  New.Editor@Example.TEST ", editorRole);
    expect(res.status).toBe(201);
    const body = res.body;
    expect(body).toMatchObject({ email: "new.editor@example.test", role: { id: editorRole, slug: "editor", name: "Editor" }, invited_by: s.adminId });
    expect(body.id).toMatch(/^inv_/);
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(7 * DAY_MS);
    expect(body.link).toMatch(/^http:\/\/admin\.localhost\/invite#dwi_[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(body.link);

    const row = await invitationRow(body.id);
    expect(row?.digest).toBe(await sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(await auditRows(s.site.id, "invitation.create")).toEqual([{ actor_id: s.adminId, target_id: body.id }]);

    const list = await adminCall<{ data: InvitationBody[] }>(session, "GET", "/api/invitations", { siteId: s.site.id });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ id: body.id, email: body.email, role: body.role, invited_by: s.adminId, created_at: body.created_at, expires_at: body.expires_at }]);
    expect(JSON.stringify(list.body)).not.toContain(token);
  });

  it("refuses bad emails and bodies (400), unknown roles (422), wider roles (403), members (409), missing role:manage and CSRF", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const viewer = await roleId(s.site.id, "viewer");
    for (const email of ["not-an-email", "a@b", "", "x\u0000@example.test", `${"a".repeat(320)}@example.test`, 42]) {
      const res = await adminCall<ErrorBody>(session, "POST", "/api/invitations", { siteId: s.site.id, body: { email, role_id: viewer } });
      expect(res.status, String(email)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const extra = await adminCall<ErrorBody>(session, "POST", "/api/invitations", { siteId: s.site.id, body: { email: freshEmail(), role_id: viewer, admin: true } });
    expect(extra.status).toBe(400);

    for (const role of ["role_nope", await roleId(other.site.id, "viewer")]) {
      const res = await invite(session, s.site.id, freshEmail(), role);
      expect(res.status).toBe(422);
      expect((res.body as unknown as ErrorBody).error.code).toBe("unknown_role");
    }

    const manager = await member(s, await customRole(s, "manager", { models: { "*": ["read"] }, system: ["role:manage"] }));
    const wider = await invite(manager.session, s.site.id, freshEmail(), await roleId(s.site.id, "editor"));
    expect(wider.status).toBe(403);
    expect((wider.body as unknown as ErrorBody).error.code).toBe("escalation_refused");
    expect((await invite(manager.session, s.site.id, freshEmail(), viewer)).status).toBe(201);

    const editor = await member(s, "editor");
    const active = await invite(session, s.site.id, editor.email.toUpperCase(), viewer);
    expect(active.status).toBe(409);
    expect((active.body as unknown as ErrorBody & { error: { state: string } }).error).toMatchObject({ code: "already_member", state: "active" });
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, editor.id).run();
    const deactivated = await invite(session, s.site.id, editor.email, viewer);
    expect((deactivated.body as unknown as ErrorBody & { error: { state: string } }).error).toMatchObject({ code: "already_member", state: "deactivated" });

    const byViewer = await member(s, "viewer");
    expect(((await invite(byViewer.session, s.site.id, freshEmail(), viewer)).body as unknown as ErrorBody).error.code).toBe("missing_permission");
    const noCsrf = await adminCall<ErrorBody>(session, "POST", "/api/invitations", { siteId: s.site.id, body: { email: freshEmail(), role_id: viewer }, csrf: null });
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    expect((await adminCall<ErrorBody>(undefined, "POST", "/api/invitations", { siteId: s.site.id, body: { email: freshEmail(), role_id: viewer } })).status).toBe(401);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM invitations WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("lets the newest invitation of an email replace a pending one", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const email = freshEmail();
    const first = await invited(session, s, email, "viewer");
    const second = await invited(session, s, email, "author");
    expect((await inspect<ErrorBody>(first.token)).body.error.code).toBe("invitation_not_found");
    expect((await inspect<{ role: { name: string } }>(second.token)).body.role.name).toBe("Author");
    const list = await adminCall<{ data: InvitationBody[] }>(session, "GET", "/api/invitations", { siteId: s.site.id });
    expect(list.body.data.map((i) => i.id)).toEqual([second.invitation.id]);
  });
});

describe("DELETE /api/invitations/{id}", () => {
  it("revokes: the link stops at once; other sites' and unknown ids are the same 404; audited", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const { invitation, token } = await invited(session, s, freshEmail(), "editor");
    const theirs = await invited(await adminSession(other), other, freshEmail(), "editor");

    const foreign = await adminCall<ErrorBody>(session, "DELETE", `/api/invitations/${theirs.invitation.id}`, { siteId: s.site.id });
    const unknown = await adminCall<ErrorBody>(session, "DELETE", "/api/invitations/inv_nope", { siteId: s.site.id });
    expect(unknown.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    expect((await inspect(theirs.token)).status).toBe(200);

    const noCsrf = await adminCall<ErrorBody>(session, "DELETE", `/api/invitations/${invitation.id}`, { siteId: s.site.id, csrf: null });
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    const res = await adminCall<InvitationBody & { revoked: boolean }>(session, "DELETE", `/api/invitations/${invitation.id}`, { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: invitation.id, revoked: true });
    expect((await inspect<ErrorBody>(token)).body.error.code).toBe("invitation_not_found");
    expect((await accept<ErrorBody>({ token, name: "N", password: PASSWORD })).status).toBe(404);
    expect(await auditRows(s.site.id, "invitation.revoke")).toHaveLength(1);
    expect((await adminCall(session, "DELETE", `/api/invitations/${invitation.id}`, { siteId: s.site.id })).status).toBe(200);
    expect(await auditRows(s.site.id, "invitation.revoke")).toHaveLength(1);
    expect((await adminCall<{ data: unknown[] }>(session, "GET", "/api/invitations", { siteId: s.site.id })).body.data).toEqual([]);
  });
});

describe("POST /api/invitations/inspect", () => {
  it("shows site name, email, role name and expiry without ids, and one identical 404 for every dead token", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const email = freshEmail();
    const { invitation, token } = await invited(session, s, email, "editor");
    const res = await inspect(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ site: { name: s.site.name }, email, role: { name: "Editor" }, expires_at: invitation.expires_at, account_exists: false });
    const text = JSON.stringify(res.body);
    for (const id of [s.site.id, invitation.id, invitation.role.id, s.adminId]) expect(text).not.toContain(id);

    const used = await invited(session, s, freshEmail(), "viewer");
    expect((await accept({ token: used.token, name: "Used", password: PASSWORD })).status).toBe(200);
    const expired = await invited(session, s, freshEmail(), "viewer");
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), expired.invitation.id).run();
    const revoked = await invited(session, s, freshEmail(), "viewer");
    await adminCall(session, "DELETE", `/api/invitations/${revoked.invitation.id}`, { siteId: s.site.id });

    const dead = [used.token, expired.token, revoked.token, `dwi_${"A".repeat(43)}`, "dwi_short", `dwm_${token.slice(4)}`, "x"];
    const answers = await Promise.all(dead.map((t) => inspect<ErrorBody>(t)));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(withoutRequestId(answer.body)).toEqual(withoutRequestId(answers[0]?.body));
    }
    expect(answers[0]?.body.error.code).toBe("invitation_not_found");
    expect((await inspect(token)).status).toBe(200);
    const bad = await adminCall<ErrorBody>(undefined, "POST", "/api/invitations/inspect", { body: { token, more: 1 } });
    expect(bad.status).toBe(400);
  });

  it("lapses when the inviter can no longer grant the role", async () => {
    const s = await seedSite();
    const second = await member(s, "admin");
    const { token } = await invited(second.session, s, freshEmail(), "editor");
    expect((await inspect(token)).status).toBe(200);
    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "viewer"), s.site.id, second.id).run();
    expect((await inspect<ErrorBody>(token)).body.error.code).toBe("invitation_not_found");
    expect((await accept<ErrorBody>({ token, name: "N", password: PASSWORD })).status).toBe(404);
  });
});

describe("POST /api/invitations/accept", () => {
  it("creates the person and membership, starts a session, and the invitee works within their role and no further", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const email = freshEmail("editor");
    const { invitation, token } = await invited(session, s, email, "editor");

    const short = await accept<Issues>({ token, name: "Ed", password: "elevenchars" });
    expect(short.status).toBe(400);
    expect(short.body.error.issues.map((i) => i.path)).toEqual(["password"]);
    const noName = await accept<Issues>({ token, name: "   ", password: PASSWORD });
    expect(noName.body.error.issues.map((i) => i.path)).toEqual(["name"]);
    for (const name of ["Ed\u0000", "Ed\u202Eevil", "\uD800", "x".repeat(201)]) {
      const bad = await accept<Issues>({ token, name, password: PASSWORD });
      expect(bad.status, JSON.stringify(name)).toBe(400);
      expect(bad.body.error.issues.map((i) => i.path)).toEqual(["name"]);
    }
    const extra = await accept<ErrorBody>({ token, name: "Ed", password: PASSWORD, role_id: "x" });
    expect(extra.status).toBe(400);

    const res = await accept({ token, name: "  Ed Itor ", password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^dw_session=dws_[A-Za-z0-9_-]{43};.*HttpOnly/);
    expect(res.body.person).toMatchObject({ email, name: "Ed Itor" });
    expect(res.body.sites).toEqual([{ id: s.site.id, slug: s.site.slug, name: s.site.name, role: "editor", suspended: false }]);
    expect(res.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const personId = res.body.person.id;
    const person = await env.DB.prepare("SELECT password_hash, active FROM persons WHERE id = ?").bind(personId).first<{ password_hash: string; active: number }>();
    expect(person?.active).toBe(1);
    expect(person?.password_hash).not.toContain(PASSWORD);
    expect(await invitationRow(invitation.id)).toMatchObject({ accepted_by: personId });
    expect((await invitationRow(invitation.id))?.accepted_at).not.toBeNull();
    expect(await auditRows(s.site.id, "invitation.accept")).toEqual([{ actor_id: personId, target_id: invitation.id }]);

    // The started session works; so does signing in later with the new password.
    const invitee = sessionOf(res);
    expect((await adminCall(invitee, "GET", "/api/media/limits", { siteId: s.site.id })).status).toBe(200);
    const later = await postSignIn<SessionBody>(email, PASSWORD);
    expect(later.status).toBe(200);
    const signedIn = sessionOf(later);
    // Within the role: an editor uploads media. Beyond it: tokens, credentials and people need more.
    expect((await streamUpload(signedIn, s.site.id, png(2, 2, "invitee"), { fields: { name: "invitee.png" } })).status).toBe(201);
    for (const [method, path, body] of [
      ["POST", "/api/site-tokens", { name: "t", model_ids: ["x"] }],
      ["POST", "/api/invitations", { email: freshEmail(), role_id: await roleId(s.site.id, "viewer") }],
      ["GET", "/api/people", undefined],
    ] as const) {
      const refused = await adminCall<ErrorBody>(signedIn, method, path, { siteId: s.site.id, ...(body ? { body } : {}) });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe("missing_permission");
    }

    // Used once: a second accept is the same 404 as an unknown token.
    const again = await accept<ErrorBody>({ token, name: "Again", password: PASSWORD });
    const unknown = await accept<ErrorBody>({ token: `dwi_${"B".repeat(43)}`, name: "Again", password: PASSWORD });
    expect(again.status).toBe(404);
    expect(withoutRequestId(again.body)).toEqual(withoutRequestId(unknown.body));
  });

  it("accepts a token once when accepts race", async () => {
    const s = await seedSite();
    const email = freshEmail("racer");
    const { token } = await invited(await adminSession(s), s, email, "viewer");
    const answers = await Promise.all([1, 2, 3, 4].map((n) => accept<ErrorBody>({ token, name: `Racer ${n}`, password: PASSWORD })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404]);
    for (const a of answers.filter((x) => x.status === 404)) expect(a.body.error.code).toBe("invitation_not_found");
    const persons = await env.DB.prepare("SELECT COUNT(*) AS n FROM persons WHERE email = ?").bind(email).first<{ n: number }>();
    expect(persons?.n).toBe(1);
    const members = await env.DB.prepare("SELECT COUNT(*) AS n FROM memberships m JOIN persons p ON p.id = m.person_id WHERE m.site_id = ? AND p.email = ?").bind(s.site.id, email).first<{ n: number }>();
    expect(members?.n).toBe(1);
  });

  it("refuses, inside its batch, an accept whose token another accept used after its checks", async () => {
    const s = await seedSite();
    const email = freshEmail("late");
    const { invitation, token } = await invited(await adminSession(s), s, email, "viewer");
    let first = 0;
    const d1 = interleaved(async () => {
      first = (await accept({ token, name: "First", password: PASSWORD })).status;
    });
    const late = await acceptInvitation({ db: createDb(env.DB), d1, clock: systemClock }, { token, name: "Late", password: PASSWORD }, null).catch((e: unknown) => e);
    expect(first).toBe(200);
    expect(late).toBeInstanceOf(AppError);
    expect((late as AppError).code).toBe("invitation_not_found");
    const row = await env.DB.prepare("SELECT p.name FROM invitations i JOIN persons p ON p.id = i.accepted_by WHERE i.id = ?").bind(invitation.id).first<{ name: string }>();
    expect(row?.name).toBe("First");
  });

  it("drops pending invitations with their role when the role is deleted", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const role = await customRole(s, "temp", { models: { "*": ["read"] }, system: [] });
    const res = await invite(session, s.site.id, freshEmail(), role);
    expect(res.status).toBe(201);
    const removed = await manage(await credential(s), "POST", `/roles/${role}/remove`);
    expect(removed.status).toBe(200);
    expect((await inspect<ErrorBody>(tokenOf(res.body.link))).body.error.code).toBe("invitation_not_found");
  });

  it("refuses an expired token with the same 404", async () => {
    const s = await seedSite();
    const { invitation, token } = await invited(await adminSession(s), s, freshEmail(), "viewer");
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?").bind(new Date(Date.now() - 1).toISOString(), invitation.id).run();
    const res = await accept<ErrorBody>({ token, name: "Late", password: PASSWORD });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("invitation_not_found");
    expect((await invitationRow(invitation.id))?.accepted_at).toBeNull();
  });

  it("adds a membership to an existing account with its own password, throttled like sign-in", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const existing = await member(other, "editor");
    const { invitation, token } = await invited(await adminSession(s), s, existing.email, "author");
    expect((await inspect<{ account_exists: boolean }>(token)).body.account_exists).toBe(true);

    const wrong = await accept<ErrorBody>({ token, password: "not it" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("unauthorized");
    expect((await invitationRow(invitation.id))?.accepted_at).toBeNull();

    const res = await accept({ token, name: "Ignored", password: "pw" });
    expect(res.status).toBe(200);
    expect(res.body.person).toEqual({ id: existing.id, email: existing.email, name: "Member", superadmin: false });
    expect(res.body.sites.map((site) => [site.id, site.role]).sort()).toEqual([[other.site.id, "editor"], [s.site.id, "author"]].sort());
    expect((await postSignIn(existing.email, "pw")).status).toBe(200);
  });

  it("counts wrong passwords of an existing account in the sign-in throttle (429)", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const existing = await member(other, "viewer");
    const { token } = await invited(await adminSession(s), s, existing.email, "viewer");
    for (let i = 0; i < 5; i++) expect((await accept({ token, password: `wrong ${i}` })).status).toBe(401);
    const throttled = await accept<ErrorBody>({ token, password: "pw" });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error.code).toBe("rate_limited");
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    // Sign-in counts in the same counter.
    expect((await postSignIn(existing.email, "pw")).status).toBe(429);
  });

  it("refuses an account that became a member meanwhile (409) and a deactivated account (401)", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await adminSession(s);
    const existing = await member(other, "viewer");
    const { token } = await invited(session, s, existing.email, "viewer");
    await env.DB.prepare("INSERT INTO memberships (site_id, person_id, role_id, active, created_at) VALUES (?, ?, ?, 0, ?)").bind(s.site.id, existing.id, await roleId(s.site.id, "viewer"), new Date().toISOString()).run();
    const member409 = await accept<ErrorBody>({ token, password: "pw" });
    expect(member409.status).toBe(409);
    expect(member409.body.error.code).toBe("already_member");
    // A deactivated membership is not brought back by an invitation.
    const row = await env.DB.prepare("SELECT active FROM memberships WHERE site_id = ? AND person_id = ?").bind(s.site.id, existing.id).first<{ active: number }>();
    expect(row?.active).toBe(0);

    const disabled = await member(other, "viewer");
    const second = await invited(session, s, disabled.email, "viewer");
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(disabled.id).run();
    expect((await accept<ErrorBody>({ token: second.token, password: "pw" })).body.error.code).toBe("unauthorized");
  });
});
