/**
 * Private files of the generated backend (spec 3 "Rules of private files", issue #25 item 4), run by
 * test/node/generated-backend.test.mjs on both runtimes. A `dossier` model built in the CMS with a
 * private media field (`scan`), a private multiple media field (`attachments`), a private rich text
 * with a library image (`notes`) and a public `cover`; files uploaded through the management API
 * (two PNGs, a PDF, a WAV), an entry published. The generator copies them into `private-files/`; the
 * local server reads that folder (PRIVATE_FILES_DIRECTORY), wrangler dev the local PRIVATE_FILES bucket.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { it } from "node:test";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import { request } from "../../../scripts/lib/dev-server.mjs";
import { createModel } from "./cms.mjs";

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "ascii"), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** A valid RGBA PNG of width × height. */
function png(width, height) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + 4 * width), 0x7f);
  for (let y = 0; y < height; y += 1) rows[y * (1 + 4 * width)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

export const SAMPLES = {
  scan: { bytes: png(3, 2), name: "scan.png", type: "image/png" },
  inline: { bytes: png(2, 5), name: "inline.png", type: "image/png" },
  manual: { bytes: Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"), name: "manual.pdf", type: "application/pdf" },
  // Neither an image nor a PDF: downloads (a WAV: the default media formats refuse a plain zip).
  archive: { bytes: Buffer.from("UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA", "base64"), name: "memo.wav", type: "audio/wav" },
};

/** What the seed made: media ids by sample, the entries' group ids. */
export const seeded = { media: {}, withFiles: "", withoutFiles: "", instances: [] };

async function upload(port, token, sample) {
  const boundary = `----gb${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${sample.name}"\r\nContent-Type: ${sample.type}\r\n\r\n`),
    sample.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await request(port, {
    method: "POST",
    host: "demo.localhost",
    path: "/api/manage/v1/media",
    chunks: [body],
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}`, "idempotency-key": `gb-files-${sample.name}-${process.pid}` },
  });
  if (res.status !== 201) throw new Error(`upload ${sample.name}: ${res.status} ${res.text}`);
  return JSON.parse(res.text).media;
}

/** The CMS side (before generation): the model, the uploads, two published entries. */
export async function seedFiles(manage, port, token) {
  const model = await createModel(manage, { name: "Dossier", slug: "dossier", is_public: true }, [
    { key: "title", label: "Title", type: "text", required: true, title: true },
    { key: "scan", label: "Scan", type: "media", private: true },
    { key: "attachments", label: "Attachments", type: "media", multiple: true, private: true },
    { key: "notes", label: "Notes", type: "rich_text", private: true },
  ]);
  const media = {};
  for (const [name, sample] of Object.entries(SAMPLES)) media[name] = await upload(port, token, sample);
  seeded.media = Object.fromEntries(Object.entries(media).map(([name, item]) => [name, item.id]));
  const entries = [
    { slug: "dossier-with-files", fields: { title: "With files", scan: media.scan.id, attachments: [media.manual.id, media.archive.id], notes: `<p>See the plan.</p><img src="${media.inline.url}" data-media="${media.inline.id}" alt="Plan">` } },
    { slug: "dossier-without-files", fields: { title: "Without files" } },
  ];
  const groups = [];
  for (const entry of entries) {
    const created = await manage("POST", "/entries", { model_id: model.model_id, ...entry });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const published = await manage("POST", `/entries/${created.body.instance_id}/publish`, {});
    assert.equal(published.status, 200, JSON.stringify(published.body));
    groups.push(created.body.translation_group_id);
    seeded.instances.push(created.body.instance_id);
  }
  [seeded.withFiles, seeded.withoutFiles] = groups;
}

/**
 * The contract tests, inside a runtime's describe. `fetchRaw(path, token)`: the answer with its bytes;
 * `project()`: the emitted project's folder; `startLocal(env)` (local server runs only) starts a local
 * server on `localPort` with extra environment: `{ child }` once listening, or `{ exited, stderr }`.
 * `workerConfig()` (wrangler dev runs only): the wrangler.jsonc the running `wrangler dev` watches.
 */
export function fileTests({ call, fetchRaw, token, readers, project, startLocal, localPort, workerConfig }) {
  const route = (field, id, query = "") => `/api/dossier/files/${field}/${encodeURIComponent(id)}${query}`;

  it("private files: markers in the rows, the bytes and their meta in private-files/", async () => {
    const rows = JSON.parse(readFileSync(path.join(project(), "data", "dossier.json"), "utf8"));
    const row = rows.find((r) => r.id === seeded.withFiles);
    assert.match(row.scan_url, /^private-file:[^/]+\/med_[^/]+\/obj_/);
    assert.equal(JSON.parse(row.attachments_url).every((url) => url.startsWith("private-file:")), true);
    assert.match(row.notes, /<img\b[^>]*\ssrc="private-file:[^"]+"/);
    assert.match(row.notes, /<img\b[^>]*\sdata-media="med_/);
    const key = row.scan_url.slice("private-file:".length);
    assert.deepEqual(readFileSync(path.join(project(), "private-files", key)), SAMPLES.scan.bytes);
    assert.deepEqual(JSON.parse(readFileSync(path.join(project(), "private-files", `${key}.meta.json`), "utf8")), { content_type: "image/png", file_name: "scan.png" });
    assert.equal(rows.find((r) => r.id === seeded.withoutFiles).scan_url, null);
  });

  it("private files: served private, no-store; images and PDFs inline, anything else downloads", async () => {
    const scan = await fetchRaw(route("scan", seeded.withFiles), token);
    assert.equal(scan.status, 200);
    assert.deepEqual(scan.bytes, SAMPLES.scan.bytes);
    assert.equal(scan.headers.get("content-type"), "image/png");
    assert.equal(scan.headers.get("cache-control"), "private, no-store");
    assert.equal(scan.headers.get("content-disposition"), "inline");
    const manual = await fetchRaw(route("attachments", seeded.withFiles, `?media=${seeded.media.manual}`), token);
    assert.equal(manual.status, 200);
    assert.equal(manual.headers.get("content-type"), "application/pdf");
    assert.equal(manual.headers.get("content-disposition"), "inline");
    const archive = await fetchRaw(route("attachments", seeded.withFiles, `?media=${seeded.media.archive}`), token);
    assert.equal(archive.status, 200);
    assert.deepEqual(archive.bytes, SAMPLES.archive.bytes);
    assert.equal(archive.headers.get("content-disposition"), 'attachment; filename="memo.wav"');
    // ?media= selects a marker the row holds: another media id is no file of this row.
    assert.equal((await fetchRaw(route("attachments", seeded.withFiles, `?media=${seeded.media.scan}`), token)).status, 404);
    // A missing preview falls back to the original; a missing thumbnail does not.
    const preview = await fetchRaw(route("scan", seeded.withFiles, "?variant=preview"), token);
    assert.equal(preview.status, 200);
    assert.deepEqual(preview.bytes, SAMPLES.scan.bytes);
    assert.equal((await fetchRaw(route("scan", seeded.withFiles, "?variant=thumb"), token)).status, 404);
    assert.equal((await call("GET", route("scan", seeded.withFiles, "?variant=huge"), { token })).status, 400);
  });

  it("private files: privateRichText maps the rich text's images to this route", async () => {
    const { privateRichText } = await import(pathToFileURL(path.join(project(), "dist", "src", "private-rich-text.js")).href);
    const row = (await call("GET", `/api/dossier/unique?where=${encodeURIComponent(JSON.stringify({ id: seeded.withFiles }))}`, { token })).body;
    const html = privateRichText(row.notes, "/api/dossier/files/notes", row.id);
    const src = /<img\b[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
    assert.equal(src, `/api/dossier/files/notes/${encodeURIComponent(row.id)}?media=${seeded.media.inline}`);
    assert.equal(html.includes("private-file:"), false);
    const image = await fetchRaw(src, token);
    assert.equal(image.status, 200);
    assert.deepEqual(image.bytes, SAMPLES.inline.bytes);
    assert.equal((await fetchRaw(route("notes", seeded.withFiles), token)).status, 404, "a rich text's file is named by ?media=");
  });

  it("mediaOriginal: the retained original of a served language, from <field>_originals as the API answers it", async () => {
    const { mediaOriginal } = await import(pathToFileURL(path.join(project(), "dist", "src", "media-original.js")).href);
    // Row ids are random per seed: take a covered article served in French as well (not every one is).
    const rows = (await call("GET", `/api/article?where=${encodeURIComponent(JSON.stringify({ cover_id: { not: null } }))}`)).body;
    const row = rows.find((r) => r.cover_originals?.fr?.[r.cover_id] && r.cover_originals?.en?.[r.cover_id]);
    assert.ok(row, "a demo article has a cover in English and French");
    const original = mediaOriginal(row, "cover", "fr");
    assert.deepEqual(original, row.cover_originals.fr[row.cover_id]);
    assert.match(original.url, /^https?:\/\/.+\/media\/med_/);
    assert.equal(typeof original.mime_type, "string");
    assert.deepEqual(mediaOriginal(row, "cover", "en", row.cover_id), row.cover_originals.en[row.cover_id]);
    assert.equal(mediaOriginal(row, "cover", "de"), null);
    assert.equal(mediaOriginal(row, "cover", "fr", "med_other"), null);
    // A private media field's original is never pinned by the CMS: nothing to hand out.
    const dossier = (await call("GET", `/api/dossier/unique?where=${encodeURIComponent(JSON.stringify({ id: seeded.withFiles }))}`, { token })).body;
    assert.deepEqual(dossier.scan_originals, {});
    assert.equal(mediaOriginal(dossier, "scan", "en"), null);
  });

  it("private files: 404 without a marker, for a missing object, an unreadable row; access re-checked each request", async () => {
    assert.equal((await fetchRaw(route("scan", seeded.withoutFiles), token)).status, 404);
    assert.equal((await fetchRaw(route("scan", "no-such-row"), token)).status, 404);
    assert.equal((await fetchRaw(route("title", seeded.withFiles), token)).status, 404);
    // The private field is not readable anonymously: the file is not either (the model's reads are anonymous).
    assert.equal((await fetchRaw(route("scan", seeded.withFiles))).status, 404);
    assert.equal((await fetchRaw(route("scan", seeded.withFiles), "not-a-token")).status, 401);
    // Read tokens: a token scoped to other models reads Dossier's anonymous routes as the anonymous
    // reader it then is (no private values, no private files); one covering the model sees them.
    assert.equal((await fetchRaw(route("scan", seeded.withFiles), readers.outside)).status, 404);
    const outside = (await call("GET", `/api/dossier/unique?where=${encodeURIComponent(JSON.stringify({ id: seeded.withFiles }))}`, { token: readers.outside })).body;
    assert.equal("scan_url" in outside, false);
    assert.equal((await fetchRaw(route("scan", seeded.withFiles), readers.wildcard)).status, 200);
    const openapi = await call("GET", "/api/openapi.json", { token });
    assert.equal(openapi.body.paths["/api/dossier/files/{field}/{id}"].get.operationId, "Dossier.file");
    const gone = await call("POST", "/api/dossier", { token, body: { data: { id: "files-gone", title: "Gone", scan_url: `private-file:${seeded.withFiles}/med_gone/obj_gone` } } });
    assert.equal(gone.status, 201, JSON.stringify(gone.body));
    assert.equal((await fetchRaw(route("scan", "files-gone"), token)).status, 404);
    const traversal = await call("PUT", "/api/dossier", { token, body: { where: { id: "files-gone" }, data: { scan_url: "private-file:../../data/site.db" } } });
    assert.equal(traversal.status, 200);
    assert.equal((await fetchRaw(route("scan", "files-gone"), token)).status, 404);
    // The row is read again on every request: a cleared marker serves nothing at once.
    const row = (await call("GET", `/api/dossier/unique?where=${encodeURIComponent(JSON.stringify({ id: seeded.withFiles }))}`, { token })).body;
    assert.equal((await call("PUT", "/api/dossier", { token, body: { where: { id: seeded.withFiles }, data: { scan_url: null } } })).status, 200);
    assert.equal((await fetchRaw(route("scan", seeded.withFiles), token)).status, 404);
    assert.equal((await call("PUT", "/api/dossier", { token, body: { where: { id: seeded.withFiles }, data: { scan_url: row.scan_url } } })).status, 200);
    assert.equal((await fetchRaw(route("scan", seeded.withFiles), token)).status, 200);
  });

  // No second wrangler dev: the running one reloads when its wrangler.jsonc changes, so the worker is
  // run without the PRIVATE_FILES binding for a moment (then given it back), as an owner would.
  if (workerConfig !== undefined) it("private files: 503 private_files_unavailable on the worker without the PRIVATE_FILES binding, never a public fallback", async () => {
    const file = workerConfig();
    const original = readFileSync(file, "utf8");
    const withoutBucket = original.replace(/,\s*"r2_buckets":\s*\[[^\]]*\]/, "");
    assert.notEqual(withoutBucket, original, "wrangler.jsonc binds PRIVATE_FILES");
    // Polls the file route until wrangler dev has reloaded into the wanted answer (a reload takes seconds).
    const until = async (status) => {
      const deadline = Date.now() + 120_000;
      let last;
      while (Date.now() < deadline) {
        try {
          last = await fetchRaw(route("scan", seeded.withFiles), token);
          if (last.status === status) return last;
        } catch {
          // the runtime is restarting
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.fail(`the file route did not answer ${status} within 120 s (last: ${last?.status})`);
    };
    writeFileSync(file, withoutBucket);
    try {
      const refused = await until(503);
      assert.equal(JSON.parse(refused.bytes.toString("utf8")).error.code, "private_files_unavailable");
      assert.equal((await fetchRaw(route("attachments", seeded.withFiles, `?media=${seeded.media.manual}`), token)).status, 503);
      // Access is still checked first; the rows (markers included) are served as before.
      assert.equal((await fetchRaw(route("scan", seeded.withFiles), "not-a-token")).status, 401);
      const row = await call("GET", `/api/dossier/unique?where=${encodeURIComponent(JSON.stringify({ id: seeded.withFiles }))}`, { token });
      assert.match(row.body.scan_url, /^private-file:/);
    } finally {
      writeFileSync(file, original);
      const back = await until(200);
      assert.deepEqual(back.bytes, SAMPLES.scan.bytes);
    }
  });

  // A second wrangler dev without the bucket would cost half a minute more: the local server tells this one.
  if (startLocal !== undefined) it("private files: 503 private_files_unavailable without storage, never a public fallback; a bad directory refuses start", async () => {
    const relative = await startLocal({ PRIVATE_FILES_DIRECTORY: "private-files" });
    assert.equal(relative.exited, 1);
    assert.match(relative.stderr, /PRIVATE_FILES_DIRECTORY must be an absolute path/);
    const started = await startLocal({});
    assert.ok(started.child, started.stderr);
    const refused = await call("GET", route("scan", seeded.withFiles), { token, port: localPort });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, "private_files_unavailable");
  });
}
