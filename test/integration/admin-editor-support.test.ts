import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { createEntry, saveDraft } from "../../shared/services/lifecycle";
import { adminCall, emailOf, signIn, type ErrorBody } from "../helpers/admin-api";

type Names = { data: { id: string; name: string }[] };

/**
 * Admin routes the lifecycle UI needs (docs/admin-ui-lifecycle.md): member names for lease holders
 * and version authors, and the site's public hosts for preview links. Site members only; nothing
 * about other sites' people or hosts.
 */
describe("GET /api/member-names", () => {
  it("names the site's members among the ids and leaves out everyone else", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const editor = await a.person("editor");
    const stranger = await b.person("editor");
    const session = await signIn(`${a.site.slug}@example.test`);
    const ids = [a.adminId, editor.id, stranger.id, b.adminId, "per_unknown", editor.id].join(",");
    const res = await adminCall<Names>(session, "GET", `/api/member-names?ids=${ids}`, { siteId: a.site.id });
    expect(res.status).toBe(200);
    expect(res.body.data.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [
        { id: a.adminId, name: "Admin" },
        { id: editor.id, name: "editor" },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
  });

  it("answers any member, a viewer too, and only on a site the session belongs to", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const viewer = await a.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const ok = await adminCall<Names>(session, "GET", `/api/member-names?ids=${a.adminId}`, { siteId: a.site.id });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual([{ id: a.adminId, name: "Admin" }]);
    // Another site's members through a site the viewer does not belong to: refused, no names.
    const foreign = await adminCall<ErrorBody>(session, "GET", `/api/member-names?ids=${b.adminId}`, { siteId: b.site.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe("forbidden");
    const signedOut = await adminCall<ErrorBody>(undefined, "GET", `/api/member-names?ids=${a.adminId}`, { siteId: a.site.id });
    expect(signedOut.status).toBe(401);
    const noSite = await adminCall<ErrorBody>(session, "GET", `/api/member-names?ids=${a.adminId}`);
    expect(noSite.status).toBe(400);
    expect(noSite.body.error.code).toBe("invalid_request");
  });

  it("refuses malformed, missing, too many and unknown query parameters with invalid_request", async () => {
    const a = await seedSite();
    const session = await signIn(`${a.site.slug}@example.test`);
    const many = Array.from({ length: 101 }, (_, i) => `per_${i}`).join(",");
    for (const query of ["", "?ids=", `?ids=${a.adminId}%27%20OR%201=1`, "?ids=a,,b", `?ids=${many}`, `?ids=${a.adminId}&extra=1`, `?ids=${"x".repeat(65)}`]) {
      const res = await adminCall<ErrorBody>(session, "GET", `/api/member-names${query}`, { siteId: a.site.id });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe("invalid_request");
    }
    const hundred = Array.from({ length: 99 }, (_, i) => `per_${i}`).concat(a.adminId).join(",");
    const ok = await adminCall<Names>(session, "GET", `/api/member-names?ids=${hundred}`, { siteId: a.site.id });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual([{ id: a.adminId, name: "Admin" }]);
  });
});

describe("GET /api/site-hosts", () => {
  it("answers the site's own public hosts to a member, never another site's", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const viewer = await a.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const res = await adminCall<{ data: { host: string }[] }>(session, "GET", "/api/site-hosts", { siteId: a.site.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ host: a.host }]);
    expect(JSON.stringify(res.body)).not.toContain(b.host);
    const foreign = await adminCall<ErrorBody>(session, "GET", "/api/site-hosts", { siteId: b.site.id });
    expect(foreign.status).toBe(403);
  });
});

describe("GET /api/entries/{id}/versions/{version_id}", () => {
  type VersionBody = { id: string; instance_id: string; number: number; created_by: string | null; fields: Record<string, unknown> };

  async function twoVersions() {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const first = await apply(s.ctx(), createEntry(s.ctx(), { model_id: article.id, lang: "en", fields: { title: "First title", internal_note: "secret" } }));
    const second = await apply(s.ctx(), saveDraft(s.ctx(), { instance_id: first.instance_id, expected_version_id: first.current_version_id ?? "", fields: { title: "Second title" } }));
    return { s, first, second };
  }

  it("answers an old version's values to a reader, with its number and author", async () => {
    const { s, first, second } = await twoVersions();
    const viewer = await s.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const res = await adminCall<VersionBody>(session, "GET", `/api/entries/${first.instance_id}/versions/${first.current_version_id}`, { siteId: s.site.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: first.current_version_id, instance_id: first.instance_id, number: 1, created_by: s.adminId });
    expect(res.body.fields.title).toBe("First title");
    const latest = await adminCall<VersionBody>(session, "GET", `/api/entries/${first.instance_id}/versions/${second.current_version_id}`, { siteId: s.site.id });
    expect(latest.body.number).toBe(2);
    expect(latest.body.fields.title).toBe("Second title");
  });

  it("is 404 for a version of another entry, of another site, an unknown entry, and 401 signed out", async () => {
    const { s, first } = await twoVersions();
    const other = await twoVersions();
    const session = await signIn(`${s.site.slug}@example.test`);
    const otherEntry = await apply(s.ctx(), createEntry(s.ctx(), { model_id: first.model_id, lang: "en", fields: { title: "Other" } }));
    const cases = [
      `/api/entries/${otherEntry.instance_id}/versions/${first.current_version_id}`,
      `/api/entries/${first.instance_id}/versions/${other.first.current_version_id}`,
      `/api/entries/${other.first.instance_id}/versions/${other.first.current_version_id}`,
      `/api/entries/ent_unknown/versions/${first.current_version_id}`,
    ];
    for (const path of cases) {
      const res = await adminCall<ErrorBody>(session, "GET", path, { siteId: s.site.id });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("not_found");
    }
    const signedOut = await adminCall<ErrorBody>(undefined, "GET", cases[0] ?? "", { siteId: s.site.id });
    expect(signedOut.status).toBe(401);
    const tooLong = await adminCall<ErrorBody>(session, "GET", `/api/entries/${"e".repeat(101)}/versions/x`, { siteId: s.site.id });
    expect(tooLong.status).toBe(400);
  });
});

describe("the seeded demo editor (scripts/seed/editor.ts)", () => {
  it("is created once, as an Editor of the given site only, and can sign in", async () => {
    const { ensureDemoEditor, DEMO_EDITOR } = await import("../../scripts/seed/editor");
    const a = await seedSite();
    const b = await seedSite();
    const existing = await env.DB.prepare("SELECT id FROM persons WHERE email = ?").bind(DEMO_EDITOR.email).first<{ id: string }>();
    expect(existing).toBeNull();
    const login = await ensureDemoEditor(env.DB, a.site.id, new Date().toISOString());
    expect(login).toEqual({ email: DEMO_EDITOR.email, password: DEMO_EDITOR.password });
    // A second run writes nothing (idempotent seed).
    await ensureDemoEditor(env.DB, a.site.id, new Date().toISOString());
    const persons = await env.DB.prepare("SELECT id FROM persons WHERE email = ?").bind(DEMO_EDITOR.email).all<{ id: string }>();
    expect(persons.results).toHaveLength(1);
    const session = await signIn(DEMO_EDITOR.email, DEMO_EDITOR.password);
    expect(session.body.sites).toEqual([{ id: a.site.id, slug: a.site.slug, name: a.site.name, role: "editor", suspended: false }]);
    expect(session.body.sites.some((s) => s.id === b.site.id)).toBe(false);
  });
});
