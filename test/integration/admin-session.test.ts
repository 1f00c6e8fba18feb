import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { clearedSessionCookie, sessionCookie } from "../../workers/admin/cookies";
import { seedSite } from "../helpers/fixtures";
import { ADMIN, adminCall, emailOf, postSignIn, roleId, signIn, withoutRequestId, type ErrorBody, type SessionBody } from "../helpers/admin-api";
import { workerFetch } from "../helpers/worker";

const DAY_MS = 24 * 60 * 60 * 1000;

async function tokenCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM site_api_tokens WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? -1;
}

async function auditCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND action LIKE 'site_token.%'").bind(siteId).first<{ n: number }>();
  return row?.n ?? -1;
}

describe("POST /api/session", () => {
  it("signs in, sets an HttpOnly SameSite=Lax cookie and stores only digests", async () => {
    const s = await seedSite();
    const res = await postSignIn<SessionBody>(`${s.site.slug}@example.test`, "correct horse");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const setCookie = res.headers.get("set-cookie") ?? "";
    const secret = /^dw_session=(dws_[A-Za-z0-9_-]{43});/.exec(setCookie)?.[1];
    expect(secret).toBeDefined();
    const attributes = setCookie.split(";").map((a) => a.trim().toLowerCase());
    expect(attributes).toContain("httponly");
    expect(attributes).toContain("samesite=lax");
    expect(attributes).toContain("path=/");
    expect(attributes).toContain(`max-age=${(14 * DAY_MS) / 1000}`);
    expect(attributes).not.toContain("secure"); // admin.localhost runs over http

    expect(res.body.person).toEqual({ id: s.adminId, email: `${s.site.slug}@example.test`, name: "Admin", superadmin: false });
    expect(res.body.sites).toEqual([{ id: s.site.id, slug: s.site.slug, name: s.site.name, role: "admin", suspended: false }]);
    expect(res.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(res.body).sort()).toEqual(["csrf_token", "person", "sites"]);

    const rows = await env.DB.prepare("SELECT * FROM sessions WHERE person_id = ?").bind(s.adminId).all<Record<string, string>>();
    expect(rows.results).toHaveLength(1);
    const row = rows.results[0] ?? {};
    expect(row.id_digest).toBe(await sha256Hex(secret ?? ""));
    expect(row.csrf_digest).toBe(await sha256Hex(res.body.csrf_token));
    expect(JSON.stringify(row)).not.toContain(secret ?? "-");
    expect(JSON.stringify(row)).not.toContain(res.body.csrf_token);
    const lifetime = Date.parse(row.expires_at ?? "") - Date.parse(row.created_at ?? "");
    expect(lifetime).toBe(14 * DAY_MS);
  });

  it("marks the cookie Secure on an admin host that is not localhost", () => {
    expect(sessionCookie("dws_x", "admin.example.com")).toMatch(/; Secure$/);
    expect(sessionCookie("dws_x", "localhost")).not.toContain("Secure");
    expect(clearedSessionCookie("admin.example.com")).toContain("Max-Age=0");
  });

  it("answers a wrong password, an unknown email and a deactivated person with the same 401", async () => {
    const s = await seedSite();
    const email = `${s.site.slug}@example.test`;
    const wrong = await postSignIn<ErrorBody>(email, "wrong horse");
    const unknown = await postSignIn<ErrorBody>(`nobody-${s.site.slug}@example.test`, "correct horse");
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("unauthorized");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(wrong.body));
    expect(unknown.status).toBe(401);

    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(s.adminId).run();
    const inactive = await postSignIn<ErrorBody>(email, "correct horse");
    expect(inactive.status).toBe(401);
    expect(withoutRequestId(inactive.body)).toEqual(withoutRequestId(wrong.body));
    const sessions = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE person_id = ?").bind(s.adminId).first<{ n: number }>();
    expect(sessions?.n).toBe(0);
  });

  it("accepts the email in any case and refuses bodies that are not closed JSON", async () => {
    const s = await seedSite();
    expect((await postSignIn(`${s.site.slug.toUpperCase()}@EXAMPLE.TEST`, "correct horse")).status).toBe(200);
    const extra = await workerFetch(`${ADMIN}/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${s.site.slug}@example.test`, password: "correct horse", remember: true }),
    });
    expect(extra.status).toBe(400);
    const form = await workerFetch(`${ADMIN}/api/session`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ email: `${s.site.slug}@example.test`, password: "correct horse" }),
    });
    expect(form.status).toBe(400);
    expect(((await form.json()) as ErrorBody).error.code).toBe("invalid_request");
  });
});

describe("GET and DELETE /api/session", () => {
  it("answers the live session with its CSRF token, and 401 without one", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const current = await adminCall<SessionBody>(session, "GET", "/api/session");
    expect(current.status).toBe(200);
    expect(current.body).toEqual(session.body);

    const none = await adminCall<ErrorBody>(undefined, "GET", "/api/session");
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("unauthorized");
    const forged = await workerFetch(`${ADMIN}/api/session`, { headers: { cookie: `dw_session=dws_${"A".repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it("refuses an expired session", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id_digest = ?").bind(new Date(Date.now() - 1000).toISOString(), await sha256Hex(session.secret)).run();
    expect((await adminCall(session, "GET", "/api/session")).status).toBe(401);
  });

  it("signs out with the CSRF token; the cookie then no longer works", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const out = await adminCall(session, "DELETE", "/api/session");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^dw_session=; .*Max-Age=0/);
    expect((await adminCall(session, "GET", "/api/session")).status).toBe(401);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE id_digest = ?").bind(await sha256Hex(session.secret)).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("ends the session at once when the person is deactivated", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(s.adminId).run();
    expect((await adminCall(session, "GET", "/api/session")).status).toBe(401);
  });
});

describe("CSRF on admin writes", () => {
  it("refuses a write without or with a wrong X-CSRF-Token with 403 csrf_failed and writes nothing", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const otherSession = await signIn(`${other.site.slug}@example.test`);
    const body = { name: "Frontend", model_ids: ["mdl_whatever"] };
    for (const csrf of [null, "", "not-the-token", otherSession.csrf]) {
      const res = await adminCall<ErrorBody>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body, csrf });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("csrf_failed");
    }
    expect(await tokenCount(s.site.id)).toBe(0);
    expect(await auditCount(s.site.id)).toBe(0);

    const signOut = await adminCall<ErrorBody>(session, "DELETE", "/api/session", { csrf: null });
    expect(signOut.status).toBe(403);
    expect(signOut.body.error.code).toBe("csrf_failed");
    expect((await adminCall(session, "GET", "/api/session")).status).toBe(200);
  });

  it("does not ask reads for a token", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    expect((await adminCall(session, "GET", "/api/site-tokens", { siteId: s.site.id, csrf: null })).status).toBe(200);
  });
});

describe("X-Site-Id and membership", () => {
  it("refuses a site the person is not a member of, and an unknown site, with the same 403", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const foreign = await adminCall<ErrorBody>(session, "GET", "/api/site-tokens", { siteId: other.site.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    const unknown = await adminCall<ErrorBody>(session, "GET", "/api/site-tokens", { siteId: "site_doesnotexist" });
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(foreign.body));
    expect(unknown.status).toBe(403);
    const missing = await adminCall<ErrorBody>(session, "GET", "/api/site-tokens");
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("invalid_request");
  });

  it("refuses at once when the membership is deactivated", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    expect((await adminCall(session, "GET", "/api/site-tokens", { siteId: s.site.id })).status).toBe(200);
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, s.adminId).run();
    expect((await adminCall(session, "GET", "/api/site-tokens", { siteId: s.site.id })).status).toBe(403);
    expect((await adminCall<SessionBody>(session, "GET", "/api/session")).body.sites).toEqual([]);
  });
});

describe("permissions are re-read on every request", () => {
  it("refuses at once after the person's role changes in D1", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const list = () => adminCall<ErrorBody>(session, "GET", "/api/site-tokens", { siteId: s.site.id });
    expect((await list()).status).toBe(200);

    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "editor"), s.site.id, s.adminId).run();
    const asEditor = await list();
    expect(asEditor.status).toBe(403);
    expect(asEditor.body.error.code).toBe("missing_permission");

    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "admin"), s.site.id, s.adminId).run();
    expect((await list()).status).toBe(200);
    // Editing the role's own permission set holds at once too.
    await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = ?").bind(JSON.stringify({ models: { "*": ["read"] }, system: [] }), await roleId(s.site.id, "admin")).run();
    expect((await list()).status).toBe(403);
  });

  it("gives another member the permissions of their own role", async () => {
    const s = await seedSite();
    const editor = await s.person("editor");
    const session = await signIn(await emailOf(editor.id), "pw");
    expect(session.body.sites).toEqual([{ id: s.site.id, slug: s.site.slug, name: s.site.name, role: "editor", suspended: false }]);
    const res = await adminCall<ErrorBody>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "x", model_ids: ["mdl_x"] } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("missing_permission");
  });
});

describe("admin host dispatch", () => {
  it("answers unknown admin paths with 404 and leaves site hosts on the public API", async () => {
    const s = await seedSite();
    const res = await workerFetch(`${ADMIN}/api/nothing`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorBody).error.code).toBe("not_found");
    expect((await workerFetch(`http://${s.host}/health`)).status).toBe(200);
    expect((await workerFetch(`http://${s.host}/api/session`)).status).toBe(404);
  });
});
