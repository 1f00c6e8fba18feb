import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { addModel, apply, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { publicGet } from "../helpers/public-api";

/** Per-item SEO (issue #29 item 4; docs/site-chrome.md, "Per-item SEO"): the item's seo component over the site's defaults. */

interface Seo {
  data: { locale: string; title: string; description: string | null; share_image: { id: string; url: string | null; alt: string } | null; noindex: boolean; canonical_path: string | null };
}

describe("per-item SEO", () => {
  it("merges an item's own seo fields over the site's SEO defaults per language", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const model = await addModel(s.ctx(), {
      slug: "story",
      name: "Story",
      i18n: true,
      settings: { site_path: "/{lang}/stories/{slug}" },
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        {
          key: "seo",
          label: "SEO",
          type: "component",
          fields: [
            { key: "title", label: "SEO title", type: "text" },
            { key: "description", label: "Description", type: "long_text" },
            { key: "share_image", label: "Share image", type: "media" },
            { key: "noindex", label: "Hide from search engines", type: "boolean" },
          ],
        },
      ],
    });
    const fallback = await uploadMedia(token, { bytes: png(40, 20), name: "default.png", type: "image/png" }, { alt_texts: JSON.stringify({ en: "Harbour" }) });
    const own = await uploadMedia(token, { bytes: png(30, 30), name: "own.png", type: "image/png" }, { alt_texts: JSON.stringify({ en: "Boat" }) });
    const put = await manage(token, "PUT", "/settings/seo", {
      body: { languages: { en: { title_template: "%s · Harbour Notes", description: "Stories from the coast" }, fr: { title_template: "%s · Notes du port" } }, share_image_media_id: fallback.body.media.id },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const plain = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: model.id, slug: "plain", fields: { title: "Plain tide" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: plain.instance_id }));
    const defaults = await publicGet<Seo>(s.host, "/v1/story/plain/seo");
    expect(defaults.status, JSON.stringify(defaults.body)).toBe(200);
    expect(defaults.body.data).toMatchObject({ locale: "en", title: "Plain tide · Harbour Notes", description: "Stories from the coast", share_image: { id: fallback.body.media.id, alt: "Harbour" }, noindex: false, canonical_path: "/en/stories/plain" });

    const tuned = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: model.id, slug: "tuned", fields: { title: "Tuned", seo: { title: "Best tide tables", description: "Every tide of the year", share_image: own.body.media.id, noindex: true } } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: tuned.instance_id }));
    const merged = await publicGet<Seo>(s.host, "/v1/story/tuned/seo");
    expect(merged.body.data).toMatchObject({ title: "Best tide tables · Harbour Notes", description: "Every tide of the year", share_image: { id: own.body.media.id, alt: "Boat" }, noindex: true });
    expect(merged.body.data.share_image?.url).toMatch(/^\/media\//);

    // French: its own template; the English item serves as the fallback language's.
    const fr = await publicGet<Seo>(s.host, "/v1/story/plain/seo?locale=fr");
    expect(fr.body.data).toMatchObject({ locale: "en", title: "Plain tide · Harbour Notes" });
    const frItem = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: plain.instance_id, lang: "fr", slug: "simple", fields: { title: "Marée simple" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: frItem.instance_id }));
    expect((await publicGet<Seo>(s.host, "/v1/story/simple/seo?locale=fr")).body.data).toMatchObject({ locale: "fr", title: "Marée simple · Notes du port", description: null, canonical_path: "/fr/stories/simple" });

    expect((await publicGet(s.host, "/v1/story/missing/seo")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/story/plain/seo?colour=red")).status).toBe(400);
  });
});
