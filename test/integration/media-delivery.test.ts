import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import { sha256Hex } from "../../shared/crypto/digest";
import type { Env } from "../../shared/env";
import * as lifecycle from "../../shared/services/lifecycle";
import { cacheTag } from "../../shared/services/lifecycle/context";
import { addModel, apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { replaceMedia, uploadMedia, type MediaItemBody } from "../helpers/media-api";
import { jpeg, pdf, png } from "../helpers/media-samples";
import { removeMedia as removePlan } from "../../shared/services/media/remove";
import { replaceMedia as replacePlan } from "../../shared/services/media/replace";
import { newObjectKey } from "../../shared/services/media/object-keys";
import { workerFetch } from "../helpers/worker";

type Ref = { id: string; url: string; kind: string; mime_type: string; file_name: string; width: number | null; height: number | null; alt: string };
type PublicItem = { id: string; fields: Record<string, unknown>; media: Record<string, Ref[]> };
type Entry = { instance_id: string; current_version_id: string; translation_group_id: string };

/** A public request on the site's host (GET unless told). */
function deliver(host: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return workerFetch(`http://${host}${path}`, { method, headers });
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

async function upload(token: string, bytes: Uint8Array, name: string): Promise<MediaItemBody> {
  const up = await uploadMedia(token, { bytes, name }, { on_duplicate: "copy" });
  expect(up.status).toBe(201);
  return up.body.media;
}

interface Setup {
  s: SeededSite;
  token: string;
  modelId: string;
}

/** A site with model `doc`: `cover` (media), `files` (media, multiple) and `secret` (private media). */
async function setup(): Promise<Setup> {
  const s = await seedSite();
  const token = await credential(s);
  const model = await addModel(s.ctx(), {
    slug: "doc",
    name: "Doc",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "cover", label: "Cover", type: "media" },
      { key: "files", label: "Files", type: "media", multiple: true },
      { key: "secret", label: "Secret", type: "media", private: true },
    ],
  });
  return { s, token, modelId: model.id };
}

async function createEntry(x: Setup, title: string, fields: Record<string, unknown>): Promise<Entry> {
  const created = await manage<Entry>(x.token, "POST", "/entries", { body: { model_id: x.modelId, fields: { title, ...fields } } });
  expect(created.status).toBe(201);
  return created.body;
}

async function publish(x: Setup, id: string): Promise<void> {
  const published = await manage(x.token, "POST", `/entries/${id}/publish`, { body: {} });
  expect(published.status).toBe(200);
}

async function unpublish(x: Setup, id: string): Promise<void> {
  const done = await manage(x.token, "POST", `/entries/${id}/unpublish`, { body: {} });
  expect(done.status).toBe(200);
}

async function publicItem(x: Setup, slug: string): Promise<PublicItem> {
  const res = await deliver(x.s.host, `/v1/doc/${slug}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: PublicItem }).data;
}

async function pins(siteId: string): Promise<{ instance_id: string; media_id: string; object_key: string; file_name: string }[]> {
  const rows = await env.DB.prepare("SELECT instance_id, media_id, object_key, file_name FROM published_media WHERE site_id = ? ORDER BY object_key").bind(siteId).all<{ instance_id: string; media_id: string; object_key: string; file_name: string }>();
  return rows.results;
}

const keyOf = (x: Setup, item: { id: string; object_id: string }) => `${x.s.site.id}/${item.id}/${item.object_id}`;

describe("public media delivery: GET/HEAD /media/{id}/{object id}/{file}", () => {
  it("serves exactly the bytes and headers of what a published item's media names; private fields' media are neither in the item nor served; pins follow the item", async () => {
    const x = await setup();
    const imageBytes = png(3, 2, "cover");
    const image = await upload(x.token, imageBytes, "Sea at dawn.png");
    const pdfBytes = pdf("report");
    const doc = await upload(x.token, pdfBytes, "Report 2026 (final).pdf");
    const secret = await upload(x.token, pdf("secret"), "secret.pdf");
    expect(image.url).toBe(`/media/${image.id}/${image.object_id}/Sea%20at%20dawn.png`);
    const entry = await createEntry(x, "Annual", { cover: image.id, files: [doc.id], secret: secret.id });
    await publish(x, entry.instance_id);

    const item = await publicItem(x, "annual");
    expect(item.media.cover).toEqual([expect.objectContaining({ id: image.id, url: image.url, kind: "image", mime_type: "image/png", file_name: "Sea at dawn.png", width: 3, height: 2 })]);
    expect(item.media.files?.[0]?.url).toBe(doc.url);
    expect(item.media.secret).toBeUndefined();
    expect(JSON.stringify(item)).not.toContain(secret.id);
    expect(await pins(x.s.site.id)).toEqual(
      [
        { instance_id: entry.instance_id, media_id: image.id, object_key: keyOf(x, image), file_name: "Sea at dawn.png" },
        { instance_id: entry.instance_id, media_id: doc.id, object_key: keyOf(x, doc), file_name: "Report 2026 (final).pdf" },
      ].sort((a, b) => (a.object_key < b.object_key ? -1 : 1)),
    );

    const got = await deliver(x.s.host, image.url);
    expect(got.status).toBe(200);
    expect(await bytesOf(got)).toEqual(imageBytes);
    const stored = await env.MEDIA.head(keyOf(x, image));
    expect(Object.fromEntries(got.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(imageBytes.byteLength),
      etag: stored?.httpEtag,
      "accept-ranges": "bytes",
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": "inline; filename*=UTF-8''Sea%20at%20dawn.png",
    });
    expect(got.headers.get("etag")).toMatch(/^"[^"]+"$/);

    const file = await deliver(x.s.host, doc.url);
    expect(file.status).toBe(200);
    expect(await bytesOf(file)).toEqual(pdfBytes);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''Report%202026%20%28final%29.pdf");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");

    // The private field's media: not pinned, not served (its management url names a real object).
    expect((await deliver(x.s.host, secret.url)).status).toBe(404);

    // HEAD: the headers without a body.
    const head = await deliver(x.s.host, image.url, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(got.headers.get("etag"));
    expect(head.headers.get("content-type")).toBe("image/png");
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    // A query string is ignored; other methods are the public API's one 404.
    expect(await bytesOf(await deliver(x.s.host, `${image.url}?v=2`))).toEqual(imageBytes);
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await workerFetch(`http://${x.s.host}${image.url}`, { method, body: method === "DELETE" ? null : "x" });
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }

    // Unpublish: the pins go with the published row, and nothing is served any more.
    await unpublish(x, entry.instance_id);
    expect(await pins(x.s.site.id)).toEqual([]);
    expect((await deliver(x.s.host, image.url)).status).toBe(404);
    expect((await deliver(x.s.host, doc.url, { range: "bytes=0-3" })).status).toBe(404);
    expect((await deliver(x.s.host, image.url, {}, "HEAD")).status).toBe(404);
  });

  it("answers If-None-Match with 304 and Range with 206 (a-b, a-, -n), 416 when unsatisfiable, the whole file for several or malformed ranges", async () => {
    const x = await setup();
    const bytes = pdf("ranges ".repeat(20));
    const size = bytes.byteLength;
    const doc = await upload(x.token, bytes, "ranges.pdf");
    const entry = await createEntry(x, "Ranges", { files: [doc.id] });
    await publish(x, entry.instance_id);
    const full = await deliver(x.s.host, doc.url);
    const etag = full.headers.get("etag") ?? "";
    await full.arrayBuffer();

    const notModified = await deliver(x.s.host, doc.url, { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
    expect((await deliver(x.s.host, doc.url, { "if-none-match": `"other", ${etag}` })).status).toBe(304);
    expect((await deliver(x.s.host, doc.url, { "if-none-match": "*" })).status).toBe(304);
    expect((await deliver(x.s.host, doc.url, { "if-none-match": etag }, "HEAD")).status).toBe(304);
    const changed = await deliver(x.s.host, doc.url, { "if-none-match": '"not-this"' });
    expect(changed.status).toBe(200);
    expect(await bytesOf(changed)).toEqual(bytes);

    const part = async (range: string, start: number, end: number) => {
      const res = await deliver(x.s.host, doc.url, { range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await bytesOf(res), range).toEqual(bytes.slice(start, end + 1));
    };
    await part("bytes=0-9", 0, 9);
    await part("bytes=5-", 5, size - 1);
    await part("bytes=-7", size - 7, size - 1);
    await part("bytes=-99999", 0, size - 1);
    await part(`bytes=10-${size + 500}`, 10, size - 1);
    await part(`bytes=${size - 1}-${size - 1}`, size - 1, size - 1);

    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, "bytes=-0"]) {
      const res = await deliver(x.s.host, doc.url, { range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range"), range).toBe(`bytes */${size}`);
      await res.arrayBuffer();
    }
    // Several ranges, another unit, reversed or malformed bounds: the whole file (RFC 9110 lets a server ignore Range).
    for (const range of ["bytes=0-1,4-5", "items=0-1", "bytes=9-3", "bytes=a-b", "bytes=-", "bytes=0-1;"]) {
      const res = await deliver(x.s.host, doc.url, { range });
      expect(res.status, range).toBe(200);
      expect(await bytesOf(res), range).toEqual(bytes);
    }
    // If-Range naming another version: the whole file; naming this one: the range.
    const stale = await deliver(x.s.host, doc.url, { range: "bytes=0-1", "if-range": '"old"' });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const current = await deliver(x.s.host, doc.url, { range: "bytes=0-1", "if-range": etag });
    expect(current.status).toBe(206);
    await current.arrayBuffer();
  });

  it("a draft-only reference, another site's host, a forged or superseded object id, another file name and malformed ids are the one 404", async () => {
    const x = await setup();
    const other = await setup();
    const image = await upload(x.token, png(2, 2, "a"), "a.png");
    const draftOnly = await upload(x.token, png(2, 2, "draft"), "draft.png");
    const published = await createEntry(x, "Shown", { cover: image.id });
    await publish(x, published.instance_id);
    await createEntry(x, "Draft", { cover: draftOnly.id });
    expect((await deliver(x.s.host, image.url)).status).toBe(200);

    expect((await deliver(x.s.host, draftOnly.url)).status).toBe(404);
    // Another site's host asking for this site's object: the key is built from that host's site.
    expect((await deliver(other.s.host, image.url)).status).toBe(404);
    expect((await deliver("unknown-host.test", image.url)).status).toBe(404);
    // The same media id with another object id (forged, or another item's object).
    expect((await deliver(x.s.host, `/media/${image.id}/obj_forged123/a.png`)).status).toBe(404);
    expect((await deliver(x.s.host, `/media/${image.id}/${draftOnly.object_id}/a.png`)).status).toBe(404);
    expect((await deliver(x.s.host, `/media/${draftOnly.id}/${image.object_id}/a.png`)).status).toBe(404);
    // Another file name for a pinned object (decision: 404, the url must be read from the item).
    for (const name of ["b.png", "A.png", "a.png.html", "a.png%00", "%2e%2e"]) {
      expect((await deliver(x.s.host, `/media/${image.id}/${image.object_id}/${name}`)).status, name).toBe(404);
    }
    for (const path of [
      `/media/${image.id}/${image.object_id}`,
      `/media/${image.id}/${image.object_id}/a.png/more`,
      `/media/${image.id}/${image.object_id}/`,
      `/media/${image.id}/${image.object_id}/%ZZ`,
      `/media/../${image.object_id}/a.png`,
      `/media/${image.id.replace("med_", "ent_")}/${image.object_id}/a.png`,
      `/media/${image.id}/${x.s.site.id}/a.png`,
      `/media/${image.id}/${image.object_id}/${"n".repeat(1100)}`,
    ]) {
      expect((await deliver(x.s.host, path)).status, path).toBe(404);
    }
    // Another site with its own published copy of the same bytes serves only its own object.
    const theirs = await upload(other.token, png(2, 2, "a"), "a.png");
    const entry = await createEntry(other, "Theirs", { cover: theirs.id });
    await publish(other, entry.instance_id);
    expect((await deliver(other.s.host, theirs.url)).status).toBe(200);
    expect((await deliver(x.s.host, theirs.url)).status).toBe(404);
    expect((await deliver(other.s.host, `/media/${theirs.id}/${image.object_id}/a.png`)).status).toBe(404);
  });

  it("after a replace the published url keeps serving the old bytes, the management url is the new one (not served until published), and a republish serves the new url only", async () => {
    const x = await setup();
    const oldBytes = png(3, 2, "old");
    const image = await upload(x.token, oldBytes, "old.png");
    const entry = await createEntry(x, "Pinned", { cover: image.id });
    await publish(x, entry.instance_id);
    const before = await publicItem(x, "pinned");
    expect(before.media.cover?.[0]?.url).toBe(image.url);

    const newBytes = jpeg(8, 6);
    const replaced = await replaceMedia(x.token, image.id, { bytes: newBytes, name: "new.jpg" });
    expect(replaced.status).toBe(200);
    const now = replaced.body.media;
    expect(now.url).toBe(`/media/${image.id}/${now.object_id}/new.jpg`);
    expect(now.url).not.toBe(image.url);
    expect((await manage<{ media: MediaItemBody }>(x.token, "GET", `/media/${image.id}`)).body.media.url).toBe(now.url);

    expect((await publicItem(x, "pinned")).media.cover?.[0]?.url).toBe(image.url);
    const old = await deliver(x.s.host, image.url);
    expect(old.status).toBe(200);
    expect(await bytesOf(old)).toEqual(oldBytes);
    expect(old.headers.get("content-type")).toBe("image/png");
    expect((await deliver(x.s.host, now.url)).status).toBe(404);

    // A model change that re-renders the published item (a field added) keeps the pinned object and its file facts.
    const model = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Record<string, unknown>[] } }>(x.token, "GET", `/models/${x.modelId}`);
    const definition = { model: model.body.definition.model, fields: [...model.body.definition.fields, { key: "subtitle", label: "Subtitle", type: "text" }] };
    const rerendered = await manage(x.token, "PUT", `/models/${x.modelId}/definition`, { body: { expected_revision: model.body.revision, definition } });
    expect(rerendered.status).toBe(200);
    const kept = await publicItem(x, "pinned");
    expect(kept.fields).toHaveProperty("subtitle", null);
    expect(kept.media.cover?.[0]).toMatchObject({ url: image.url, mime_type: "image/png", file_name: "old.png", width: 3, height: 2 });
    expect(await bytesOf(await deliver(x.s.host, image.url))).toEqual(oldBytes);
    expect((await deliver(x.s.host, now.url)).status).toBe(404);

    // A new draft (the media field unchanged) published again: the snapshot pins the current object.
    const saved = await manage(x.token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { files: [] } } });
    expect(saved.status).toBe(200);
    await publish(x, entry.instance_id);
    const after = await publicItem(x, "pinned");
    expect(after.media.cover?.[0]).toMatchObject({ url: now.url, mime_type: "image/jpeg", file_name: "new.jpg", width: 8, height: 6 });
    const fresh = await deliver(x.s.host, now.url);
    expect(fresh.status).toBe(200);
    expect(await bytesOf(fresh)).toEqual(newBytes);
    expect(fresh.headers.get("content-type")).toBe("image/jpeg");
    // The superseded object is pinned by nothing now.
    expect((await deliver(x.s.host, image.url)).status).toBe(404);
    expect((await pins(x.s.site.id)).map((p) => p.object_key)).toEqual([keyOf(x, now)]);
  });

  it("a dependent re-rendered when its relation target is republished keeps the object it pinned", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const { article, author } = await blogModels(s.ctx());
    const image = await upload(token, png(3, 3, "dep"), "dep.png");
    const ann = await manage<Entry>(token, "POST", "/entries", { body: { model_id: author.id, fields: { name: "Ann" } } });
    expect((await manage(token, "POST", `/entries/${ann.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const post = await manage<Entry>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Post", author: ann.body.instance_id, cover: image.id } } });
    expect((await manage(token, "POST", `/entries/${post.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const replaced = await replaceMedia(token, image.id, { bytes: png(6, 6, "dep2"), name: "dep2.png" });
    expect(replaced.status).toBe(200);
    const renamed = await manage(token, "PUT", `/entries/${ann.body.instance_id}`, { body: { expected_version_id: ann.body.current_version_id, fields: { name: "Ann B" } } });
    expect(renamed.status).toBe(200);
    expect((await manage(token, "POST", `/entries/${ann.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const res = await deliver(s.host, "/v1/article/post");
    const item = ((await res.json()) as { data: PublicItem & { relations: Record<string, { display: string }[]> } }).data;
    expect(item.relations.author?.[0]?.display).toBe("Ann B");
    expect(item.media.cover?.[0]).toMatchObject({ url: image.url, width: 3, height: 3 });
    expect((await deliver(s.host, image.url)).status).toBe(200);
    expect((await deliver(s.host, replaced.body.media.url)).status).toBe(404);
  });

  it("an object two items pin stays served until the last one is withdrawn; a model re-render keeps the pins", async () => {
    const x = await setup();
    const image = await upload(x.token, png(2, 2, "shared"), "shared.png");
    const a = await createEntry(x, "First", { cover: image.id });
    const b = await createEntry(x, "Second", { files: [image.id] });
    await publish(x, a.instance_id);
    await publish(x, b.instance_id);
    await unpublish(x, a.instance_id);
    expect((await deliver(x.s.host, image.url)).status).toBe(200);
    await unpublish(x, b.instance_id);
    expect((await deliver(x.s.host, image.url)).status).toBe(404);
    await publish(x, b.instance_id);
    expect((await deliver(x.s.host, image.url)).status).toBe(200);

    // A published item of a model made private: served only with a site token naming the model,
    // and then never as a shared (cacheable) answer.
    const model = await manage<{ revision: number }>(x.token, "GET", `/models/${x.modelId}`);
    const changed = await manage(x.token, "PUT", `/models/${x.modelId}`, { body: { expected_revision: model.body.revision, model: { is_public: false } } });
    expect(changed.status).toBe(200);
    expect((await deliver(x.s.host, image.url)).status).toBe(404);
    const siteToken = `dw_site_${"t".repeat(43)}`;
    const wrongToken = `dw_site_${"w".repeat(43)}`;
    await env.DB.prepare("INSERT INTO site_api_tokens (id, site_id, name, digest, model_ids, created_by, created_at, revoked_at) VALUES (?, ?, 'front', ?, ?, NULL, 't', NULL)")
      .bind(`tok_${x.s.site.id}`, x.s.site.id, await sha256Hex(siteToken), JSON.stringify([x.modelId]))
      .run();
    const withToken = await deliver(x.s.host, image.url, { authorization: `Bearer ${siteToken}` });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("cache-control")).toBe("private, no-store");
    await withToken.arrayBuffer();
    expect((await deliver(x.s.host, image.url, { authorization: `Bearer ${wrongToken}` })).status).toBe(404);
    // The token reads only its own site's pins.
    const other = await setup();
    expect((await deliver(other.s.host, image.url, { authorization: `Bearer ${siteToken}` })).status).toBe(404);
  });

  it("media.public_library serves every item's current file (never a superseded one) while on; off by default", async () => {
    const x = await setup();
    const read = await manage<{ settings: { media: { public_library: boolean } } }>(x.token, "GET", "/settings");
    expect(read.body.settings.media.public_library).toBe(false);
    const image = await upload(x.token, png(2, 2, "lib"), "lib.png");
    expect((await deliver(x.s.host, image.url)).status).toBe(404);

    const bad = await manage(x.token, "PUT", "/settings", { body: { media: { public_library: "yes" } } });
    expect(bad.status).toBe(400);
    const on = await manage<{ settings: { media: { public_library: boolean; allowed: Record<string, string[]> } } }>(x.token, "PUT", "/settings", { body: { media: { public_library: true } } });
    expect(on.status).toBe(200);
    expect(on.body.settings.media.public_library).toBe(true);
    expect(on.body.settings.media.allowed.image).toContain("png");

    const served = await deliver(x.s.host, image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''lib.png");
    await served.arrayBuffer();
    expect((await deliver(x.s.host, `/media/${image.id}/${image.object_id}/other.png`)).status).toBe(404);

    const replaced = await replaceMedia(x.token, image.id, { bytes: png(4, 4, "lib2"), name: "lib2.png" });
    expect(replaced.status).toBe(200);
    expect((await deliver(x.s.host, replaced.body.media.url)).status).toBe(200);
    expect((await deliver(x.s.host, image.url)).status).toBe(404);
    // Another site's open library never serves this site's objects.
    const other = await setup();
    await manage(other.token, "PUT", "/settings", { body: { media: { public_library: true } } });
    expect((await deliver(other.s.host, replaced.body.media.url)).status).toBe(404);

    const off = await manage(x.token, "PUT", "/settings", { body: { media: { public_library: false } } });
    expect(off.status).toBe(200);
    expect((await deliver(x.s.host, replaced.body.media.url)).status).toBe(404);
  });

  it("with edge caching on, stores the full file with the pinning items' tags; an unpublish purges one of them; a Range request never comes from the cache", async () => {
    const x = await setup();
    const bytes = png(5, 5, "cached");
    const image = await upload(x.token, bytes, "cached.png");
    const entry = await createEntry(x, "Cached", { cover: image.id });
    await publish(x, entry.instance_id);
    const cachingOn: Env = { ...env, PUBLIC_CACHE_MAX_AGE: "60" };
    const read = async (headers: Record<string, string> = {}) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://${x.s.host}${image.url}`, { headers }), cachingOn, ctx);
      const body = await bytesOf(res);
      await waitOnExecutionContext(ctx);
      return { res, body };
    };
    const first = await read();
    expect(first.res.status).toBe(200);
    expect(first.body).toEqual(bytes);
    expect(first.res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const key = new Request(`https://${x.s.host}${image.url}`);
    const cached = await caches.default.match(key);
    expect(cached).toBeDefined();
    const tags = (cached?.headers.get("cache-tag") ?? "").split(",");
    await cached?.arrayBuffer();
    expect(tags).toEqual(expect.arrayContaining([cacheTag.site(x.s.site.id), cacheTag.item(entry.translation_group_id), cacheTag.model(x.modelId)]));

    const hit = await read({ "if-none-match": first.res.headers.get("etag") ?? "" });
    expect(hit.res.status).toBe(304);
    const again = await read();
    expect(again.body).toEqual(bytes);
    expect(again.res.headers.get("cf-cache-status")).toBe("HIT");
    expect(first.res.headers.get("cf-cache-status")).toBeNull();
    expect(again.res.headers.get("cache-tag")).toBeNull();
    expect(again.res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    // The unpublish purges a tag the stored copy carries, so the CDN evicts it.
    const plan = await lifecycle.unpublishEntry(x.s.ctx(), { instance_id: entry.instance_id });
    expect(plan.purgeTags.some((t) => tags.includes(t))).toBe(true);
    await apply(x.s.ctx(), Promise.resolve(plan));
    // A Range request is answered from R2 after the pin check: refused at once.
    expect((await read({ range: "bytes=0-3" })).res.status).toBe(404);
    // Evicted (as the purge of that tag does at the edge): the file is no longer served.
    await caches.default.delete(key);
    expect((await read()).res.status).toBe(404);
    expect(await caches.default.match(key)).toBeUndefined();
  });

  it("serves images named by a published rich-text field (also spelled %-encoded or with dot segments), never a private field's, and only while published", async () => {
    const x = await setup();
    const model = await addModel(x.s.ctx(), {
      slug: "page",
      name: "Page",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "body", label: "Body", type: "rich_text" },
        { key: "notes", label: "Notes", type: "rich_text", private: true },
      ],
    });
    const shown = await upload(x.token, png(4, 4, "in body"), "in-body.png");
    const encoded = await upload(x.token, png(4, 5, "encoded"), "encoded.png");
    const hidden = await upload(x.token, png(5, 4, "in notes"), "in-notes.png");
    const encodedSrc = encoded.url.replace("/media/med_", "/media/./%6Ded_");
    const created = await manage<Entry>(x.token, "POST", "/entries", {
      body: { model_id: model.id, fields: { title: "Page", body: `<p><img src="${shown.url}" alt="a"><img src="${encodedSrc}" alt="b"></p>`, notes: `<p><img src="${hidden.url}" alt="c"></p>` } },
    });
    expect(created.status).toBe(201);
    expect((await deliver(x.s.host, shown.url)).status).toBe(404); // a draft pins nothing
    await publish(x, created.body.instance_id);
    const served = await deliver(x.s.host, shown.url);
    expect(served.status).toBe(200);
    expect(await bytesOf(served)).toEqual(png(4, 4, "in body"));
    expect((await deliver(x.s.host, encoded.url)).status).toBe(200);
    expect((await deliver(x.s.host, hidden.url)).status).toBe(404);
    // The usage index reads the same addresses: the encoded one is a use too.
    const usage = await manage<{ total: number }>(x.token, "GET", `/media/${encoded.id}/usage`);
    expect(usage.body.total).toBe(1);
    await unpublish(x, created.body.instance_id);
    expect((await deliver(x.s.host, shown.url)).status).toBe(404);
  });

  it("tags stored copies with the media item, and a replace or a remove purges that tag", async () => {
    const x = await setup();
    const image = await upload(x.token, png(6, 6, "tagged"), "tagged.png");
    const on = await manage(x.token, "PUT", "/settings", { body: { media: { public_library: true } } });
    expect(on.status).toBe(200);
    const cachingOn: Env = { ...env, PUBLIC_CACHE_MAX_AGE: "60" };
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`http://${x.s.host}${image.url}`), cachingOn, ctx);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await waitOnExecutionContext(ctx);
    const key = new Request(`https://${x.s.host}${image.url}`);
    const cached = await caches.default.match(key);
    const tags = (cached?.headers.get("cache-tag") ?? "").split(",");
    await cached?.arrayBuffer();
    expect(tags).toContain(cacheTag.media(image.id));
    const bytes = png(7, 7, "next");
    const next = newObjectKey(x.s.site.id, image.id);
    const replaced = await replacePlan(x.s.ctx(), {
      media_id: image.id,
      object_key: next.objectKey,
      kind: "image",
      file_name: "next.png",
      mime_type: "image/png",
      byte_length: bytes.byteLength,
      sha256: await sha256Hex(bytes),
      width: 7,
      height: 7,
    });
    expect(replaced.purgeTags).toContain(cacheTag.media(image.id));
    const removed = await removePlan(x.s.ctx(), { media_id: image.id });
    expect(removed.purgeTags).toContain(cacheTag.media(image.id));
  });
});
