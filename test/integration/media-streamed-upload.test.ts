import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { UPLOAD_GRACE_MS } from "../../objects/site/upload-objects";
import { StreamedBody } from "../../workers/http/streamed-body";
import { sha256Hex } from "../../shared/crypto/digest";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { digestOf, GeneratedBody, mediaRows, storedKeys, streamUpload, type ErrBody, type MediaAnswer } from "../helpers/media-api";
import { concat, elf, html, mz, pdf, png, shebang, text } from "../helpers/media-samples";
import { workerFetch } from "../helpers/worker";

const MiB = 1024 * 1024;
/** MEDIA_REQUEST_BODY_LIMIT_BYTES of the test pool (vitest.config.ts). */
const LIMIT = 45_000_000;

async function signedIn(s: SeededSite) {
  return signIn(`${s.site.slug}@example.test`);
}

/** Upload notes left in the site's object (a settled upload leaves none). */
async function notes(siteId: string): Promise<{ object_key: string; upload_id: string | null }[]> {
  return runInDurableObject(env.SITE.getByName(siteId), (_o, state) =>
    state.storage.sql.exec<{ object_key: string; upload_id: string | null }>("SELECT object_key, upload_id FROM upload_objects").toArray(),
  );
}

describe("POST /api/media/uploads (admin streamed upload)", () => {
  it("streams a 40 MiB file without Content-Length into R2 in parts, with the right SHA-256 and length, read back whole", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const body = new GeneratedBody(40 * MiB, png(640, 480, "big"));
    const up = await streamUpload(session, s.site.id, body.stream(), { fields: { name: "big photo.png", alt_texts: JSON.stringify({ en: "Big" }) } });
    expect(up.status).toBe(201);
    const item = up.body.media;
    const sha256 = await body.sha256();
    expect(item).toMatchObject({ kind: "image", file_name: "big photo.png", mime_type: "image/png", byte_length: 40 * MiB, sha256, width: 640, height: 480, alt_texts: { en: "Big" }, folder_id: null });
    const key = `${s.site.id}/${item.id}/${item.object_id}`;
    expect(await storedKeys(s.site.id)).toEqual([key]);
    const object = await env.MEDIA.get(key);
    expect(object?.size).toBe(40 * MiB);
    expect(object?.httpMetadata?.contentType).toBe("image/png");
    expect(await digestOf(object!.body)).toBe(sha256);
    expect(await notes(s.site.id)).toEqual([]);

    // The same write as the management upload: row, ledger, event and audit in one batch.
    const token = await credential(s);
    const read = await manage<MediaAnswer>(token, "GET", `/media/${item.id}`);
    expect(read.body.media).toEqual(item);
    const ledger = await env.DB.prepare("SELECT count(*) AS n FROM media_objects WHERE site_id = ? AND object_key = ?").bind(s.site.id, key).first<{ n: number }>();
    expect(ledger?.n).toBe(1);
    const audit = await env.DB.prepare("SELECT actor_id FROM audit_log WHERE site_id = ? AND action = 'media.upload' AND target_id = ?").bind(s.site.id, item.id).first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(s.adminId);
    const event = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'media.uploaded'").bind(s.site.id).first<{ n: number }>();
    expect(event?.n).toBe(1);
  });

  it("stores a 40 MiB body sent with Content-Length, and a small file as a single part", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const body = new GeneratedBody(40 * MiB, png(2, 2, "sized"));
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < body.total; at += GeneratedBody.CHUNK) chunks.push(body.chunkAt(at));
    const up = await streamUpload(session, s.site.id, new Blob(chunks), { fields: { name: "sized.png" } });
    expect(up.status).toBe(201);
    expect(up.body.media).toMatchObject({ byte_length: 40 * MiB, sha256: await body.sha256() });

    const small = pdf("small");
    const doc = await streamUpload(session, s.site.id, small, { fields: { name: "a.pdf" }, headers: { "content-type": "application/pdf" } });
    expect(doc.status).toBe(201);
    expect(doc.body.media).toMatchObject({ kind: "document", mime_type: "application/pdf", byte_length: small.byteLength, sha256: await sha256Hex(small) });
    const stored = await env.MEDIA.get(`${s.site.id}/${doc.body.media.id}/${doc.body.media.object_id}`);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(small);
  });

  it("refuses a Content-Length over the limit with 413 payload_too_large and max, storing nothing", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const over = new Uint8Array(LIMIT + 1);
    over.set(png(1, 1));
    const up = await streamUpload<ErrBody>(session, s.site.id, over, { fields: { name: "over.png" } });
    expect(up.status).toBe(413);
    expect(up.body.error).toMatchObject({ code: "payload_too_large", max: LIMIT });
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await notes(s.site.id)).toEqual([]);
    expect(await mediaRows(s.site.id)).toBe(0);
  });

  it("counts a body without length while streaming: past the limit it is 413, the multipart upload aborted and nothing stored", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const body = new GeneratedBody(LIMIT + 3 * MiB, png(1, 1, "over"));
    const stream = body.stream();
    const up = await streamUpload<ErrBody>(session, s.site.id, stream, { fields: { name: "over.png" } });
    expect(up.status).toBe(413);
    expect(up.body.error).toMatchObject({ code: "payload_too_large", max: LIMIT });
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await notes(s.site.id)).toEqual([]);
    expect(await mediaRows(s.site.id)).toBe(0);
  });

  it("refuses programs (422) and markup (415) from the first bytes, before anything is stored", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    for (const bytes of [mz(), elf(), shebang()]) {
      const up = await streamUpload<ErrBody>(session, s.site.id, new GeneratedBody(12 * MiB, bytes).stream(), { fields: { name: "x.bin" } });
      expect([up.status, up.body.error.code, up.body.error.reason]).toEqual([422, "executable_file", "bytes"]);
    }
    const byName = await streamUpload<ErrBody>(session, s.site.id, png(1, 1), { fields: { name: "run.exe" } });
    expect([byName.status, byName.body.error.code, byName.body.error.reason]).toEqual([422, "executable_file", "extension"]);
    const page = await streamUpload<ErrBody>(session, s.site.id, new GeneratedBody(12 * MiB, html()).stream(), { fields: { name: "page.png" } });
    expect([page.status, page.body.error.code, page.body.error.reason]).toEqual([415, "unsupported_media_type", "markup"]);
    const declared = await streamUpload<ErrBody>(session, s.site.id, png(1, 1), { headers: { "content-type": "image/svg+xml" } });
    expect([declared.status, declared.body.error.code, declared.body.error.found_by]).toEqual([415, "unsupported_media_type", "declared_type"]);
    const zipped = await streamUpload<ErrBody>(session, s.site.id, text("just some words"), { fields: { name: "notes.txt" } });
    expect([zipped.status, zipped.body.error.reason]).toEqual([415, "format_not_allowed"]);
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await notes(s.site.id)).toEqual([]);
  });

  it("refuses a page tag found late in the stream (past the first part, and split between chunks), aborting the upload", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const late = new GeneratedBody(20 * MiB, png(1, 1, "late"), { at: 17 * MiB + 5, bytes: text("<script>alert(1)</script>") });
    const up = await streamUpload<ErrBody>(session, s.site.id, late.stream(), { fields: { name: "late.png" } });
    expect([up.status, up.body.error.code, up.body.error.reason, up.body.error.found_by]).toEqual([415, "unsupported_media_type", "markup", "bytes"]);
    // "<iframe" straddles the 1 MiB chunk boundary at 12 MiB: "<if" ends one chunk, "rame " starts the next.
    const split = new GeneratedBody(14 * MiB, png(1, 1, "split"), { at: 12 * MiB - 3, bytes: text("<iframe src=x>") });
    const cut = await streamUpload<ErrBody>(session, s.site.id, split.stream(), { fields: { name: "split.png" } });
    expect([cut.status, cut.body.error.reason]).toEqual([415, "markup"]);
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await notes(s.site.id)).toEqual([]);
    expect(await mediaRows(s.site.id)).toBe(0);
  });

  it("decides duplicates as the management upload does: ask is 409 with nothing stored, use_existing reuses, copy stores a copy", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const body = new GeneratedBody(9 * MiB, png(3, 3, "dup"));
    const first = await streamUpload(session, s.site.id, body.stream(), { fields: { name: "d.png" } });
    expect(first.status).toBe(201);
    const ask = await streamUpload<ErrBody & { error: { existing: { id: string }; copies: number } }>(session, s.site.id, body.stream(), { fields: { name: "d.png" } });
    expect([ask.status, ask.body.error.code, ask.body.error.existing.id, ask.body.error.copies]).toEqual([409, "media_duplicate", first.body.media.id, 1]);
    const reuse = await streamUpload(session, s.site.id, body.stream(), { fields: { on_duplicate: "use_existing" } });
    expect([reuse.status, reuse.body.reused, reuse.body.media.id]).toEqual([200, true, first.body.media.id]);
    const copy = await streamUpload(session, s.site.id, body.stream(), { fields: { on_duplicate: "copy" } });
    expect(copy.status).toBe(201);
    expect(copy.body.media.id).not.toBe(first.body.media.id);
    expect((await storedKeys(s.site.id)).sort()).toEqual(
      [`${s.site.id}/${first.body.media.id}/${first.body.media.object_id}`, `${s.site.id}/${copy.body.media.id}/${copy.body.media.object_id}`].sort(),
    );
    expect(await notes(s.site.id)).toEqual([]);
  });

  it("replays a retry with the same key and bytes (its own object removed); other bytes under that key are idempotency_key_reused", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const key = newKey();
    const body = new GeneratedBody(9 * MiB, png(1, 1, "replay"));
    const first = await streamUpload(session, s.site.id, body.stream(), { key, fields: { name: "r.png" } });
    expect(first.status).toBe(201);
    const retry = await streamUpload(session, s.site.id, body.stream(), { key, fields: { name: "r.png" } });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ ...first.body, replayed: true });
    const other = await streamUpload<ErrBody>(session, s.site.id, png(1, 1, "other"), { key, fields: { name: "r.png" } });
    expect([other.status, other.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await storedKeys(s.site.id)).toEqual([`${s.site.id}/${first.body.media.id}/${first.body.media.object_id}`]);
    expect(await notes(s.site.id)).toEqual([]);
  });

  it("asks session, CSRF, membership, media:upload and an Idempotency-Key before storing a byte; unknown fields are 400", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const file = png(1, 1, "auth");
    const noCsrf = await streamUpload<ErrBody>(session, s.site.id, file, { csrf: null });
    expect([noCsrf.status, noCsrf.body.error.code]).toEqual([403, "csrf_failed"]);
    const anonymous = await workerFetch("http://admin.localhost/api/media/uploads", { method: "POST", headers: { "x-site-id": s.site.id, "idempotency-key": newKey() }, body: file });
    expect(anonymous.status).toBe(401);
    const other = await seedSite();
    const stranger = await streamUpload<ErrBody>(session, other.site.id, file);
    expect([stranger.status, stranger.body.error.code]).toEqual([403, "forbidden"]);
    const noKey = await streamUpload<ErrBody>(session, s.site.id, file, { key: null });
    expect([noKey.status, noKey.body.error.code]).toEqual([400, "invalid_request"]);
    const unknownField = await streamUpload<ErrBody>(session, s.site.id, file, { fields: { tags: "x" } });
    expect([unknownField.status, unknownField.body.error.code]).toEqual([400, "invalid_request"]);
    const repeated = await workerFetch("http://admin.localhost/api/media/uploads?name=a.png&name=b.png", {
      method: "POST",
      headers: { cookie: session.cookie, "x-csrf-token": session.csrf, "x-site-id": s.site.id, "idempotency-key": newKey() },
      body: file,
    });
    expect(repeated.status).toBe(400);
    const badLang = await streamUpload<ErrBody>(session, s.site.id, file, { fields: { alt_texts: JSON.stringify({ de: "x" }) } });
    expect([badLang.status, badLang.body.error.code]).toEqual([422, "unknown_locale"]);
    const noFolder = await streamUpload<ErrBody>(session, s.site.id, file, { fields: { folder_id: "mfd_nope" } });
    expect([noFolder.status, noFolder.body.error.code]).toEqual([404, "media_folder_not_found"]);

    const viewer = await s.person("viewer");
    const viewerSession = await signIn(await emailOf(viewer.id), "pw");
    const denied = await streamUpload<ErrBody>(viewerSession, s.site.id, file);
    expect([denied.status, denied.body.error.code]).toEqual([403, "missing_permission"]);
    await changeAdminRole(s, (p) => ({ ...p, system: ((p.system as string[]) ?? []).filter((x) => x !== "media:upload") }));
    const lost = await streamUpload<ErrBody>(session, s.site.id, new GeneratedBody(12 * MiB, file).stream());
    expect([lost.status, lost.body.error.code]).toEqual([403, "missing_permission"]);
    expect(await storedKeys(s.site.id)).toEqual([]);
    expect(await notes(s.site.id)).toEqual([]);
  });

  it("tells admin clients the limit: GET /api/media/limits and GET /media/folders give limits.streamed_max_bytes", async () => {
    const s = await seedSite();
    const session = await signedIn(s);
    const limits = await adminCall<{ limits: { streamed_max_bytes: number } }>(session, "GET", "/api/media/limits", { siteId: s.site.id });
    expect(limits.status).toBe(200);
    expect(limits.body).toEqual({ limits: { streamed_max_bytes: LIMIT } });
    const folders = await manage<{ limits: { streamed_max_bytes: number } }>(await credential(s), "GET", "/media/folders");
    expect(folders.body.limits.streamed_max_bytes).toBe(LIMIT);
  });

  it("StreamedBody aborts its multipart upload when the stream is refused mid-way (size or page tag), so no part can be completed", async () => {
    for (const [body, max, code] of [
      [new GeneratedBody(20 * MiB, png(1, 1)), 18 * MiB, "payload_too_large"],
      [new GeneratedBody(20 * MiB, png(1, 1), { at: 19 * MiB, bytes: text("<body>") }), 45 * MiB, "unsupported_media_type"],
    ] as const) {
      const key = `streamed-test/${newKey()}`;
      const streamed = new StreamedBody(body.stream(), max);
      expect((await streamed.head()).byteLength).toBe(8 * MiB);
      let uploadId = "";
      const refused = await streamed.storeTo(env.MEDIA, key, "image/png", async (id) => void (uploadId = id)).catch((e: unknown) => e);
      expect((refused as { code?: string }).code).toBe(code);
      expect(uploadId).not.toBe("");
      const resumed = env.MEDIA.resumeMultipartUpload(key, uploadId);
      await expect(resumed.uploadPart(1, new Uint8Array(5 * MiB))).rejects.toThrow();
      expect(await env.MEDIA.head(key)).toBeNull();
    }
  });

  it("the site's alarm aborts a stopped streamed upload's multipart upload and forgets its note", async () => {
    const s = await seedSite();
    const stub = env.SITE.getByName(s.site.id);
    const key = `${s.site.id}/med_stopped/obj_stopped`;
    await stub.noteUpload(key);
    const upload = await env.MEDIA.createMultipartUpload(key);
    await stub.noteMultipartUpload(key, upload.uploadId);
    const part = await upload.uploadPart(1, concat(png(1, 1), new Uint8Array(5 * MiB)));
    expect(await notes(s.site.id)).toEqual([{ object_key: key, upload_id: upload.uploadId }]);
    await runInDurableObject(stub, async (_o, state) => {
      state.storage.sql.exec("UPDATE upload_objects SET noted_at = ?", Date.now() - UPLOAD_GRACE_MS - 1000);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await notes(s.site.id)).toEqual([]);
    // Aborted: the upload can no longer be completed into an object.
    await expect(env.MEDIA.resumeMultipartUpload(key, upload.uploadId).complete([part])).rejects.toThrow();
    expect(await storedKeys(s.site.id)).toEqual([]);
  });
});
