import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { setOriginal, uploadMedia, type MediaItemBody } from "../helpers/media-api";
import { jpeg, pdf, png } from "../helpers/media-samples";
import { workerFetch } from "../helpers/worker";

/** The public item's original of a media value (docs/media.md, "Originals in public items"). */
type OriginalRef = { id: string; lang: string | null; url: string; mime_type: string; byte_length: number; width: number | null; height: number | null };
type Ref = { id: string; url: string; file_name: string; original?: OriginalRef };
type PublicItem = { id: string; locale: string; fields: Record<string, unknown>; media: Record<string, Ref[]> };
type Entry = { instance_id: string; current_version_id: string };
type Original = { id: string; lang: string | null; url: string | null; file_name: string };
type SetAnswer = { original: Original };
type ListAnswer = { originals: Original[] };

interface Setup {
  s: SeededSite;
  token: string;
  modelId: string;
}

/** Languages en (default), fr, de, es; fallback order de. Model `doc`: `cover`, `files` (multiple), `secret` (private). */
async function setup(): Promise<Setup> {
  const s = await seedSite({ languages: ["en", "fr", "de", "es"], settings: { locale_fallback: ["de"] } });
  const token = await credential(s);
  const model = await addModel(s.ctx(), {
    slug: "doc",
    name: "Doc",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "cover", label: "Cover", type: "media" },
      { key: "files", label: "Files", type: "media", multiple: true },
      { key: "secret", label: "Secret", type: "media", private: true },
    ],
  });
  return { s, token, modelId: model.id };
}

function deliver(x: Setup, path: string, host = x.s.host): Promise<Response> {
  return workerFetch(`http://${host}${path}`);
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

async function statusOf(x: Setup, path: string): Promise<number> {
  const res = await deliver(x, path);
  await res.arrayBuffer();
  return res.status;
}

async function upload(x: Setup, bytes: Uint8Array, name: string): Promise<MediaItemBody> {
  const up = await uploadMedia(x.token, { bytes, name }, { on_duplicate: "copy" });
  expect(up.status).toBe(201);
  return up.body.media;
}

async function override(x: Setup, mediaId: string, lang: string, bytes: Uint8Array, name: string, expected: string): Promise<Original> {
  const set = await setOriginal<SetAnswer>(x.token, mediaId, lang, { bytes, name }, { expected_object_id: expected });
  expect([200, 201]).toContain(set.status);
  return set.body.original;
}

async function createEntry(x: Setup, lang: string, title: string, fields: Record<string, unknown>): Promise<Entry> {
  const created = await manage<Entry>(x.token, "POST", "/entries", { body: { model_id: x.modelId, lang, fields: { title, ...fields } } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
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

async function publicItem(x: Setup, slug: string, lang: string): Promise<PublicItem> {
  const res = await deliver(x, `/v1/doc/${slug}?locale=${lang}`);
  expect(res.status).toBe(200);
  const item = ((await res.json()) as { data: PublicItem }).data;
  expect(item.locale).toBe(lang);
  return item;
}

async function originals(x: Setup, mediaId: string): Promise<Map<string | null, Original>> {
  const got = await manage<ListAnswer>(x.token, "GET", `/media/${mediaId}/originals`);
  expect(got.status).toBe(200);
  return new Map(got.body.originals.map((o) => [o.lang, o]));
}

async function pinnedKeys(x: Setup): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT object_key FROM published_media WHERE site_id = ? ORDER BY object_key").bind(x.s.site.id).all<{ object_key: string }>();
  return rows.results.map((r) => r.object_key);
}

const keyOf = (x: Setup, mediaId: string, objectId: string) => `${x.s.site.id}/${mediaId}/${objectId}`;

describe("originals by language in public items (spec 2 rule 7)", () => {
  it("serves the language's override, else the site's fallback order's, else the default original; pinned with the item, private fields' media never", async () => {
    const x = await setup();
    const image = await upload(x, png(4, 3, "default"), "sea.png");
    const frBytes = jpeg(40, 30);
    const deBytes = jpeg(50, 20);
    const fr = await override(x, image.id, "fr", frBytes, "mer.jpg", "");
    const de = await override(x, image.id, "de", deBytes, "Meer.jpg", "");
    const docBytes = pdf("report");
    const doc = await upload(x, docBytes, "report.pdf");
    const docFr = await override(x, doc.id, "fr", pdf("rapport"), "rapport.pdf", "");
    const secret = await upload(x, png(2, 2, "secret"), "secret.png");
    const secretFr = await override(x, secret.id, "fr", jpeg(12, 12), "secret-fr.jpg", "");

    const frEntry = await createEntry(x, "fr", "Rapport", { cover: image.id, files: [doc.id], secret: secret.id });
    const esEntry = await createEntry(x, "es", "Informe", { cover: image.id, files: [doc.id] });
    const enEntry = await createEntry(x, "en", "Report", { files: [doc.id] });
    // Nothing published: every original is private.
    for (const o of (await originals(x, image.id)).values()) expect(o.url).toBeNull();
    await publish(x, frEntry.instance_id);
    await publish(x, esEntry.instance_id);
    await publish(x, enEntry.instance_id);

    // fr: its own override, with the override's file facts and address.
    const frItem = await publicItem(x, "rapport", "fr");
    const frUrl = `/media/${image.id}/${fr.id}/mer.jpg`;
    expect(frItem.media.cover?.[0]).toMatchObject({ id: image.id, url: image.url, file_name: "sea.png" });
    expect(frItem.media.cover?.[0]?.original).toEqual({ id: fr.id, lang: "fr", url: frUrl, mime_type: "image/jpeg", byte_length: frBytes.byteLength, width: 40, height: 30 });
    expect(frItem.media.files?.[0]?.original).toMatchObject({ id: docFr.id, lang: "fr", url: `/media/${doc.id}/${docFr.id}/rapport.pdf`, mime_type: "application/pdf" });
    const served = await deliver(x, frUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(await bytesOf(served)).toEqual(frBytes);
    // The private field's media: absent from the item, and neither its file nor its original pinned or served.
    expect(frItem.media.secret).toBeUndefined();
    expect(JSON.stringify(frItem)).not.toContain(secret.id);
    expect(await statusOf(x, `/media/${secret.id}/${secretFr.id}/secret-fr.jpg`)).toBe(404);
    expect(await statusOf(x, secret.url)).toBe(404);
    expect((await pinnedKeys(x)).filter((k) => k.includes(secret.id))).toEqual([]);

    // es has no override: the fallback order (de) gives de's; for the pdf no language of [es, de, en] has one → the default.
    const esItem = await publicItem(x, "informe", "es");
    expect(esItem.media.cover?.[0]?.original).toEqual({ id: de.id, lang: "de", url: `/media/${image.id}/${de.id}/Meer.jpg`, mime_type: "image/jpeg", byte_length: deBytes.byteLength, width: 50, height: 20 });
    expect(await bytesOf(await deliver(x, `/media/${image.id}/${de.id}/Meer.jpg`))).toEqual(deBytes);
    expect(esItem.media.files?.[0]?.original).toEqual({ id: doc.object_id, lang: null, url: doc.url, mime_type: "application/pdf", byte_length: docBytes.byteLength, width: null, height: null });
    expect((await publicItem(x, "report", "en")).media.files?.[0]?.original).toMatchObject({ id: doc.object_id, lang: null, url: doc.url });

    // The management answer now gives the pinned originals' urls; another file name or another site's host is the one 404.
    const listed = await originals(x, image.id);
    expect(listed.get("fr")?.url).toBe(frUrl);
    expect(listed.get("de")?.url).toBe(`/media/${image.id}/${de.id}/Meer.jpg`);
    expect(listed.get(null)?.url).toBe(image.url);
    expect(await statusOf(x, `/media/${image.id}/${fr.id}/sea.png`)).toBe(404);
    expect(await statusOf(x, `/media/${image.id}/${fr.id}/mer.jpg/`)).toBe(404);
    const other = await setup();
    expect((await deliver(x, frUrl, other.s.host)).status).toBe(404);

    // With the fallback turned off, a re-render keeps what is pinned; a republish of es then resolves to the default.
    const off = await manage(x.token, "PUT", "/settings", { body: { locale_fallback_enabled: false } });
    expect(off.status).toBe(200);
    const saved = await manage(x.token, "PUT", `/entries/${esEntry.instance_id}`, { body: { expected_version_id: esEntry.current_version_id, fields: { title: "Informe 2" } } });
    expect(saved.status).toBe(200);
    await publish(x, esEntry.instance_id);
    expect((await publicItem(x, "informe", "es")).media.cover?.[0]?.original).toMatchObject({ id: image.object_id, lang: null, url: image.url });
    expect(await statusOf(x, `/media/${image.id}/${de.id}/Meer.jpg`)).toBe(404);

    // Unpublish: the originals go with the pins.
    await unpublish(x, frEntry.instance_id);
    expect(await statusOf(x, frUrl)).toBe(404);
    expect(await statusOf(x, `/media/${doc.id}/${docFr.id}/rapport.pdf`)).toBe(404);
    expect((await originals(x, image.id)).get("fr")?.url).toBeNull();
    await unpublish(x, esEntry.instance_id);
    await unpublish(x, enEntry.instance_id);
    expect(await pinnedKeys(x)).toEqual([]);
  });

  it("an override set, replaced or removed after publishing changes the published item only when it is published again; re-renders keep the pinned original", async () => {
    const x = await setup();
    const image = await upload(x, png(4, 3, "default"), "sea.png");
    const entry = await createEntry(x, "fr", "Plage", { cover: image.id });
    await publish(x, entry.instance_id);
    // No override yet: the default original (the item's own file), one pin for both.
    expect((await publicItem(x, "plage", "fr")).media.cover?.[0]?.original).toMatchObject({ id: image.object_id, lang: null, url: image.url });
    expect(await pinnedKeys(x)).toEqual([keyOf(x, image.id, image.object_id)]);

    // A new override after publishing: the published item does not change, the override is not served.
    const firstBytes = jpeg(20, 10);
    const first = await override(x, image.id, "fr", firstBytes, "plage.jpg", "");
    const firstUrl = `/media/${image.id}/${first.id}/plage.jpg`;
    expect((await publicItem(x, "plage", "fr")).media.cover?.[0]?.original).toMatchObject({ id: image.object_id, lang: null });
    expect(await statusOf(x, firstUrl)).toBe(404);
    expect((await originals(x, image.id)).get("fr")?.url).toBeNull();

    // Republished: the override is served.
    let draft = await manage<Entry>(x.token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { title: "Plage 2" } } });
    expect(draft.status).toBe(200);
    await publish(x, entry.instance_id);
    expect((await publicItem(x, "plage", "fr")).media.cover?.[0]?.original).toMatchObject({ id: first.id, lang: "fr", url: firstUrl, width: 20, height: 10 });
    expect(await bytesOf(await deliver(x, firstUrl))).toEqual(firstBytes);
    expect(await pinnedKeys(x)).toEqual([keyOf(x, image.id, image.object_id), keyOf(x, image.id, first.id)].sort());

    // The override replaced: the published item keeps the first one; so does a re-render (a model change).
    const secondBytes = jpeg(30, 15);
    const second = await override(x, image.id, "fr", secondBytes, "plage-v2.jpg", first.id);
    const secondUrl = `/media/${image.id}/${second.id}/plage-v2.jpg`;
    const model = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Record<string, unknown>[] } }>(x.token, "GET", `/models/${x.modelId}`);
    const definition = { model: model.body.definition.model, fields: [...model.body.definition.fields, { key: "subtitle", label: "Subtitle", type: "text" }] };
    expect((await manage(x.token, "PUT", `/models/${x.modelId}/definition`, { body: { expected_revision: model.body.revision, definition } })).status).toBe(200);
    const rerendered = await publicItem(x, "plage", "fr");
    expect(rerendered.fields).toHaveProperty("subtitle", null);
    expect(rerendered.media.cover?.[0]?.original).toEqual({ id: first.id, lang: "fr", url: firstUrl, mime_type: "image/jpeg", byte_length: firstBytes.byteLength, width: 20, height: 10 });
    expect(await bytesOf(await deliver(x, firstUrl))).toEqual(firstBytes);
    expect(await statusOf(x, secondUrl)).toBe(404);

    // Removing the override: still the first while published; a republish falls back to the default and stops serving it.
    const removed = await manage(x.token, "DELETE", `/media/${image.id}/originals/fr`, { body: { expected_object_id: second.id } });
    expect(removed.status).toBe(200);
    expect((await publicItem(x, "plage", "fr")).media.cover?.[0]?.original?.id).toBe(first.id);
    expect(await statusOf(x, firstUrl)).toBe(200);
    const current = await manage<Entry>(x.token, "GET", `/entries/${entry.instance_id}`);
    draft = await manage<Entry>(x.token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: current.body.current_version_id, fields: { title: "Plage 3" } } });
    expect(draft.status).toBe(200);
    await publish(x, entry.instance_id);
    expect((await publicItem(x, "plage", "fr")).media.cover?.[0]?.original).toMatchObject({ id: image.object_id, lang: null, url: image.url });
    expect(await statusOf(x, firstUrl)).toBe(404);
    expect(await statusOf(x, secondUrl)).toBe(404);
    expect(await pinnedKeys(x)).toEqual([keyOf(x, image.id, image.object_id)]);
  });
});
