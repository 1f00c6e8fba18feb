import { env } from "cloudflare:test";
import { parse, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { canonicalRichText } from "../../shared/content/rich-text";
import naughty from "../corpus/naughty-strings.json";
import xssCorpus from "../corpus/rich-text-xss.json";
import { addModel, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

type Node = DefaultTreeAdapterTypes.ChildNode;
/** A payload, and when the rules refuse it outright (a disallowed embed, an unknown block…) the code that says so. */
const corpus: { name: string; html: string; refused?: string }[] = xssCorpus;
type Err = { error: { code: string; issues?: { path: string; code: string }[] } };
interface ItemBody { data: { fields: Record<string, unknown> } }

/** Elements that run code, load other documents, submit, re-base URLs or change parsing. */
const FORBIDDEN_ELEMENTS = new Set([
  "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link", "form", "button",
  "input", "textarea", "select", "template", "noscript", "noembed", "noframes", "xmp", "plaintext", "svg", "math",
  "video", "audio", "source", "marquee", "details", "body", "html", "head", "title",
]);
const URL_ATTRIBUTES = new Set(["href", "src", "cite", "action", "formaction", "data", "poster", "background", "xlink:href"]);
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:", "tel:"]);

/** A page that renders a rich-text value inline, as a website's template does. */
const inPage = (served: string) => `<!doctype html><html><head><title>t</title></head><body><div id="root">${served}</div></body></html>`;

/**
 * What is dangerous in `served` once a browser parses it inline in a page (parse5 parses as browsers
 * do): forbidden elements, comments, event-handler, style and srcdoc attributes anywhere (an inline
 * `<body onload>` lands on the page's body), and URLs whose scheme, as the URL standard reads it
 * (`new URL`), is not http, https, mailto or tel.
 */
function dangers(served: string): string[] {
  const found: string[] = [];
  const walk = (nodes: readonly Node[], inRoot: boolean) => {
    for (const node of nodes) {
      if (node.nodeName === "#comment" && inRoot) found.push("comment");
      if (!("tagName" in node)) continue;
      const root = inRoot || node.attrs.some((a) => a.name === "id" && a.value === "root");
      if (inRoot && (FORBIDDEN_ELEMENTS.has(node.tagName) || node.namespaceURI !== "http://www.w3.org/1999/xhtml")) found.push(`<${node.tagName}>`);
      for (const attribute of node.attrs) {
        const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name;
        if (name.startsWith("on") || name === "style" || name === "srcdoc") found.push(`${node.tagName}[${name}]`);
        if (URL_ATTRIBUTES.has(name) && !SAFE_PROTOCOLS.has(new URL(attribute.value, "https://site.test/page").protocol)) {
          found.push(`${node.tagName}[${name}=${attribute.value}]`);
        }
      }
      walk(node.childNodes, root);
    }
  };
  walk(parse(inPage(served)).childNodes, false);
  return found;
}

/** Payloads that are harmless as a browser parses them, but not after a naive decode or re-parse. */
const INERT_AS_SENT: string[] = ["split script tag (a tag named scr<script)", "markup inside an attribute value", "th scope breaking out of the attribute", "block values attribute break-out",
  "data attribute named like a handler", "embed of a javascript: URL", "embed of another origin",
];

async function article(): Promise<{ s: SeededSite; articleId: string }> {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  return { s, articleId: article.id };
}

describe("rich text is sanitised on every write (issue #9 item 6)", () => {
  it("the check itself finds the danger in the corpus as sent", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(28);
    // Inert as sent (text that only a careless sanitiser would turn into markup); all others are flagged.
    expect(corpus.filter((payload) => dangers(payload.html).length === 0).map((payload) => payload.name)).toEqual(INERT_AS_SENT);
  });

  it("serves each payload of the XSS corpus, written through the management API and published, without anything that runs script", async () => {
    const { s, articleId } = await article();
    const failures: string[] = [];
    for (const [index, payload] of corpus.entries()) {
      // A credential per payload: the test rate limit (40 a minute) is per credential.
      const token = await credential(s);
      const slug = `xss-${index}`;
      const created = await manage<EntryView & Err>(token, "POST", "/entries", { body: { model_id: articleId, slug, fields: { title: payload.name, body: payload.html } } });
      if (payload.refused !== undefined) {
        // Refused outright (422) is safe too: nothing is stored or served.
        expect(created.status, payload.name).toBe(422);
        expect([created.body.error.code, ...(created.body.error.issues ?? []).map((i) => i.code)], payload.name).toContain(payload.refused);
        expect((await publicGet(s.host, `/v1/article/${slug}`)).status, payload.name).toBe(404);
        continue;
      }
      expect(created.status, payload.name).toBe(201);
      expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status, payload.name).toBe(200);
      const item = await publicGet<ItemBody>(s.host, `/v1/article/${slug}`);
      expect(item.status, payload.name).toBe(200);
      const served = String(item.body.data.fields.body ?? "");
      const found = dangers(served);
      if (found.length > 0) failures.push(`${payload.name}: ${found.join(", ")} in ${served}`);
      // The draft the API answers holds the same sanitised value the public item serves.
      expect(created.body.fields.body ?? "", payload.name).toBe(served);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("stores and serves every naughty string as canonical, stable HTML, the same through the management and public APIs", async () => {
    const s = await seedSite();
    // One rich-text field a string, 20 strings an entry: each is parsed on its own, in fewer requests.
    const width = 20;
    const model = await addModel(s.ctx(), {
      slug: "naughty",
      name: "Naughty",
      fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }, ...Array.from({ length: width }, (_, i) => ({ key: `f${i}`, label: `F${i}`, type: "rich_text" as const }))],
    });
    const token = await credential(s);
    const failures: string[] = [];
    for (let start = 0; start < naughty.length; start += width) {
      const chunk = naughty.slice(start, start + width);
      const slug = `naughty-${start}`;
      const fields = Object.fromEntries(chunk.map((n, i) => [`f${i}`, n.value]));
      const created = await manage<EntryView & Err>(token, "POST", "/entries", { body: { model_id: model.id, slug, fields: { title: slug, ...fields } } });
      expect(created.status, `${slug} ${JSON.stringify(created.body).slice(0, 500)}`).toBe(201);
      expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status, slug).toBe(200);
      const item = await publicGet<ItemBody>(s.host, `/v1/naughty/${slug}`);
      expect(item.status, slug).toBe(200);
      for (const [i, { category, value }] of chunk.entries()) {
        const label = `${category} #${start + i}: ${JSON.stringify(value).slice(0, 80)}`;
        const stored = String(created.body.fields[`f${i}`] ?? "");
        const served = String(item.body.data.fields[`f${i}`] ?? "");
        if (canonicalRichText(stored) !== stored) failures.push(`${label}: not stable: ${JSON.stringify(stored)}`);
        if (canonicalRichText(value) !== stored) failures.push(`${label}: stored is not the canonical form`);
        if (served !== stored) failures.push(`${label}: served ${JSON.stringify(served)} but stored ${JSON.stringify(stored)}`);
        const found = dangers(served);
        if (found.length > 0) failures.push(`${label}: ${found.join(", ")}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("keeps allowed markup and safe links, and escapes text", async () => {
    const { s, articleId } = await article();
    const token = await credential(s);
    const html =
      `<h2>Tides</h2><p>Low &amp; high <strong>water</strong>, <em>twice</em> a day &lt;3</p>` +
      `<ul><li><a href="https://example.com/t?a=1&amp;b=2" title="Tables">tables</a></li><li><a href="/v1/article/x#top">here</a></li></ul>` +
      `<blockquote cite="https://example.com/q"><p>Quote</p></blockquote><p><img src="https://cdn.example.com/a.png" alt="A &quot;b&quot;" width="20"></p>`;
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: articleId, slug: "kept", fields: { title: "Kept", body: html } } });
    expect(created.status).toBe(201);
    expect(created.body.fields.body).toBe(html);
    const messy = await manage<EntryView>(token, "POST", "/entries", {
      body: { model_id: articleId, fields: { title: "Messy", body: `<P CLASS=x>a < b & c<div>d</div><font color=red>e</font><a href="mailto:x@example.com" target=_top rel=opener>m</a>` } },
    });
    const odd = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: articleId, fields: { title: "Odd", body: `<p __proto__="x" constructor="y">z</p>` } } });
    expect(odd.status).toBe(201);
    expect(odd.body.fields.body).toBe(`<p>z</p>`);
    // <div> closes the <p>; unknown elements (div, font) are unwrapped; class, a target other than _blank and rel dropped.
    expect(messy.body.fields.body).toBe(`<p>a &lt; b &amp; c</p>de<a href="mailto:x@example.com">m</a>`);
  });

  it("sanitises rich text on a draft save, an added language and a proposal as well", async () => {
    const { s, articleId } = await article();
    const token = await credential(s);
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: articleId, fields: { title: "Paths" } } });
    const id = created.body.instance_id;
    const saved = await manage<EntryView>(token, "PUT", `/entries/${id}`, {
      body: { expected_version_id: created.body.current_version_id, fields: { body: `<p>a</p><img src=x onerror=alert(1)>` } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.fields.body).toBe(`<p>a</p><img src="x">`);
    const french = await manage<EntryView>(token, "POST", `/entries/${id}/languages`, { body: { lang: "fr", fields: { title: "Chemins", body: `<a href="javascript:alert(1)">x</a>` } } });
    expect(french.status).toBe(201);
    expect(french.body.fields.body).toBe(`<a>x</a>`);
    const proposed = await manage<{ id: string; fields: Record<string, unknown> }>(token, "POST", `/entries/${id}/proposals`, {
      body: { base_version_id: saved.body.current_version_id, fields: { body: `<svg onload=alert(1)><p>ok</p>` } },
    });
    expect(proposed.status).toBe(201);
    expect(proposed.body.fields.body).toBe(`<p>ok</p>`);
  });

  it("serves clean a draft stored before sanitising existed, once it is published", async () => {
    const { s, articleId } = await article();
    const token = await credential(s);
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: articleId, slug: "legacy", fields: { title: "Legacy" } } });
    // A version as the service stored it before: the body exactly as sent.
    const bodyField = (await env.DB.prepare("SELECT definition FROM models WHERE id = ?").bind(articleId).first<{ definition: string }>())?.definition ?? "{}";
    const bodyId = (JSON.parse(bodyField) as { fields: { id: string; key: string }[] }).fields.find((f) => f.key === "body")?.id ?? "";
    const row = await env.DB.prepare("SELECT fields FROM versions WHERE id = ?").bind(created.body.current_version_id).first<{ fields: string }>();
    const raw = { ...(JSON.parse(row?.fields ?? "{}") as Record<string, unknown>), [bodyId]: `<p>old</p><img src=x onerror=alert(1)><script>alert(2)</script>` };
    await env.DB.prepare("UPDATE versions SET fields = ? WHERE id = ?").bind(JSON.stringify(raw), created.body.current_version_id).run();
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const item = await publicGet<ItemBody>(s.host, "/v1/article/legacy");
    expect(item.body.data.fields.body).toBe(`<p>old</p><img src="x">`);
  });

  it("refuses a value over 256 KiB before parsing it, and applies length rules to what is stored", async () => {
    const { s, articleId } = await article();
    const token = await credential(s);
    const huge = `<p>${"x".repeat(262_144)}</p>`;
    const refused = await manage<Err>(token, "POST", "/entries", { body: { model_id: articleId, fields: { title: "Big", body: huge } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["body", "too_long"]]);
  });
});
