import { env } from "cloudflare:test";
import { workerFetch } from "../helpers/worker";
import { describe, expect, it } from "vitest";
import { createEntry, publishEntry } from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { sha256 } from "../helpers/imports-api";

interface ExportJob {
  id: string;
  state: string;
  position: number;
  pages: number;
  total_bytes: number;
  sha256: string | null;
  section: string;
}
type ExportAnswer = { export: ExportJob; replayed?: true; error?: { code: string } };
type Chunk = { content_base64: string; content_type: string; offset: number; length: number; total: number; next_offset: number | null; sha256: string; page: number | null; next_page: number | null; error?: { code: string } };
const codeOf = (r: { status: number; body: { error?: { code: string } } }) => [r.status, r.body.error?.code];

async function builtSite() {
  const s = await seedSite();
  const { article, category } = await blogModels(s.ctx());
  const ctx = s.ctx();
  const news = await apply(ctx, createEntry(ctx, { model_id: category.id, fields: { title: "News" } }));
  await apply(ctx, publishEntry(ctx, { instance_id: news.instance_id }));
  const post = await apply(ctx, createEntry(ctx, { model_id: article.id, fields: { title: "Hello", body: "<p>First <strong>post</strong></p>", categories: [news.instance_id], internal_note: "private" } }));
  await apply(ctx, publishEntry(ctx, { instance_id: post.instance_id }));
  await apply(ctx, createEntry(ctx, { model_id: article.id, lang: "fr", fields: { title: "Brouillon" } }));
  const token = await credential(s);
  await uploadMedia(token, { bytes: png(2, 2, "export"), name: "pixel.png" });
  return { s, token, article, category, post };
}

/** The export the Range test built, read again by the edge-case test after it (the suite runs a file's tests in order). */
let rangedExport: { token: string; job: ExportJob } | undefined;

async function build(token: string, body: Record<string, unknown> = {}): Promise<ExportJob> {
  const created = await manage<ExportAnswer>(token, "POST", "/exports", { body });
  expect(created.status).toBe(201);
  let job = created.body.export;
  for (let i = 0; i < 20 && job.state === "building"; i++) job = (await manage<ExportAnswer>(token, "POST", `/exports/${job.id}/advance`, { body: {} })).body.export;
  expect(job.state).toBe("finished");
  return job;
}

/** Reads the whole export in JSON chunks of `size` bytes, as the MCP tool does. */
async function readAll(token: string, job: ExportJob, size: number): Promise<{ bytes: Uint8Array; chunks: Chunk[] }> {
  const parts: Uint8Array[] = [];
  const chunks: Chunk[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const r: { status: number; body: Chunk } = await manage<Chunk>(token, "GET", `/exports/${job.id}/file?offset=${offset}&length=${size}`);
    expect(r.status).toBe(200);
    chunks.push(r.body);
    parts.push(Uint8Array.from(atob(r.body.content_base64), (c) => c.charCodeAt(0)));
    offset = r.body.next_offset;
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, chunks };
}

describe("exports: a whole site in a versioned format, built in steps, read in byte ranges", () => {
  it("exports models, entries in every language with current and published versions, relations, media metadata and roles, never secrets; the chunks rebuild the file whose SHA-256 is given", async () => {
    const { token, post } = await builtSite();
    const job = await build(token);
    expect(job.pages).toBeGreaterThanOrEqual(4);
    const { bytes, chunks } = await readAll(token, job, 700);
    expect(bytes.length).toBe(job.total_bytes);
    expect(await sha256(bytes)).toBe(job.sha256);
    expect(chunks.every((c) => c.sha256 === job.sha256 && c.total === job.total_bytes && c.content_type === "application/x-ndjson")).toBe(true);
    expect(chunks[0]?.page).toBe(1);

    const text = new TextDecoder().decode(bytes);
    const records = text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ format: "driftwood-export", version: 1 });
    expect(records.filter((r) => r.type === "model").map((r) => r.slug).sort()).toEqual(["article", "author", "category", "note"]);
    expect(records.filter((r) => r.type === "role").map((r) => r.slug).sort()).toEqual(["admin", "author", "editor", "viewer"]);
    const entries = records.filter((r) => r.type === "entry");
    expect(entries.map((e) => e.lang).sort()).toEqual(["en", "en", "fr"]);
    const hello = entries.find((e) => e.instance_id === post.instance_id) as { published: { fields: Record<string, unknown> }; current: { fields: Record<string, unknown> } };
    expect(hello.published.fields).toMatchObject({ title: "Hello", body: "<p>First <strong>post</strong></p>", internal_note: "private" });
    expect(JSON.stringify(hello.current.fields.categories)).toContain("ent_");
    expect(records.filter((r) => r.type === "media")).toEqual([expect.objectContaining({ file_name: "pixel.png", mime_type: "image/png" })]);
    expect(records[records.length - 1]).toMatchObject({ type: "end" });
    // Never secrets: no credential, token, password digest or session in the file.
    expect(text).not.toMatch(/dwm_|dws_|dw_site_|pbkdf2|password/i);
  });

  it("answers bytes with Content-Range and the file's SHA-256 on a Range request; refuses reading an unfinished export", async () => {
    const { token } = await builtSite();
    const created = await manage<ExportAnswer>(token, "POST", "/exports", { body: {} });
    expect(codeOf(await manage(token, "GET", `/exports/${created.body.export.id}/file`))).toEqual([409, "export_state_conflict"]);
    const job = await build(token);
    const raw = await workerFetch(`http://api.example.test/api/manage/v1/exports/${job.id}/file`, { headers: { authorization: `Bearer ${token}`, range: "bytes=0-99" } });
    expect(raw.status).toBe(206);
    expect(raw.headers.get("content-range")).toBe(`bytes 0-99/${job.total_bytes}`);
    expect(raw.headers.get("x-content-sha256")).toBe(job.sha256);
    const first = new TextDecoder().decode(await raw.arrayBuffer());
    expect(first.startsWith('{"format":"driftwood-export","version":1')).toBe(true);
    const bad = await workerFetch(`http://api.example.test/api/manage/v1/exports/${job.id}/file`, { headers: { authorization: `Bearer ${token}`, range: "bytes=9-2" } });
    expect(bad.status).toBe(400);
    rangedExport = { token, job };
  });

  it("reads RFC 9110's byte ranges: suffix, open, past the end (416), malformed (400), another unit, positions of any length; kept pages", async () => {
    // The export the test above built (this one alone, as with -t, builds its own).
    const { token, job } = rangedExport ?? { token: (await builtSite()).token, job: undefined };
    const built = job ?? (await build(token));
    await rangeEdges(token, built);
  });

  it("answers HEAD like GET without a body; a strong ETag (the SHA-256) with If-Range and If-None-Match honoured (probe findings)", async () => {
    // Its own site: the range tests' credential has spent most of its rate window.
    const { token } = await builtSite();
    const built = await build(token);
    const file = (headers: Record<string, string>, method = "GET") => workerFetch(`http://api.example.test/api/manage/v1/exports/${built.id}/file`, { method, headers: { authorization: `Bearer ${token}`, ...headers } });
    const etag = `"${built.sha256}"`;
    const ranged = await file({ range: "bytes=10-29" });
    expect([ranged.status, ranged.headers.get("etag"), ranged.headers.get("accept-ranges")]).toEqual([206, etag, "bytes"]);
    const bytes = new Uint8Array(await ranged.arrayBuffer());
    // HEAD: GET's status and headers (Content-Length, Content-Range, ETag, Accept-Ranges), no body.
    const head = await file({ range: "bytes=10-29" }, "HEAD");
    expect([head.status, head.headers.get("content-length"), head.headers.get("content-range"), head.headers.get("etag"), head.headers.get("accept-ranges"), head.headers.get("x-content-sha256")]).toEqual([
      206, "20", `bytes 10-29/${built.total_bytes}`, etag, "bytes", built.sha256,
    ]);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const headJson = await file({}, "HEAD");
    const getJson = await file({});
    const jsonLength = (await getJson.arrayBuffer()).byteLength;
    expect([headJson.status, headJson.headers.get("content-type"), headJson.headers.get("content-length")]).toEqual([200, getJson.headers.get("content-type"), String(jsonLength)]);
    expect((await headJson.arrayBuffer()).byteLength).toBe(0);
    // If-Range with the file's strong tag: the range; another tag, a weak one or a date: the whole file, 200.
    const resumed = await file({ range: "bytes=10-29", "if-range": etag });
    expect([resumed.status, resumed.headers.get("content-range")]).toEqual([206, `bytes 10-29/${built.total_bytes}`]);
    expect(new Uint8Array(await resumed.arrayBuffer())).toEqual(bytes);
    for (const stale of ['"0000"', `W/${etag}`, "Sat, 28 Nov 2026 04:00:00 GMT"]) {
      const whole = await file({ range: "bytes=10-29", "if-range": stale });
      expect([stale, whole.status, whole.headers.get("content-range"), whole.headers.get("content-length"), whole.headers.get("etag")]).toEqual([stale, 200, null, String(built.total_bytes), etag]);
      const body = new Uint8Array(await whole.arrayBuffer());
      expect([body.length, await sha256(body)]).toEqual([built.total_bytes, built.sha256]);
    }
    const wholeHead = await file({ range: "bytes=10-29", "if-range": '"0000"' }, "HEAD");
    expect([wholeHead.status, wholeHead.headers.get("content-length"), (await wholeHead.arrayBuffer()).byteLength]).toEqual([200, String(built.total_bytes), 0]);
    // If-None-Match naming the tag: 304, no bytes; another tag: the range.
    const current = await file({ range: "bytes=10-29", "if-none-match": etag });
    expect([current.status, current.headers.get("etag"), (await current.arrayBuffer()).byteLength]).toEqual([304, etag, 0]);
    const other = await file({ range: "bytes=10-29", "if-none-match": '"0000"' });
    expect(other.status).toBe(206);
    await other.arrayBuffer();
  });
});

async function rangeEdges(token: string, job: ExportJob): Promise<void> {
  {
    // RFC 9110's edge cases: a suffix range is the file's last bytes; a range no byte satisfies is
    // 416 naming the length; bytes that do not parse are 400; another unit is ignored (the JSON read).
    const ranged = (range: string) => workerFetch(`http://api.example.test/api/manage/v1/exports/${job.id}/file`, { headers: { authorization: `Bearer ${token}`, range } });
    const whole = (await readAll(token, job, 1024 * 1024)).bytes;
    const suffix = await ranged("bytes=-10");
    expect([suffix.status, suffix.headers.get("content-range")]).toEqual([206, `bytes ${job.total_bytes - 10}-${job.total_bytes - 1}/${job.total_bytes}`]);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(whole.slice(-10));
    const longSuffix = await ranged(`bytes=-${job.total_bytes + 50}`);
    expect([longSuffix.status, longSuffix.headers.get("content-range")]).toEqual([206, `bytes 0-${job.total_bytes - 1}/${job.total_bytes}`]);
    await longSuffix.arrayBuffer();
    const tail = await ranged(`bytes=${job.total_bytes - 1}-`);
    expect([tail.status, (await tail.arrayBuffer()).byteLength]).toEqual([206, 1]);
    // Probe finding: positions of any length are RFC 9110's (a last position past the end is the
    // rest of the file, a suffix longer than it the whole file); they were refused past 15 digits.
    const huge = "99999999999999999999";
    const longEnd = await ranged(`bytes=${job.total_bytes - 5}-${huge}`);
    expect([longEnd.status, longEnd.headers.get("content-range"), (await longEnd.arrayBuffer()).byteLength]).toEqual([206, `bytes ${job.total_bytes - 5}-${job.total_bytes - 1}/${job.total_bytes}`, 5]);
    const hugeSuffix = await ranged(`bytes=-${huge}`);
    expect([hugeSuffix.status, hugeSuffix.headers.get("content-range")]).toEqual([206, `bytes 0-${job.total_bytes - 1}/${job.total_bytes}`]);
    await hugeSuffix.arrayBuffer();
    for (const range of [`bytes=${job.total_bytes}-`, `bytes=${job.total_bytes + 100}-${job.total_bytes + 200}`, "bytes=-0", `bytes=${huge}-`, `bytes=${huge}-${huge}9`]) {
      const past = await ranged(range);
      expect([range, past.status, past.headers.get("content-range"), ((await past.json()) as { error: { code: string } }).error.code]).toEqual([range, 416, `bytes */${job.total_bytes}`, "range_not_satisfiable"]);
    }
    for (const range of ["bytes=abc", "bytes=0-1,5-6", "bytes=-", "bytes=1-2-3"]) {
      const malformed = await ranged(range);
      expect([range, malformed.status, ((await malformed.json()) as { error: { code: string } }).error.code]).toEqual([range, 400, "invalid_request"]);
    }
    const otherUnit = await ranged("items=0-5");
    expect([otherUnit.status, ((await otherUnit.json()) as Chunk).offset]).toEqual([200, 0]);
    // A JSON read of no bytes would answer next_offset = offset forever: refused (probe finding).
    expect(codeOf(await manage(token, "GET", `/exports/${job.id}/file?offset=5&length=0`))).toEqual([400, "invalid_request"]);
    // The JSON read (MCP) says the same past the end.
    expect(codeOf(await manage(token, "GET", `/exports/${job.id}/file?offset=${job.total_bytes}`))).toEqual([416, "range_not_satisfiable"]);

    // One kept page (read-export-chunk --page): from its first byte to its last, nothing of the next.
    const second = await manage<Chunk>(token, "GET", `/exports/${job.id}/file?page=2`);
    expect(second.status).toBe(200);
    const firstPage = await manage<Chunk>(token, "GET", `/exports/${job.id}/file?page=1`);
    expect([firstPage.body.offset, firstPage.body.page, firstPage.body.next_page, firstPage.body.next_offset]).toEqual([0, 1, 2, second.body.offset]);
    expect(Uint8Array.from(atob(firstPage.body.content_base64), (c) => c.charCodeAt(0))).toEqual(whole.slice(0, second.body.offset));
    expect((firstPage.body as Chunk & { page_sha256?: string }).page_sha256).toBe(await sha256(whole.slice(0, second.body.offset)));
    expect([second.body.page, second.body.next_page]).toEqual([2, 3]);
    expect(Uint8Array.from(atob(second.body.content_base64), (c) => c.charCodeAt(0))).toEqual(whole.slice(second.body.offset, second.body.offset + second.body.length));
    expect(codeOf(await manage(token, "GET", `/exports/${job.id}/file?page=${job.pages + 1}`))).toEqual([416, "range_not_satisfiable"]);
    expect(codeOf(await manage(token, "GET", `/exports/${job.id}/file?page=2&offset=0`))).toEqual([400, "invalid_request"]);
  }
}

describe("exports: a whole site in a versioned format, built in steps, read in byte ranges (retries and roles)", () => {

  it("a retried build step after the export moved answers it as it is, replayed, building nothing", async () => {
    const { token } = await builtSite();
    const created = await manage<ExportAnswer>(token, "POST", "/exports", { body: {} });
    const key = newKey();
    const first = await manage<ExportAnswer>(token, "POST", `/exports/${created.body.export.id}/advance`, { body: {}, key });
    expect(first.body.export).toMatchObject({ pages: 1, position: 1, section: "entries" });
    const again = await manage<ExportAnswer>(token, "POST", `/exports/${created.body.export.id}/advance`, { body: {}, key });
    expect([again.status, again.body.replayed, again.body.export.pages, again.body.export.position]).toEqual([200, true, 1, 1]);
  });

  it("refuses a whole-site export to a role that narrows reading (403 export_limited_role); allows one filtered to the languages and models it reads", async () => {
    const { s, token, article } = await builtSite();
    await changeAdminRole(s, (p) => ({ ...p, limits: { languages: { read: ["en"] } } }));
    expect(codeOf(await manage(token, "POST", "/exports", { body: {} }))).toEqual([403, "export_limited_role"]);
    expect(codeOf(await manage(token, "POST", "/exports", { body: { languages: ["fr"] } }))).toEqual([403, "locale_denied"]);
    // A filter names each model and language once (probe finding: ["en", "en"] was kept as the filter).
    expect(codeOf(await manage(token, "POST", "/exports", { body: { languages: ["en", "en"] } }))).toEqual([400, "invalid_request"]);
    expect(codeOf(await manage(token, "POST", "/exports", { body: { model_ids: [article.id, article.id] } }))).toEqual([400, "invalid_request"]);
    const job = await build(token, { model_ids: [article.id], languages: ["en"] });
    const { bytes } = await readAll(token, job, 1024 * 1024);
    const records = new TextDecoder().decode(bytes).trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.filter((r) => r.type === "model").map((r) => r.slug)).toEqual(["article"]);
    expect(records.filter((r) => r.type === "entry").map((r) => r.lang)).toEqual(["en"]);
    expect(records.filter((r) => r.type === "role" || r.type === "media")).toEqual([]);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM export_jobs WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});
