import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, ADMIN, emailOf, signIn, type ErrorBody } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { uploadMedia, type MediaAnswer } from "../helpers/media-api";
import { pdf, png } from "../helpers/media-samples";

/** GET /api/media/{id}/file as raw bytes (adminCall parses JSON). */
async function file(cookie: string | null, siteId: string | null, id: string, method = "GET") {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (siteId) headers["x-site-id"] = siteId;
  const response = await SELF.fetch(`${ADMIN}/api/media/${id}/file`, { method, headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = (response.headers.get("content-type") ?? "").startsWith("application/json") ? (JSON.parse(new TextDecoder().decode(bytes)) as ErrorBody) : null;
  return { status: response.status, headers: response.headers, bytes, code: json?.error.code };
}

describe("GET /api/media/{id}/file (admin previews)", () => {
  it("serves a member the current file's bytes: private, never cached, sandboxed, inline for an image and attachment for a document", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const image = png(3, 2, "preview");
    const up = await uploadMedia<MediaAnswer>(token, { bytes: image, name: "tide chart.png" });
    expect(up.status).toBe(201);
    const session = await signIn(`${s.site.slug}@example.test`);

    const got = await file(session.cookie, s.site.id, up.body.media.id);
    expect(got.status).toBe(200);
    expect(got.bytes).toEqual(image);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("content-length")).toBe(String(image.byteLength));
    expect(got.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''tide%20chart.png");
    expect(got.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("cache-control")).toBe("private, no-store");

    const doc = await uploadMedia<MediaAnswer>(token, { bytes: pdf("notes"), name: "notes.pdf", type: "application/pdf" });
    expect(doc.status).toBe(201);
    const pdfFile = await file(session.cookie, s.site.id, doc.body.media.id);
    expect(pdfFile.status).toBe(200);
    expect(pdfFile.headers.get("content-disposition")).toMatch(/^attachment;/);

    // Any member reads it, as getMedia: a viewer too.
    const viewer = await s.person("viewer");
    const viewerSession = await signIn(await emailOf(viewer.id), "pw");
    expect((await file(viewerSession.cookie, s.site.id, up.body.media.id)).status).toBe(200);
  });

  it("refuses without a session (401), without a site (400), another site's member (403) and another site's media id (404), in the error envelope", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const up = await uploadMedia<MediaAnswer>(await credential(a), { bytes: png(1, 1, "a"), name: "a.png" });
    const id = up.body.media.id;
    const aSession = await signIn(`${a.site.slug}@example.test`);
    const bSession = await signIn(`${b.site.slug}@example.test`);

    const anonymous = await file(null, a.site.id, id);
    expect([anonymous.status, anonymous.code]).toEqual([401, "unauthorized"]);
    const forged = await file("dw_session=not-a-session", a.site.id, id);
    expect([forged.status, forged.code]).toEqual([401, "unauthorized"]);
    const noSite = await file(aSession.cookie, null, id);
    expect(noSite.status).toBe(400);
    expect(noSite.bytes.length).toBeGreaterThan(0);
    const notMember = await file(bSession.cookie, a.site.id, id);
    expect([notMember.status, notMember.code]).toEqual([403, "forbidden"]);
    // Site B's member naming site A's media id on site B: no such item there.
    const crossSite = await file(bSession.cookie, b.site.id, id);
    expect([crossSite.status, crossSite.code]).toEqual([404, "not_found"]);
    expect(crossSite.bytes.length).toBeLessThan(400);
  });

  it("answers 404 for an unknown or removed item, 400 for an over-long id, 405 for another method", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const up = await uploadMedia<MediaAnswer>(token, { bytes: png(1, 1, "gone"), name: "gone.png" });
    const session = await signIn(`${s.site.slug}@example.test`);

    expect((await file(session.cookie, s.site.id, "med_doesnotexist")).code).toBe("not_found");
    // Any id is looked up within the site only; one longer than the table allows is refused first.
    expect((await file(session.cookie, s.site.id, "med_%3Cscript%3E")).code).toBe("not_found");
    const malformed = await file(session.cookie, s.site.id, `med_${"x".repeat(100)}`);
    expect([malformed.status, malformed.code]).toEqual([400, "invalid_request"]);
    const post = await adminCall(session, "POST", `/api/media/${up.body.media.id}/file`, { siteId: s.site.id, body: {} });
    expect(post.status).toBe(405);

    const removed = await manage(token, "POST", `/media/${up.body.media.id}/remove`, { body: {} });
    expect(removed.status).toBe(200);
    const after = await file(session.cookie, s.site.id, up.body.media.id);
    expect([after.status, after.code]).toEqual([404, "not_found"]);
  });
});
