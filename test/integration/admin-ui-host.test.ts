import { describe, expect, it } from "vitest";
import { addModel, seedSite } from "../helpers/fixtures";
import { ADMIN, adminCall, emailOf, signIn } from "../helpers/admin-api";
import { workerFetch } from "../helpers/worker";

/**
 * The admin host serves the admin UI (static assets built by scripts/build-admin.mjs) and the
 * management API under a session at /api/v1 (docs/admin-ui.md). `npm test` builds the UI first.
 */

describe("admin UI files", () => {
  it("serves the app page with a strict policy at / and at every screen address", async () => {
    for (const path of ["/", "/sites/site_x/content", "/sign-in", "/invite", "/operators/sites", "/operators/sites/demo"]) {
      const res = await workerFetch(`${ADMIN}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const policy = res.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain("unsafe-inline");
      const html = await res.text();
      expect(html).toMatch(/<script type="module" src="\/assets\/app-[A-Z0-9]+\.js"><\/script>/);
      expect(html).not.toMatch(/<script>/); // no inline script
    }
  });

  it("serves hashed files for a year and 404s a file that does not exist", async () => {
    const html = await (await workerFetch(`${ADMIN}/`)).text();
    const script = /src="(\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1] ?? "";
    const res = await workerFetch(`${ADMIN}${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await res.text()).length).toBeGreaterThan(1000);
    const missing = await workerFetch(`${ADMIN}/assets/app-NOPE.js`);
    expect(missing.status).toBe(404);
    await missing.text();
  });

  it("is served on the admin host only, and only for GET and HEAD", async () => {
    const s = await seedSite();
    const onSite = await workerFetch(`http://${s.host}/`);
    expect(onSite.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    await onSite.text();
    // Only the app's own addresses are pages: anything else on the admin host is its JSON 404.
    for (const path of ["/manage.js", "/index.html", "/sitesx", "/.env", "/api/nothing"]) {
      const res = await workerFetch(`${ADMIN}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe("not_found");
    }
    const post = await workerFetch(`${ADMIN}/sites/x`, { method: "POST", body: "{}" });
    expect(post.status).toBe(404);
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("management API under a session (/api/v1)", () => {
  async function setup() {
    const s = await seedSite();
    const session = await signIn(await emailOf(s.adminId));
    const model = await addModel(s.ctx(), { slug: "page", name: "Page", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
    return { s, session, model };
  }

  it("needs a session, then a site the person belongs to", async () => {
    const { s, session } = await setup();
    const anonymous = await adminCall(undefined, "GET", "/api/v1/site", { siteId: s.site.id });
    expect(anonymous.status).toBe(401);
    const noSite = await adminCall(session, "GET", "/api/v1/site");
    expect(noSite.status).toBe(400);
    const other = await seedSite();
    const foreign = await adminCall(session, "GET", "/api/v1/site", { siteId: other.site.id });
    const unknown = await adminCall(session, "GET", "/api/v1/site", { siteId: "site_doesnotexist" });
    expect(foreign.status).toBe(403);
    expect(unknown.status).toBe(403);
    const own = await adminCall<{ id: string; credential: { scopes: string[] } }>(session, "GET", "/api/v1/site", { siteId: s.site.id });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(s.site.id);
  });

  it("runs the management operations with CSRF and Idempotency-Key, replaying a repeated click", async () => {
    const { s, session, model } = await setup();
    const body = { model_id: model.id, fields: { title: "From the browser" } };
    const noCsrf = await adminCall(session, "POST", "/api/v1/entries", { siteId: s.site.id, csrf: null, body, headers: { "idempotency-key": "click-1" } });
    expect(noCsrf.status).toBe(403);
    expect((noCsrf.body as { error: { code: string } }).error.code).toBe("csrf_failed");
    const noKey = await adminCall(session, "POST", "/api/v1/entries", { siteId: s.site.id, body });
    expect(noKey.status).toBe(400);
    const first = await adminCall<{ id: string }>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body, headers: { "idempotency-key": "click-1" } });
    expect(first.status).toBe(201);
    const again = await adminCall<{ id: string; replayed?: boolean }>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body, headers: { "idempotency-key": "click-1" } });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const list = await adminCall<{ data: { id: string }[] }>(session, "GET", `/api/v1/entries?model_id=${model.id}`, { siteId: s.site.id });
    expect(list.body.data.map((e) => e.id)).toEqual([first.body.id]);
    const bad = await adminCall<{ error: { code: string } }>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: model.id, slug: "bad-type", fields: { title: 42 } }, headers: { "idempotency-key": "click-2" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("field_validation_failed");
  });

  it("acts with the person's role now: a viewer may read but not write", async () => {
    const { s, model } = await setup();
    const viewer = await s.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const read = await adminCall(session, "GET", `/api/v1/entries?model_id=${model.id}`, { siteId: s.site.id });
    expect(read.status).toBe(200);
    const write = await adminCall<{ error: { code: string } }>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: model.id, fields: { title: "x" } }, headers: { "idempotency-key": "v-1" } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("missing_permission");
  });

  it("takes no management credential in place of the session, and names unknown routes 404", async () => {
    const { s, session } = await setup();
    const bearer = await workerFetch(`${ADMIN}/api/v1/site`, { headers: { authorization: `Bearer dwm_${"a".repeat(43)}`, "x-site-id": s.site.id } });
    expect(bearer.status).toBe(401);
    await bearer.text();
    const unknown = await adminCall(session, "GET", "/api/v1/nothing-here", { siteId: s.site.id });
    expect(unknown.status).toBe(404);
  });
});
