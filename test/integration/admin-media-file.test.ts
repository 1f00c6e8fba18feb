import { describe, expect, it } from "vitest";
import { adminCall, emailOf, signIn, type ErrorBody } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { pdf, png } from "../helpers/media-samples";
import { workerFetch } from "../helpers/worker";

/** GET /api/media/{id}/file: the admin UI's view of a file, published or not (docs/admin-ui-media.md). */
async function fileOf(session: { cookie: string } | null, siteId: string | null, id: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (session) headers.cookie = session.cookie;
  if (siteId) headers["x-site-id"] = siteId;
  return workerFetch(`http://admin.localhost/api/media/${id}/file`, { headers });
}

async function codeOf(response: Response): Promise<string> {
  return ((await response.json()) as ErrorBody).error.code;
}

describe("GET /api/media/{id}/file (admin host)", () => {
  it("answers an unpublished image's bytes to a member, with its type, inline, sandboxed, nosniff and never cached", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bytes = png(3, 2, "preview");
    const up = await uploadMedia<{ media: { id: string; object_id: string } }>(token, { bytes, name: "fresh.png", type: "image/png" });
    expect(up.status).toBe(201);
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await fileOf(session, s.site.id, up.body.media.id);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''fresh.png");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-media-object-id")).toBe(up.body.media.object_id);
    // HEAD answers like GET without a body (probe finding: 405 on the byte routes).
    const head = await workerFetch(`http://admin.localhost/api/media/${up.body.media.id}/file`, { method: "HEAD", headers: { cookie: session.cookie, "x-site-id": s.site.id } });
    expect([head.status, head.headers.get("content-type"), head.headers.get("content-length"), head.headers.get("x-media-object-id"), (await head.arrayBuffer()).byteLength]).toEqual([200, "image/png", String(bytes.length), up.body.media.object_id, 0]);
    // The public address of the same unpublished file is not served (why this route exists).
    const publicRes = await workerFetch(`http://${s.host}/media/${up.body.media.id}/${up.body.media.object_id}/fresh.png`);
    expect(publicRes.status).toBe(404);
  });

  it("answers a document as an attachment, and to the lowest role (viewer) too", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const up = await uploadMedia<{ media: { id: string } }>(token, { bytes: pdf("doc"), name: "notes.pdf", type: "application/pdf" });
    expect(up.status).toBe(201);
    const viewer = await s.person("viewer");
    const session = await signIn(await emailOf(viewer.id), "pw");
    const res = await fileOf(session, s.site.id, up.body.media.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''notes.pdf");
  });

  it("refuses without a session (401), without X-Site-Id (400), on a site the person is not a member of (403), and another site's or an unknown or removed item (404)", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const tokenB = await credential(b);
    const ofB = await uploadMedia<{ media: { id: string } }>(tokenB, { bytes: png(1, 1, "b"), name: "b.png" });
    const tokenA = await credential(a);
    const ofA = await uploadMedia<{ media: { id: string; revision: number } }>(tokenA, { bytes: png(1, 1, "a"), name: "a.png" });
    const session = await signIn(`${a.site.slug}@example.test`);

    const none = await fileOf(null, a.site.id, ofA.body.media.id);
    expect(none.status).toBe(401);
    expect(await codeOf(none)).toBe("unauthorized");
    const noSite = await fileOf(session, null, ofA.body.media.id);
    expect(noSite.status).toBe(400);
    expect(await codeOf(noSite)).toBe("invalid_request");
    // A's person names B's site: not a member.
    const foreignSite = await fileOf(session, b.site.id, ofB.body.media.id);
    expect(foreignSite.status).toBe(403);
    expect(await codeOf(foreignSite)).toBe("forbidden");
    // B's item asked on A's site: the key is built from A's site, so nothing is found.
    const foreignItem = await fileOf(session, a.site.id, ofB.body.media.id);
    expect(foreignItem.status).toBe(404);
    expect(await codeOf(foreignItem)).toBe("not_found");
    const unknown = await fileOf(session, a.site.id, "med_nope");
    expect(unknown.status).toBe(404);
    const tooLong = await fileOf(session, a.site.id, `med_${"x".repeat(200)}`);
    expect(tooLong.status).toBe(400);
    expect(await codeOf(tooLong)).toBe("invalid_request");
    const traversal = await fileOf(session, a.site.id, "..%2F..%2Fsession");
    expect([400, 404]).toContain(traversal.status);

    const removed = await manage(tokenA, "POST", `/media/${ofA.body.media.id}/remove`, { body: { expected_revision: ofA.body.media.revision } });
    expect(removed.status).toBe(200);
    const gone = await fileOf(session, a.site.id, ofA.body.media.id);
    expect(gone.status).toBe(404);
    // Writes to the path are not routes (405), and a CSRF-less write is never reached.
    const post = await adminCall(session, "POST", `/api/media/${ofA.body.media.id}/file`, { siteId: a.site.id, body: {} });
    expect(post.status).toBe(405);
  });
});
