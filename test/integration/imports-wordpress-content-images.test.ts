import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { jpeg } from "../helpers/media-samples";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, base64, newImport, step, uploadFile } from "../helpers/imports-api";
import { keepItems } from "../helpers/wxr-derive";
import themeUnitTest from "../fixtures/wordpress/themeunittestdata.wordpress.xml?raw";

/**
 * Images inside imported post content (issue #28; docs/imports.md, "Images in content"), with the
 * theme unit test export (WordPress.com, WXR 1.2): post 1158 shows attachment 755 by a resized
 * address (`100_5540.jpg?w=604`, class `wp-image-755`); post 1734 shows 757 and 755 (block
 * editor); post 568 shows an image whose attachment (612) is not in the file. Their attachments' bytes are
 * sent by the client (uploadImportMedia).
 */

const encoder = new TextEncoder();
const A755 = "https://wpthemetestdata.files.wordpress.com/2008/06/100_5540.jpg";
const A757 = "https://wpthemetestdata.files.wordpress.com/2008/06/dcp_2082.jpg";
const FILE = keepItems(themeUnitTest, ["1158", "755", "1734", "757", "568"]);

type MediaRow = { id: string; file_name: string; object_key: string };
const bodyOf = async (siteId: string, slug: string) => {
  const row = await env.DB.prepare("SELECT v.fields FROM entries e JOIN versions v ON v.id = e.current_version_id WHERE e.site_id = ? AND e.slug = ?").bind(siteId, slug).first<{ fields: string }>();
  return row ? Object.values(JSON.parse(row.fields) as Record<string, unknown>).find((v): v is string => typeof v === "string" && v.includes("<")) ?? "" : "";
};

describe("WordPress import: images in post content become library images", () => {
  it("points each image of an imported attachment at its media item (by wp-image id or its original address), keeps others, and publishes them pinned", async () => {
    const s = await seedSite();
    const post = await addModel(s.ctx(), {
      slug: "post",
      name: "Post",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "body", label: "Body", type: "rich_text" },
      ],
    });
    const token = await credential(s);
    const job = await newImport(token);
    expect((await uploadFile(token, job.id, encoder.encode(FILE))).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["uploaded", "parsing"])).state).toBe("review");
    for (const [url, bytes] of [
      [A755, jpeg(604, 453)],
      [A757, jpeg(320, 240)],
    ] as const) {
      expect((await manage(token, "PUT", `/imports/${job.id}/media`, { body: { attachment_url: url, content_base64: base64(bytes) } })).status).toBe(200);
    }
    expect((await step(token, job.id, "wordpress/review", { mapping: { post: post.id, page: null, category: null, tag: null }, approve: true })).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["review", "writing"], 10)).state).toBe("done");

    const media = (await env.DB.prepare("SELECT id, file_name, object_key FROM media WHERE site_id = ? ORDER BY file_name").bind(s.site.id).all<MediaRow>()).results;
    expect(media.map((m) => m.file_name)).toEqual(["100_5540.jpg", "dcp_2082.jpg"]);
    const [m755, m757] = media;
    const urlOf = (m: MediaRow | undefined) => `/media/${m?.id}/${m?.object_key.split("/").pop()}/${m?.file_name}`;

    // The resized address (?w=604) of attachment 755, named by its class: the library image.
    const single = await bodyOf(s.site.id, "post-format-image");
    expect(single).toContain(`src="${urlOf(m755)}"`);
    expect(single).toContain(`data-media="${m755?.id}"`);
    expect(single).not.toContain("wpthemetestdata.files.wordpress.com");
    // Two images of the block editor, each its own item.
    const both = await bodyOf(s.site.id, "blocks-layout-elements");
    expect(both).toContain(`data-media="${m755?.id}"`);
    expect(both).toContain(`data-media="${m757?.id}"`);
    // An image of no attachment in the file stays as written (an external image).
    const other = await bodyOf(s.site.id, "post-format-image-linked");
    expect(other).toContain("https://wpthemetestdata.files.wordpress.com/2013/09/dsc20040724_152504_532.jpg");
    expect(other).not.toContain("data-media");

    // Published as WordPress had them: served, with the library image pinned for public delivery.
    expect((await publicGet(s.host, "/v1/post/post-format-image")).status).toBe(200);
    const pinned = await env.DB.prepare("SELECT count(*) AS n FROM published_media WHERE site_id = ? AND media_id = ?").bind(s.site.id, m755?.id).first<{ n: number }>();
    expect(pinned?.n).toBeGreaterThanOrEqual(1);
  });
});
