import { env } from "cloudflare:test";
import { DOMParser, type Element } from "@xmldom/xmldom";
import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { workerFetch } from "../helpers/worker";

/**
 * Issue #27 item 6 (docs/sitemap.md): `GET /sitemap.xml` on the site host is an index of parts of
 * at most 5,000 addresses (`/sitemap-<n>.xml`) with lastmod and language alternates; only published
 * items of public models with a `site_path`, never a redirected address; valid against the
 * sitemaps.org schema (parsed with a real XML parser, the schema's structure checked).
 */

const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
/** sitemaps.org's `tLastmod`: a W3C date or date-time. */
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Parses strictly (any warning or error fails) and checks what sitemap.xsd / siteindex.xsd require;
 * the checks collect what is wrong (one assertion per document: 5,000 elements each).
 */
function parse(xml: string, root: "urlset" | "sitemapindex"): Element[] {
  const problems: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => void problems.push(`${level}: ${message}`) }).parseFromString(xml, "application/xml");
  const top = doc.documentElement;
  if (top?.localName !== root || top.namespaceURI !== SITEMAP_NS) problems.push(`root ${top?.namespaceURI} ${top?.localName}`);
  const children = Array.from(top?.childNodes ?? []).filter((n): n is Element => n.nodeType === 1);
  const child = root === "urlset" ? "url" : "sitemap";
  if (children.length === 0 || children.length > 50_000) problems.push(`${children.length} children`);
  for (const el of children) {
    if (el.namespaceURI !== SITEMAP_NS || el.localName !== child) problems.push(`child ${el.localName}`);
    const parts = Array.from(el.childNodes).filter((n): n is Element => n.nodeType === 1);
    const own = parts.filter((p) => p.namespaceURI === SITEMAP_NS).map((p) => p.localName);
    // loc first and once; then lastmod at most once (changefreq and priority are never written).
    if (own[0] !== "loc" || own.filter((p) => p === "loc").length !== 1 || !own.every((p) => p === "loc" || p === "lastmod") || own.filter((p) => p === "lastmod").length > 1) problems.push(`elements ${own.join(",")}`);
    const loc = parts[0]?.textContent ?? "";
    if (loc.length > 2048 || !/^https?:$/.test(URL.canParse(loc) ? new URL(loc).protocol : "")) problems.push(`loc ${loc}`);
    const lastmod = parts.find((p) => p.localName === "lastmod");
    if (lastmod && !W3C_DATETIME.test(lastmod.textContent ?? "")) problems.push(`lastmod ${lastmod.textContent}`);
    // Anything else is in another namespace (sitemap.xsd's `##other`): here xhtml:link alternates.
    for (const other of parts.filter((p) => p.namespaceURI !== SITEMAP_NS)) {
      const href = other.getAttribute("href") ?? "";
      if (other.namespaceURI !== XHTML_NS || other.localName !== "link" || other.getAttribute("rel") !== "alternate" || !URL.canParse(href)) problems.push(`other ${other.localName} ${href}`);
    }
  }
  expect(problems.slice(0, 5)).toEqual([]);
  return children;
}

const get = async (host: string, path: string) => {
  const response = await workerFetch(`http://${host}${path}`);
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
};
const loc = (el: Element) => Array.from(el.childNodes).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === "loc")?.textContent ?? "";

describe("sitemap", () => {
  it("lists 12,000 addresses in three parts of at most 5,000, with lastmod and language alternates, never a redirected one; robots.txt names it", async () => {
    const s = await seedSite();
    const token = await credential(s);
    // No model with a site_path yet: no sitemap, and robots.txt names none.
    expect((await get(s.host, "/sitemap.xml")).status).toBe(404);
    expect((await get(s.host, "/robots.txt")).text).not.toContain("Sitemap:");

    const post = await manage<{ model_id: string }>(token, "POST", "/models", {
      body: { definition: { model: { name: "Post", slug: "post", enableI18n: true, settings: { site_path: "/{lang}/blog/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } },
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const hidden = await manage<{ model_id: string }>(token, "POST", "/models", {
      body: { definition: { model: { name: "Memo", slug: "memo", is_public: false, settings: { site_path: "/memo/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    const en = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: post.body.model_id, slug: "tides", fields: { title: "Tides" } } });
    const fr = await manage<{ instance_id: string }>(token, "POST", `/entries/${en.body.instance_id}/languages`, { body: { lang: "fr", slug: "marees", fields: { title: "Marées" } } });
    const draft = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: post.body.model_id, slug: "unpublished", fields: { title: "Draft" } } });
    const memo = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: hidden.body.model_id, slug: "private", fields: { title: "Private" } } });
    for (const id of [en.body.instance_id, fr.body.instance_id, memo.body.instance_id]) expect((await manage(token, "POST", `/entries/${id}/publish`, { body: {} })).status).toBe(200);
    expect(draft.status).toBe(201);

    // 12,000 more published items of a public model with a site_path (rows written straight to D1: the volume, not the publish path, is under test).
    const page = await manage<{ model_id: string }>(token, "POST", "/models", {
      body: { definition: { model: { name: "Page", slug: "page", settings: { site_path: "/p/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } },
    });
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
       INSERT INTO published_items (site_id, instance_id, model_id, translation_group_id, lang, slug, label, version_id, published_at, sort_at, body)
       SELECT ?1, 'ent_bulk' || i, ?2, 'grp_bulk' || i, 'en', 'bulk-' || i, 'Bulk ' || i, 'ver_bulk' || i, '2026-11-01T10:00:00.000Z', printf('2026-11-01T10:00:%05d', i), '{}' FROM n`,
    )
      .bind(s.site.id, page.body.model_id)
      .run();
    // A rule holding one of those addresses (a site's own data can hold one after an import).
    await env.DB.prepare("INSERT INTO redirects (id, site_id, source, target, status, note, revision, created_by, created_at, updated_at) VALUES (?, ?, '/p/bulk-7', '/p/bulk-8', 301, NULL, 0, 'test', '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')")
      .bind(`rdr_sitemap_${s.site.id}`, s.site.id)
      .run();

    const index = await get(s.host, "/sitemap.xml");
    expect(index.status).toBe(200);
    expect(index.type).toContain("application/xml");
    const parts = parse(index.text, "sitemapindex").map(loc);
    expect(parts).toEqual([1, 2, 3].map((n) => `http://${s.host}/sitemap-${n}.xml`));

    const addresses: string[] = [];
    const sizes: number[] = [];
    let tides: Element | undefined;
    for (const part of parts) {
      const answer = await get(s.host, new URL(part).pathname);
      expect(answer.status).toBe(200);
      const urls = parse(answer.text, "urlset");
      sizes.push(urls.length);
      for (const url of urls) {
        addresses.push(loc(url));
        if (loc(url).endsWith("/en/blog/tides")) tides = url;
      }
    }
    expect(sizes.every((n) => n <= 5000)).toBe(true);
    // 12,000 pages less the redirected one, and the two languages of the post.
    expect(addresses).toHaveLength(12_001);
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(addresses).toContain(`http://${s.host}/fr/blog/marees`);
    expect(addresses).toContain(`http://${s.host}/p/bulk-12000`);
    expect(addresses).not.toContain(`http://${s.host}/p/bulk-7`);
    expect(addresses.some((a) => a.includes("unpublished") || a.includes("/memo/"))).toBe(false);
    const links = Array.from(tides?.getElementsByTagNameNS(XHTML_NS, "link") ?? []).map((l) => [l.getAttribute("hreflang"), l.getAttribute("href")]);
    expect(links).toEqual([["en", `http://${s.host}/en/blog/tides`], ["fr", `http://${s.host}/fr/blog/marees`]]);

    expect((await get(s.host, "/sitemap-4.xml")).status).toBe(404);
    expect((await get(s.host, "/sitemap.xml?x=1")).status).toBe(404);
    expect((await get(s.host, "/robots.txt")).text).toContain(`Sitemap: http://${s.host}/sitemap.xml`);
  }, 90_000); // 12,000 addresses parsed and checked: ~20 s here
});
