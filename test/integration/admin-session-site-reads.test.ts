import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { seedSite } from "../helpers/fixtures";
import { adminCall, roleId, signIn, withoutRequestId, type ErrorBody } from "../helpers/admin-api";

/**
 * A session request on a site reads the session, its person's membership on the X-Site-Id site and
 * the site in one D1 batch (shared/auth/session-site.ts). These pin the answers that must not move
 * with that, on an admin site route and on the management API under a session (/api/v1): the
 * session before the site, CSRF before membership, the membership the session's own person holds.
 */

const ROUTES = [
  { name: "admin site route", read: "/api/site-tokens", write: "/api/site-tokens" },
  { name: "/api/v1 bridge", read: "/api/v1/models", write: "/api/v1/models" },
] as const;

describe.each(ROUTES)("session on a site: $name", (route) => {
  it("refuses the session before anything about the site, and the site the same 403 whether unknown or foreign", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    expect((await adminCall(session, "GET", route.read, { siteId: s.site.id })).status).toBe(200);

    // Another person's membership does not lend itself: the batch keys it by this session's person.
    const foreign = await adminCall<ErrorBody>(session, "GET", route.read, { siteId: other.site.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    const unknown = await adminCall<ErrorBody>(session, "GET", route.read, { siteId: "site_doesnotexist" });
    expect(unknown.status).toBe(403);
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(foreign.body));
    expect((await adminCall<ErrorBody>(session, "GET", route.read, { siteId: "not a site" })).status).toBe(403);
    const missing = await adminCall<ErrorBody>(session, "GET", route.read);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("invalid_request");

    // No session, an unknown one, an expired one: 401 even with a site the person is a member of.
    expect((await adminCall<ErrorBody>(undefined, "GET", route.read, { siteId: s.site.id })).status).toBe(401);
    const forged = { ...session, cookie: `dw_session=dws_${"A".repeat(43)}` };
    expect((await adminCall<ErrorBody>(forged, "GET", route.read, { siteId: s.site.id })).status).toBe(401);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id_digest = ?").bind(new Date(Date.now() - 1000).toISOString(), await sha256Hex(session.secret)).run();
    const expired = await adminCall<ErrorBody>(session, "GET", route.read, { siteId: s.site.id });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("unauthorized");
    expect((await adminCall<ErrorBody>(session, "GET", route.read, { siteId: other.site.id })).status).toBe(401);
  });

  it("asks a write's CSRF token before the membership, and re-reads the membership and role on every request", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const noToken = await adminCall<ErrorBody>(session, "POST", route.write, { siteId: other.site.id, body: {}, csrf: null });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error.code).toBe("csrf_failed");

    await env.DB.prepare("UPDATE memberships SET role_id = ? WHERE site_id = ? AND person_id = ?").bind(await roleId(s.site.id, "viewer"), s.site.id, s.adminId).run();
    const asViewer = await adminCall<ErrorBody>(session, "GET", "/api/people", { siteId: s.site.id });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.code).toBe("missing_permission");
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE site_id = ? AND person_id = ?").bind(s.site.id, s.adminId).run();
    const gone = await adminCall<ErrorBody>(session, "GET", route.read, { siteId: s.site.id });
    expect(gone.status).toBe(403);
    expect(gone.body.error.code).toBe("forbidden");
    await env.DB.prepare("UPDATE memberships SET active = 1 WHERE site_id = ? AND person_id = ?").bind(s.site.id, s.adminId).run();
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(s.adminId).run();
    const deactivated = await adminCall<ErrorBody>(session, "GET", route.read, { siteId: s.site.id });
    expect(deactivated.status).toBe(401);
    expect(deactivated.body.error.code).toBe("unauthorized");
  });
});
