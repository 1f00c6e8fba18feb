import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import { answerWith, freshEndpoint } from "../helpers/fake-plugin";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { replaceMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { installTestPlugin, testManifest } from "../helpers/plugins";
import { signIn } from "../helpers/admin-api";
import { workerFetch } from "../helpers/worker";

/**
 * Media sources, mode `reference` (issue #26 item 3; spec 2 rule 6; docs/media.md, "Linked
 * items"): a linked external item pointing at the plugin's file address — the address judged by
 * the outbound policy, the file's first bytes by the upload's checks, nothing stored in R2 —
 * delivered by a redirect to that address, and never replaceable.
 */

type Err = { error: { code: string; [k: string]: unknown } };
type Media = { id: string; kind: string; file_name: string; mime_type: string; byte_length: number; sha256: string; width: number | null; credit: string | null; object_id: string; url: string; external_url: string | null };
type Answer = { media: Media; reused?: true; replayed?: boolean };

const CAPS = ["content:read", "media:read", "media:write", "media:source"];

async function setup() {
  const s = await seedSite();
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({ id: "dam", name: "Linked DAM", endpoint, capabilities: CAPS, media_sources: [{ id: "photos", label: "Photos", modes: ["copy", "reference"] }] });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [], capabilities: CAPS as never });
  return { s, plugin, path, token: await credential(s) };
}

const importItem = (token: string, pluginId: string, itemId: string, mode: "copy" | "reference", key?: string) =>
  manage<Answer & Err>(token, "POST", `/media/sources/${pluginId}/photos/import`, { body: { item_id: itemId, mode }, ...(key ? { key } : {}) });
const rows = async (siteId: string) => (await env.DB.prepare("SELECT id, object_key, external_url FROM media WHERE site_id = ? ORDER BY created_at, id").bind(siteId).all<{ id: string; object_key: string; external_url: string | null }>()).results;

describe("media sources: import by reference", () => {
  it("links the plugin's file address after the upload's checks on its first bytes; stores no bytes; once per address; a copy stays its own item", async () => {
    const { s, plugin, token } = await setup();
    const key = newKey();
    const linked = await importItem(token, plugin.id, "img-3", "reference", key);
    expect(linked.status).toBe(201);
    expect(linked.body.media).toMatchObject({
      kind: "image",
      file_name: "sample-3.png",
      mime_type: "image/png",
      byte_length: 70,
      width: 1,
      credit: "Photo 3 by the demo",
      external_url: "https://files.example.test/png/3",
      sha256: await sha256Hex(new TextEncoder().encode("https://files.example.test/png/3")),
    });
    expect(linked.body.media.url).toBe(`/media/${linked.body.media.id}/${linked.body.media.object_id}/sample-3.png`);
    const [row] = await rows(s.site.id);
    expect(row?.external_url).toBe("https://files.example.test/png/3");
    // No byte stored: the key names no R2 object.
    expect(await env.MEDIA.head(row?.object_key ?? "")).toBeNull();
    const audit = await env.DB.prepare("SELECT details FROM audit_log WHERE site_id = ? AND target_id = ? AND action = 'media.upload'").bind(s.site.id, linked.body.media.id).first<{ details: string }>();
    expect(Object.keys(JSON.parse(audit?.details ?? "{}") as object)).toEqual(expect.arrayContaining(["imported_from", "linked"]));

    // One batch with its answer (rule 3): a retry with the key replays it.
    const replay = await importItem(token, plugin.id, "img-3", "reference", key);
    expect(replay.body).toMatchObject({ replayed: true, media: { id: linked.body.media.id } });
    // The same address again (another key): the linked item is reused, nothing written.
    const again = await importItem(token, plugin.id, "img-3", "reference");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ reused: true, media: { id: linked.body.media.id } });
    // A copy of the same file is a stored item of its own; linked and stored never match each other.
    const copied = await importItem(token, plugin.id, "img-3", "copy");
    expect(copied.status).toBe(201);
    expect(copied.body.media.external_url).toBeNull();
    expect(copied.body.media.id).not.toBe(linked.body.media.id);
    expect((await rows(s.site.id)).map((r) => r.external_url)).toEqual(["https://files.example.test/png/3", null]);
  });

  it("refuses what the upload refuses (an executable behind the address) and an address the outbound policy forbids, writing nothing", async () => {
    const { s, plugin, path, token } = await setup();
    const exe = await importItem(token, plugin.id, "img-29", "reference");
    expect(exe.status).toBe(422);
    expect(exe.body.error.code).toBe("executable_file");
    const item = { id: "img-1", title: "Sample 1", file_name: "sample-1.png", kind: "image", size: 70, thumbnail_url: null, attribution: null };
    for (const url of ["https://169.254.169.254/latest/meta-data/x.png", "http://files.example.test/png/1", "javascript:alert(1)"]) {
      await answerWith(`${path}/media-sources/photos/resolve`, { status: 200, body: { item, url } });
      const refused = await importItem(token, plugin.id, "img-1", "reference");
      expect(refused.status, url).toBe(502);
      expect(refused.body.error.code, url).toBe("plugin_response_invalid");
    }
    expect(await rows(s.site.id)).toEqual([]);
  });

  it("delivers a published linked item by a redirect to its address (public host and the admin's file route); cannot be replaced or given originals; removes cleanly", async () => {
    const { s, plugin, token } = await setup();
    const { article } = await blogModels(s.ctx());
    const linked = (await importItem(token, plugin.id, "img-5", "reference")).body.media;
    const entry = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: article.id, slug: "linked-cover", fields: { title: "With a linked cover", cover: linked.id } } });
    expect(entry.status).toBe(201);
    expect((await manage(token, "POST", `/entries/${entry.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const item = await workerFetch(`http://${s.host}/v1/article/linked-cover`);
    const body = (await item.json()) as { data: { media: Record<string, { id: string; url: string }[]> } };
    const ref = body.data.media.cover?.[0];
    expect(ref).toMatchObject({ id: linked.id, url: linked.url });
    const delivered = await workerFetch(`http://${s.host}${ref?.url ?? ""}`, { redirect: "manual" });
    expect(delivered.status).toBe(302);
    expect(delivered.headers.get("location")).toBe("https://files.example.test/png/5");
    // Another object id of the item is still the public 404 (the redirect names only its own file).
    expect((await workerFetch(`http://${s.host}/media/${linked.id}/obj_none/sample-5.png`, { redirect: "manual" })).status).toBe(404);
    const session = await signIn(`${s.site.slug}@example.test`);
    const admin = await workerFetch(`http://admin.localhost/api/media/${linked.id}/file`, { headers: { cookie: session.cookie, "x-site-id": s.site.id }, redirect: "manual" });
    expect(admin.status).toBe(302);
    expect(admin.headers.get("location")).toBe("https://files.example.test/png/5");

    // Spec 2 rule 6: linked external media cannot be replaced (nor given an original by language).
    const replaced = await replaceMedia<Err>(token, linked.id, { bytes: png(2, 2, "new"), name: "new.png" });
    expect(replaced.status).toBe(409);
    expect(replaced.body.error.code).toBe("media_linked");
    const original = await workerFetch(`http://api.example.test/api/manage/v1/media/${linked.id}/originals/en`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "idempotency-key": newKey() },
      body: (() => {
        const form = new FormData();
        form.set("file", new File([png(2, 2, "orig")], "orig.png", { type: "image/png" }));
        form.set("expected_object_id", "");
        return form;
      })(),
    });
    expect(original.status).toBe(409);
    expect(((await original.json()) as Err).error.code).toBe("media_linked");

    // Unpublished and unused, it is removed like any item (no byte to delete).
    expect((await manage(token, "POST", `/entries/${entry.body.instance_id}/unpublish`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${entry.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${entry.body.instance_id}/purge`, { body: {} })).status).toBe(200);
    const removed = await manage<{ storage_cleanup: string } & Err>(token, "POST", `/media/${linked.id}/remove`, { body: {} });
    expect(removed.status).toBe(200);
    expect(removed.body.storage_cleanup).toBe("complete");
    expect(await rows(s.site.id)).toEqual([]);
  });
});
