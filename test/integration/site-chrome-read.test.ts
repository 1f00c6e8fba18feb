import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";

/**
 * The read routes of Site Chrome, SEO defaults and robots (docs/site-chrome.md, "Management API"):
 * each answers what its PUT takes plus the settings' revision, so a client reads, edits and writes
 * back with `expected_revision`; scoped like getCorsSettings (content:read); one site only.
 */

type Err = { error: { code: string; current_revision?: number } };
interface Chrome {
  chrome: { languages: Record<string, { site_name: string; tagline: string | null; header_links: { label: string; url: string }[]; footer_links: { label: string; url: string }[] }>; logo_media_id: string | null; social_links: { network: string; url: string }[] };
  revision: number;
}
interface Seo {
  seo: { languages: Record<string, { title_template: string; description: string | null }>; share_image_media_id: string | null };
  revision: number;
}
interface Robots {
  robots: { rules: { user_agent: string; allow: string[]; disallow: string[] }[] };
  revision: number;
  sitemap_path: string | null;
}

describe("Site Chrome, SEO and robots: the reads", () => {
  it("answer the defaults, then exactly what was stored; the answer goes back as a PUT; a stale write is refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    // Nothing stored: empty chrome and SEO, the robots.txt default, no sitemap.
    expect((await manage<Chrome>(token, "GET", "/settings/chrome")).body).toEqual({ chrome: { languages: {}, logo_media_id: null, social_links: [] }, revision: 0 });
    expect((await manage<Seo>(token, "GET", "/settings/seo")).body).toEqual({ seo: { languages: {}, share_image_media_id: null }, revision: 0 });
    expect((await manage<Robots>(token, "GET", "/settings/robots")).body).toEqual({ robots: { rules: [{ user_agent: "*", allow: ["/"], disallow: [] }] }, revision: 0, sitemap_path: null });

    const logo = await uploadMedia(token, { bytes: png(4, 4), name: "logo.png", type: "image/png" });
    const put = await manage<Chrome>(token, "PUT", "/settings/chrome", {
      body: { languages: { en: { site_name: "Harbour Notes", header_links: [{ label: "About", url: "/about" }] } }, logo_media_id: logo.body.media.id, social_links: [{ network: "github", url: "https://github.com/harbour" }], expected_revision: 0 },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const chrome = await manage<Chrome>(token, "GET", "/settings/chrome");
    expect(chrome.body).toEqual({ chrome: put.body.chrome, revision: 1 });
    expect(chrome.body.chrome.languages.en).toEqual({ site_name: "Harbour Notes", tagline: null, header_links: [{ label: "About", url: "/about" }], footer_links: [] });

    // The read, edited, goes back as the PUT's body with its revision.
    const edited = { ...chrome.body.chrome, languages: { en: { ...chrome.body.chrome.languages.en, tagline: "Tides" } } };
    const back = await manage<Chrome>(token, "PUT", "/settings/chrome", { key: newKey(), body: { ...edited, expected_revision: chrome.body.revision } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    // A second writer still holding revision 1: refused with the current revision, nothing written.
    const stale = await manage<Err>(token, "PUT", "/settings/chrome", { body: { ...chrome.body.chrome, expected_revision: chrome.body.revision } });
    expect([stale.status, stale.body.error.code, stale.body.error.current_revision]).toEqual([409, "settings_changed", 2]);
    expect((await manage<Chrome>(token, "GET", "/settings/chrome")).body.chrome.languages.en?.tagline).toBe("Tides");

    const seo = await manage<Seo>(token, "PUT", "/settings/seo", { body: { languages: { en: { title_template: "%s · Harbour" }, fr: { title_template: "%s · Port", description: "Le port" } }, share_image_media_id: logo.body.media.id } });
    expect(seo.status, JSON.stringify(seo.body)).toBe(200);
    const seoRead = await manage<Seo>(token, "GET", "/settings/seo");
    expect(seoRead.body).toEqual({ seo: { languages: { en: { title_template: "%s · Harbour", description: null }, fr: { title_template: "%s · Port", description: "Le port" } }, share_image_media_id: logo.body.media.id }, revision: 3 });
    expect((await manage(token, "PUT", "/settings/seo", { body: { ...seoRead.body.seo, expected_revision: seoRead.body.revision } })).status).toBe(200);

    expect((await manage(token, "PUT", "/settings/robots", { body: { rules: [{ user_agent: "*", disallow: ["/drafts/"] }] } })).status).toBe(200);
    // A public model with a website address gives the site a sitemap, which robots.txt names.
    const model = await manage(token, "POST", "/models", { body: { definition: { model: { name: "Post", slug: "post", settings: { site_path: "/blog/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } } });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    expect((await manage<Robots>(token, "GET", "/settings/robots")).body).toEqual({ robots: { rules: [{ user_agent: "*", allow: [], disallow: ["/drafts/"] }] }, revision: 5, sitemap_path: "/sitemap.xml" });
  });

  it("need only content:read (which every credential holds) while the writes need settings:write; another site's settings are never read", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const writer = await credential(other);
    expect((await manage(writer, "PUT", "/settings/chrome", { body: { languages: { en: { site_name: "Other site" } } } })).status).toBe(200);
    expect((await manage(writer, "PUT", "/settings/robots", { body: { rules: [{ user_agent: "*", disallow: ["/"] }] } })).status).toBe(200);

    const reader = await credential(s, ["content:read"]);
    const chrome = await manage<Chrome>(reader, "GET", "/settings/chrome");
    expect(chrome.status).toBe(200);
    // The reader's own site: nothing of the other site's chrome, rules or revision.
    expect(chrome.body).toEqual({ chrome: { languages: {}, logo_media_id: null, social_links: [] }, revision: 0 });
    expect((await manage<Robots>(reader, "GET", "/settings/robots")).body.robots.rules).toEqual([{ user_agent: "*", allow: ["/"], disallow: [] }]);
    expect((await manage<Seo>(reader, "GET", "/settings/seo")).status).toBe(200);
    // Without settings:write the same credential cannot write back what it read: 403 insufficient_scope.
    for (const [path, body] of [["/settings/chrome", { ...chrome.body.chrome, expected_revision: 0 }], ["/settings/seo", { languages: {} }], ["/settings/robots", { rules: [{ user_agent: "*" }] }]] as const) {
      const refused = await manage<Err>(reader, "PUT", path, { body });
      expect([refused.status, refused.body.error.code], path).toEqual([403, "insufficient_scope"]);
    }
    expect((await manage(null, "GET", "/settings/chrome")).status).toBe(401);
    expect((await manage<Chrome>(writer, "GET", "/settings/chrome")).body.chrome.languages).toEqual({ en: { site_name: "Other site", tagline: null, header_links: [], footer_links: [] } });
  });
});
