import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { replaceMedia, uploadMedia, type MediaItemBody } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { workerFetch } from "../helpers/worker";

/**
 * Every file is delivered under its stored name (issue 22 item 12; docs/media.md, "Public
 * delivery"): a rich-text image address used to choose the public download name —
 * `/media/<id>/<obj>/invoice.exe` in a published body served the PNG as `invoice.exe`. Now pins carry
 * the object's stored name from the ledger; another last segment is another name, 404 (decision:
 * not a redirect), and Content-Disposition always carries the stored name.
 */

type Entry = { instance_id: string };

async function setup() {
  const s = await seedSite();
  const token = await credential(s);
  const model = await addModel(s.ctx(), {
    slug: "page",
    name: "Page",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "cover", label: "Cover", type: "media" },
    ],
  });
  const upload = async (name: string, note: string): Promise<MediaItemBody> => {
    const up = await uploadMedia(token, { bytes: png(3, 3, note), name }, { on_duplicate: "copy" });
    expect(up.status).toBe(201);
    return up.body.media;
  };
  const publishPage = async (title: string, fields: Record<string, unknown>): Promise<Entry> => {
    const created = await manage<Entry>(token, "POST", "/entries", { body: { model_id: model.id, fields: { title, ...fields } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const published = await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} });
    expect(published.status).toBe(200);
    return created.body;
  };
  const deliver = (path: string, method = "GET") => workerFetch(`http://${s.host}${path}`, { method });
  return { s, token, upload, publishPage, deliver };
}

/** The address with another last segment. */
const renamed = (url: string, name: string) => url.replace(/[^/]+$/, name);

describe("public delivery under the stored name", () => {
  it("an image address naming another file name does not choose the download name: 404, and the stored name serves", async () => {
    const x = await setup();
    const image = await x.upload("photo.png", "stored name");
    const exe = renamed(image.url, "invoice.exe");
    await x.publishPage("Invoice", { body: `<p><img src="${exe}" alt="x"></p>` });
    for (const method of ["GET", "HEAD"]) {
      const refused = await x.deliver(exe, method);
      expect(refused.status, method).toBe(404);
      expect(refused.headers.get("content-disposition")).toBeNull();
    }
    const served = await x.deliver(image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''photo.png");
    await served.arrayBuffer();
    const pins = await env.DB.prepare("SELECT file_name FROM published_media WHERE site_id = ?").bind(x.s.site.id).all<{ file_name: string }>();
    expect(pins.results.map((p) => p.file_name)).toEqual(["photo.png"]);
  });

  it("a media field and an image spelling the object differently: the stored name wins, whichever comes first", async () => {
    const x = await setup();
    const image = await x.upload("cover.png", "both");
    await x.publishPage("Both", { body: `<p><img src="${renamed(image.url, "payload.html")}" alt="x"></p>`, cover: image.id });
    expect((await x.deliver(renamed(image.url, "payload.html"))).status).toBe(404);
    const served = await x.deliver(image.url, "HEAD");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''cover.png");
  });

  it("a replaced object named by an image keeps its own stored name, not the item's new one", async () => {
    const x = await setup();
    const image = await x.upload("before.png", "v1");
    const replaced = await replaceMedia(x.token, image.id, { bytes: png(4, 4, "v2"), name: "after.png" }, { expected_revision: "0" });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    await x.publishPage("Old image", { body: `<p><img src="${image.url}" alt="old"><img src="${renamed(image.url, "after.png")}" alt="spoof"></p>` });
    const old = await x.deliver(image.url);
    expect(old.status).toBe(200);
    expect(old.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''before.png");
    await old.arrayBuffer();
    expect((await x.deliver(renamed(image.url, "after.png"))).status).toBe(404);
    const ledger = await env.DB.prepare("SELECT file_name FROM media_objects WHERE site_id = ? AND media_id = ? ORDER BY file_name").bind(x.s.site.id, image.id).all<{ file_name: string }>();
    expect(ledger.results.map((r) => r.file_name)).toEqual(["after.png", "before.png"]);
  });
});
