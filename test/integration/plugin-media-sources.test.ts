import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { answerWith, freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * Media sources of plugins (spec 2: GET /media/sources, items, import; docs/media.md, "Media
 * sources"), against the fake plugin (vitest.config.ts `fakeMediaSource`: 30 images, 24 a page).
 */

type Err = { error: { code: string; [k: string]: unknown } };
type Source = { installation_id: string; plugin_id: string; plugin_name: string; source_id: string; label: string; modes: string[] };
type Item = { id: string; title: string; file_name: string; kind: string; size: number; thumbnail_url: string | null; attribution: string | null };
type Media = { media: { id: string; kind: string; file_name: string; mime_type: string; byte_length: number; credit?: string | null }; reused?: true; replayed?: boolean };

const CAPS = ["content:read", "media:read", "media:write", "media:source"];

async function setup(options: { state?: "active" | "disabled"; capabilities?: string[]; modes?: string[] } = {}) {
  const s = await seedSite();
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({ id: "stock", name: "Stock photos", endpoint, capabilities: CAPS, media_sources: [{ id: "photos", label: "Photos", modes: options.modes ?? ["copy", "reference"] }] });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [], capabilities: (options.capabilities ?? CAPS) as never, ...(options.state ? { state: options.state } : {}) });
  const token = await credential(s);
  return { s, plugin, path, token };
}

async function mediaCount(siteId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM media WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? -1;
}

describe("plugin media sources", () => {
  it("lists the sources of active plugins granted media:source, with their modes", async () => {
    const { plugin, token } = await setup();
    const listed = await manage<{ data: Source[] }>(token, "GET", "/media/sources");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ installation_id: plugin.id, plugin_id: "stock", plugin_name: "Stock photos", source_id: "photos", label: "Photos", modes: ["copy", "reference"] }]);
    // Not granted media:source, or disabled: not offered.
    const ungranted = await setup({ capabilities: ["content:read"] });
    expect((await manage<{ data: Source[] }>(ungranted.token, "GET", "/media/sources")).body.data).toEqual([]);
    const disabled = await setup({ state: "disabled" });
    expect((await manage<{ data: Source[] }>(disabled.token, "GET", "/media/sources")).body.data).toEqual([]);
    expect((await manage<Err>(disabled.token, "GET", `/media/sources/${disabled.plugin.id}/photos/items`)).body.error.code).toBe("plugin_unavailable");
    expect((await manage<Err>(ungranted.token, "GET", `/media/sources/${ungranted.plugin.id}/photos/items`)).status).toBe(404);
  });

  it("pages through items (at most 24, next_cursor), searches with q, asks the plugin with a signed call", async () => {
    const { plugin, path, token } = await setup();
    const first = await manage<{ data: Item[]; next_cursor: string | null }>(token, "GET", `/media/sources/${plugin.id}/photos/items`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(24);
    expect(first.body.data[0]).toEqual({ id: "img-1", title: "Sample 1", file_name: "sample-1.png", kind: "image", size: 70, thumbnail_url: "https://files.example.test/png/1", attribution: "Photo 1 by the demo" });
    expect(first.body.next_cursor).not.toBeNull();
    const second = await manage<{ data: Item[]; next_cursor: string | null }>(token, "GET", `/media/sources/${plugin.id}/photos/items?cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((i) => i.id)).toEqual(["img-25", "img-26", "img-27", "img-28", "img-29", "img-30"]);
    expect(second.body.next_cursor).toBeNull();
    const searched = await manage<{ data: Item[] }>(token, "GET", `/media/sources/stock/photos/items?q=bad`);
    expect(searched.body.data.map((i) => i.id)).toEqual(["img-28", "img-29", "img-30"]);
    const [call] = await pluginCalls(`${path}/media-sources/photos/items`);
    expect(JSON.parse(call?.body ?? "{}")).toMatchObject({ kind: "media_source_items", installation_id: plugin.id, source: "photos", q: null, cursor: null, limit: 24 });
    expect(call?.headers["x-driftwood-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    // A plugin answering more than 24 items, or nonsense: 502 plugin_response_invalid; unknown source: 404.
    await answerWith(`${path}/media-sources/photos/items`, { status: 200, body: { items: Array.from({ length: 25 }, (_, i) => ({ ...first.body.data[0], id: `x${i}` })), next_cursor: null } });
    expect((await manage<Err>(token, "GET", `/media/sources/${plugin.id}/photos/items`)).body.error.code).toBe("plugin_response_invalid");
    expect((await manage<Err>(token, "GET", `/media/sources/${plugin.id}/nope/items`)).status).toBe(404);
  });

  it("imports an item by copy through the upload's checks, once per key, reusing held bytes; refuses an executable and a mode not offered", async () => {
    const { s, plugin, token } = await setup({ modes: ["copy"] });
    const before = await mediaCount(s.site.id);
    const key = `import-${Date.now()}`;
    const copied = await manage<Media>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-3", mode: "copy" }, key });
    expect(copied.status).toBe(201);
    expect(copied.body.media).toMatchObject({ kind: "image", file_name: "sample-3.png", mime_type: "image/png", byte_length: 70 });
    const stored = await env.DB.prepare("SELECT object_key, credit FROM media WHERE id = ?").bind(copied.body.media.id).first<{ object_key: string; credit: string | null }>();
    expect(stored?.credit).toBe("Photo 3 by the demo");
    expect((await env.MEDIA.get(stored?.object_key ?? ""))?.size).toBe(70);
    const replay = await manage<Media>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-3", mode: "copy" }, key });
    expect(replay.body.media.id).toBe(copied.body.media.id);
    expect(replay.body.replayed).toBe(true);
    // Other item, same bytes: the held file is reused (200), nothing stored.
    const reused = await manage<Media>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-4", mode: "copy" } });
    expect(reused.status).toBe(200);
    expect(reused.body).toMatchObject({ reused: true, media: { id: copied.body.media.id } });
    expect(await mediaCount(s.site.id)).toBe(before + 1);

    const exe = await manage<Err>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-29", mode: "copy" } });
    expect(exe.status).toBe(422);
    expect(exe.body.error.code).toBe("executable_file");
    const mode = await manage<Err>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-3", mode: "reference" } });
    expect(mode.status).toBe(400);
    expect(mode.body.error).toMatchObject({ code: "invalid_request", modes: ["copy"] });
    const unknown = await manage<Err>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-99", mode: "copy" } });
    expect(unknown.status).toBe(404);
    expect(await mediaCount(s.site.id)).toBe(before + 1);
  });

  it("refuses a file address the outbound policy forbids (cloud metadata, loopback, plain http) before any fetch, writing nothing", async () => {
    const { s, plugin, path, token } = await setup({ modes: ["copy"] });
    const before = await mediaCount(s.site.id);
    const item = { id: "img-1", title: "Sample 1", file_name: "sample-1.png", kind: "image", size: 70, thumbnail_url: null, attribution: null };
    for (const url of ["https://169.254.169.254/latest/meta-data/x.png", "https://127.0.0.1/x.png", "http://files.example.test/png/1", "file:///etc/passwd"]) {
      await answerWith(`${path}/media-sources/photos/resolve`, { status: 200, body: { item, url } });
      const refused = await manage<Err>(token, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-1", mode: "copy" } });
      expect(refused.status, url).toBe(502);
      expect(refused.body.error.code, url).toBe("plugin_response_invalid");
    }
    expect(await mediaCount(s.site.id)).toBe(before);
    for (const host of ["169.254.169.254", "127.0.0.1"]) expect((await pluginCalls("/latest/meta-data/x.png")).filter((c) => c.host === host)).toEqual([]);
  });

  it("needs media:write and the upload permission to import; content:read to list", async () => {
    const { s, plugin } = await setup();
    const reader = await credential(s, ["content:read"]);
    expect((await manage(reader, "GET", "/media/sources")).status).toBe(200);
    expect((await manage<Err>(reader, "POST", `/media/sources/${plugin.id}/photos/import`, { body: { item_id: "img-3", mode: "copy" } })).body.error.code).toBe("insufficient_scope");
  });
});
