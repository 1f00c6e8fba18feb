import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Model } from "../../shared/repositories/model-repository";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { jpeg } from "../helpers/media-samples";
import { uploadMedia } from "../helpers/media-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, base64, newImport, step, uploadFile, type JobAnswer } from "../helpers/imports-api";
import { keepItems, replaceInItem } from "../helpers/wxr-derive";
import themeUnitTest from "../fixtures/wordpress/themeunittestdata.wordpress.xml?raw";

const encoder = new TextEncoder();
const HORIZONTAL = "https://wpthemetestdata.files.wordpress.com/2013/03/featured-image-horizontal.jpg";
const VERTICAL = "https://wpthemetestdata.files.wordpress.com/2013/03/featured-image-vertical.jpg";
/** Post 1163's featured image (1628), its URL turned into the cloud metadata address: refused before any fetch. */
const TRIFORCE = "https://wpthemetestdata.files.wordpress.com/2010/08/triforce-wallpaper.jpg";
const METADATA = "https://169.254.169.254/latest/meta-data/triforce-wallpaper.jpg";

/**
 * The theme unit test export (WordPress.com, WXR 1.2) with three posts that have featured images
 * and their attachments: 1011 → 1022 (horizontal), 1016 → 1027 (vertical), 1163 → 1628.
 */
const FILE = replaceInItem(keepItems(themeUnitTest, ["1011", "1022", "1016", "1027", "1163", "1628"]), "1628", TRIFORCE, METADATA);

type MediaRow = { id: string; sha256: string; alt_texts: string; object_key: string; file_name: string };
const mediaOf = async (siteId: string) => (await env.DB.prepare("SELECT id, sha256, alt_texts, object_key, file_name FROM media WHERE site_id = ? ORDER BY created_at").bind(siteId).all<MediaRow>()).results;
type PublicItem = { data: { media: Record<string, { id: string; alt: string | null; file_name: string }[]> } };

describe("WordPress import: attachments and featured images into the media library (theme unit test export)", () => {
  let s: SeededSite;
  let post: Model;
  let token: string;
  let id: string;

  it("takes the bytes sent for attachment URLs, maps the featured image field, and fetches URLs only under the outbound policy", async () => {
    s = await seedSite();
    post = await addModel(s.ctx(), {
      slug: "post",
      name: "Post",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "body", label: "Body", type: "rich_text" },
        { key: "featured_image", label: "Featured image", type: "media" },
      ],
    });
    token = await credential(s);
    const job = await newImport(token);
    id = job.id;
    expect((await uploadFile(token, id, encoder.encode(FILE))).status).toBe(200);
    expect((await advanceWhile(token, id, ["uploaded", "parsing"])).state).toBe("review");

    // The same bytes for both featured images: one media item (deduplicated by bytes).
    const image = jpeg(640, 480);
    for (const url of [HORIZONTAL, VERTICAL]) {
      const sent = await manage<{ url: string; byte_length: number; sha256: string }>(token, "PUT", `/imports/${id}/media`, { body: { attachment_url: url, content_base64: base64(image) } });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ url, byte_length: image.length });
    }
    // Bad base64 is refused, nothing recorded.
    expect((await manage<JobAnswer>(token, "PUT", `/imports/${id}/media`, { body: { attachment_url: TRIFORCE, content_base64: "%%%%" } })).body.error?.code).toBe("invalid_request");

    const mapped = await manage<{ mapping: { fields: Record<string, { image: string | null }>; fetch_attachments: boolean } }>(token, "PUT", `/imports/${id}/mapping`, {
      body: { mapping: { post: post.id, page: null, category: null, tag: null }, fetch_attachments: true },
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body.mapping.fields.post?.image).toBe("featured_image");
    expect(mapped.body.mapping.fetch_attachments).toBe(true);
    expect((await step(token, id, "wordpress/review", { approve: true })).status).toBe(200);
    expect((await advanceWhile(token, id, ["review", "writing"], 10)).state).toBe("done");

    const media = await mediaOf(s.site.id);
    expect(media).toHaveLength(1);
    expect(JSON.parse(media[0]?.alt_texts ?? "{}")).toEqual({ en: "Horizontal Featured Image" });
    expect(media[0]?.file_name).toBe("featured-image-horizontal.jpg");
    expect(await env.MEDIA.head(media[0]?.object_key ?? "")).not.toBeNull();

    const horizontal = await publicGet<PublicItem>(s.host, "/v1/post/template-featured-image-horizontal");
    expect(horizontal.status).toBe(200);
    expect(horizontal.body.data.media.featured_image?.[0]).toMatchObject({ id: media[0]?.id, alt: "Horizontal Featured Image" });
    const vertical = await publicGet<PublicItem>(s.host, "/v1/post/template-featured-image-vertical");
    expect(vertical.body.data.media.featured_image?.[0]?.id).toBe(media[0]?.id);

    // The attachment whose URL points into a private range: refused by the policy, nothing fetched; its post imported without the image.
    const findings = await allFindings(token, id);
    const notImported = findings.filter((f) => f.code === "media_not_imported");
    expect(notImported).toHaveLength(1);
    expect(notImported[0]?.details).toMatchObject({ url: METADATA });
    expect(String(notImported[0]?.details.reason)).toMatch(/^outbound address refused/);
    const caption = await publicGet<PublicItem>(s.host, "/v1/post/post-format-image-caption");
    expect(caption.status).toBe(200);
    expect(caption.body.data.media.featured_image ?? []).toEqual([]);
  });

  it("undo removes the media item the import created (after the entries that used it), and its bytes", async () => {
    const before = await mediaOf(s.site.id);
    let state = "";
    for (let i = 0; i < 10 && state !== "undone"; i++) {
      const r = await step(token, id, "undo");
      expect(r.status).toBe(200);
      state = r.body.import.state;
    }
    expect(state).toBe("undone");
    expect(await mediaOf(s.site.id)).toEqual([]);
    expect(await env.MEDIA.head(before[0]?.object_key ?? "")).toBeNull();
    expect((await publicGet(s.host, "/v1/post/template-featured-image-horizontal")).status).toBe(404);
  });

  it("reuses a file the library already holds (same bytes): the import links it and undo leaves it", async () => {
    const other = await seedSite();
    const model = await addModel(other.ctx(), {
      slug: "post",
      name: "Post",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "cover", label: "Cover", type: "media" },
      ],
    });
    const otherToken = await credential(other);
    const image = jpeg(320, 200);
    const uploaded = await uploadMedia(otherToken, { bytes: image, name: "mine.jpg", type: "image/jpeg" });
    expect(uploaded.status).toBe(201);
    const job = await newImport(otherToken);
    expect((await uploadFile(otherToken, job.id, encoder.encode(keepItems(themeUnitTest, ["1011", "1022"])))).status).toBe(200);
    await advanceWhile(otherToken, job.id, ["uploaded", "parsing"]);
    expect((await manage(otherToken, "PUT", `/imports/${job.id}/media`, { body: { attachment_url: HORIZONTAL, content_base64: base64(image) } })).status).toBe(200);
    expect((await step(otherToken, job.id, "wordpress/review", { mapping: { post: model.id, page: null, category: null, tag: null }, approve: true })).status).toBe(200);
    expect((await advanceWhile(otherToken, job.id, ["review", "writing"], 10)).state).toBe("done");
    const item = await publicGet<PublicItem>(other.host, "/v1/post/template-featured-image-horizontal");
    expect(item.body.data.media.cover?.[0]?.id).toBe(uploaded.body.media.id);
    for (let i = 0; i < 5; i++) if ((await step(otherToken, job.id, "undo")).body.import.state === "undone") break;
    expect((await mediaOf(other.site.id)).map((m) => m.id)).toEqual([uploaded.body.media.id]);
  });
});
