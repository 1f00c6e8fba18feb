import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { uploadMedia } from "../helpers/media-api";
import { png } from "../helpers/media-samples";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/** Site Chrome defaults, SEO defaults and robots (issue #29 item 4; docs/site-chrome.md). */

type Err = { error: { code: string; issues?: { path: string }[] } };
interface SiteBody {
  data: {
    locale: string;
    name: string;
    tagline: string | null;
    logo: { id: string; url: string | null; alt: string } | null;
    header_links: { label: string; url: string }[];
    footer_links: { label: string; url: string }[];
    social_links: { network: string; url: string }[];
    seo: { title_template: string; description: string | null; share_image: { id: string } | null };
  };
}

async function robots(host: string): Promise<{ status: number; text: string; type: string | null }> {
  const res = await workerFetch(`http://${host}/robots.txt`);
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") };
}

describe("Site Chrome, SEO and robots", () => {
  it("defaults, then chrome and SEO per language with a logo, served at /v1/_site with the language chain", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const empty = await publicGet<SiteBody>(s.host, "/v1/_site");
    expect(empty.body.data).toEqual({ locale: "en", name: s.site.name, tagline: null, logo: null, header_links: [], footer_links: [], social_links: [], seo: { title_template: "%s", description: null, share_image: null } });

    const logo = await uploadMedia(token, { bytes: png(40, 20), name: "logo.png", type: "image/png" }, { alt_texts: JSON.stringify({ en: "Harbour logo", fr: "Logo du port" }) });
    expect(logo.status).toBe(201);
    const key = newKey();
    const body = {
      languages: {
        en: { site_name: "Harbour Notes", tagline: "Tides and timber", header_links: [{ label: "About", url: "/about" }], footer_links: [{ label: "Imprint", url: "https://example.com/imprint" }] },
        fr: { site_name: "Notes du port" },
      },
      logo_media_id: logo.body.media.id,
      social_links: [{ network: "mastodon", url: "https://mastodon.social/@harbour" }],
      expected_revision: 0,
    };
    const put = await manage<{ revision: number; replayed?: boolean }>(token, "PUT", "/settings/chrome", { key, body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.revision).toBe(1);
    expect((await manage<{ replayed?: boolean }>(token, "PUT", "/settings/chrome", { key, body })).body.replayed).toBe(true);
    const seo = await manage(token, "PUT", "/settings/seo", { body: { languages: { en: { title_template: "%s · Harbour Notes", description: "Stories from the coast" } }, share_image_media_id: logo.body.media.id } });
    expect(seo.status, JSON.stringify(seo.body)).toBe(200);

    const en = await publicGet<SiteBody>(s.host, "/v1/_site");
    expect(en.body.data).toMatchObject({ locale: "en", name: "Harbour Notes", tagline: "Tides and timber", header_links: [{ label: "About", url: "/about" }], social_links: [{ network: "mastodon" }], seo: { title_template: "%s · Harbour Notes", description: "Stories from the coast", share_image: { id: logo.body.media.id } } });
    // The logo is not published anywhere and the library is private: named, but no public address.
    expect(en.body.data.logo).toMatchObject({ id: logo.body.media.id, url: null, alt: "Harbour logo" });
    const fr = await publicGet<SiteBody>(s.host, "/v1/_site?locale=fr");
    expect(fr.body.data).toMatchObject({ locale: "fr", name: "Notes du port", header_links: [], logo: { alt: "Logo du port" } });
    // SEO has no French texts: the fallback chain serves the English ones.
    expect(fr.body.data.seo.title_template).toBe("%s · Harbour Notes");
    // With a public library the logo's current file is its address.
    await manage(token, "PUT", "/settings", { body: { media: { public_library: true } } });
    const open = await publicGet<SiteBody>(s.host, "/v1/_site");
    expect(open.body.data.logo?.url).toMatch(new RegExp(`^/media/${logo.body.media.id}/obj_[^/]+/logo\\.png$`));
    expect((await workerFetch(`http://${s.host}${open.body.data.logo?.url ?? ""}`)).status).toBe(200);
    expect((await publicGet(s.host, "/v1/_site?locale=de")).status).toBe(404);
    expect((await publicGet(s.host, "/v1/_site?x=1")).status).toBe(400);
  });

  it("refuses unknown languages, bad links and templates, foreign media and a missing scope, writing nothing", async () => {
    const s = await seedSite();
    const other = await seedSite();
    const token = await credential(s);
    const foreign = await uploadMedia(await credential(other), { bytes: png(2, 2), name: "x.png", type: "image/png" });
    const bad = await manage<Err>(token, "PUT", "/settings/chrome", {
      body: { languages: { de: { site_name: "X" }, en: { site_name: "Y", header_links: [{ label: "JS", url: "javascript:alert(1)" }] } }, logo_media_id: foreign.body.media.id, social_links: [{ network: "x", url: "http://x.com/a" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues?.map((i) => i.path)).toEqual(["languages.de", "languages.en.header_links[0].url", "social_links[0].url", "logo_media_id"]);
    // Texts /v1/_site serves as they are: no control character or lone surrogate, names and labels
    // also without bidi controls; lengths in characters as people count them.
    const unreadable = await manage<Err>(token, "PUT", "/settings/chrome", {
      body: { languages: { en: { site_name: "Harbour\u202eNotes", tagline: "a\u0000b", header_links: [{ label: "Home\u0007", url: "/" }, { label: "x", url: "/\ud800" }] } } },
    });
    expect([unreadable.status, unreadable.body.error.issues?.map((i) => i.path)]).toEqual([400, ["languages.en.site_name", "languages.en.tagline", "languages.en.header_links[0].label", "languages.en.header_links[1].url"]]);
    const seoControl = await manage<Err>(token, "PUT", "/settings/seo", { body: { languages: { en: { title_template: "%s \u0000", description: "\ud800" } } } });
    expect([seoControl.status, seoControl.body.error.issues?.map((i) => i.path)]).toEqual([400, ["languages.en.title_template", "languages.en.description"]]);
    expect((await manage(token, "PUT", "/settings/chrome", { body: { languages: { en: { site_name: "\u{1f30a}".repeat(120) } } } })).status).toBe(200);
    const template = await manage<Err>(token, "PUT", "/settings/seo", { body: { languages: { en: { title_template: "No title here" }, fr: { title_template: "%s %s" } } } });
    expect(template.body.error.issues?.map((i) => i.path)).toEqual(["languages.en.title_template", "languages.fr.title_template"]);
    expect((await manage<Err>(token, "PUT", "/settings/robots", { body: { rules: [{ user_agent: "*", disallow: ["/a\nSitemap: https://evil"] }] } })).status).toBe(400);
    expect((await manage<Err>(token, "PUT", "/settings/robots", { body: { rules: [{ user_agent: "*" }, { user_agent: "*" }] } })).status).toBe(400);
    const reader = await credential(s, ["content:read"]);
    expect((await manage<Err>(reader, "PUT", "/settings/seo", { body: { languages: {} } })).body.error.code).toBe("insufficient_scope");
    expect((await manage<{ revision: number }>(token, "GET", "/settings")).body.revision).toBe(1);
  });

  it("serves /robots.txt: everything allowed by default, then the stored rules", async () => {
    const s = await seedSite();
    const token = await credential(s);
    expect(await robots(s.host)).toEqual({ status: 200, text: "User-agent: *\nAllow: /\n", type: "text/plain; charset=utf-8" });
    const put = await manage(token, "PUT", "/settings/robots", { body: { rules: [{ user_agent: "*", disallow: ["/drafts/", "/search"] }, { user_agent: "GPTBot", disallow: ["/"] }] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await robots(s.host)).text).toBe("User-agent: *\nDisallow: /drafts/\nDisallow: /search\n\nUser-agent: GPTBot\nDisallow: /\n");
    expect((await robots("no-such-site.test")).status).toBe(404);
  });
});
