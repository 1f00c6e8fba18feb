import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { canonicalRichText } from "../../shared/content/rich-text";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite, versionCount, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { uploadPng, usageOf } from "../helpers/media-usage";
import { installTestPlugin, testManifest } from "../helpers/plugins";
import { publicGet } from "../helpers/public-api";

type Err = { error: { code: string; message: string; issues?: { path: string; code: string }[]; ids?: string[]; [detail: string]: unknown } };
interface ItemBody { data: { fields: Record<string, unknown> } }
type Warned = EntryView & { warnings?: { code: string; path: string; dropped: string[] }[] };

interface Fixture {
  s: SeededSite;
  articleId: string;
  /** A fresh credential: the test rate limit (40 a minute) is per credential. */
  token: () => Promise<string>;
}

async function fixture(settings: Record<string, unknown> = {}): Promise<Fixture> {
  const s = await seedSite({ settings });
  const { article } = await blogModels(s.ctx());
  return { s, articleId: article.id, token: () => credential(s) };
}

async function entryCount(siteId: string): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM entries WHERE site_id = ?").bind(siteId).first<{ n: number }>())?.n ?? -1;
}

let slugs = 0;
/** Creates an article with `body` (and a slug of its own); answers the status and body. */
function create(f: Fixture, token: string, body: string, slug = `r-${(slugs += 1)}`) {
  return manage<Warned & Err>(token, "POST", "/entries", { body: { model_id: f.articleId, slug, fields: { title: "T", body } } });
}

/** Expects `body` refused on create with field_validation_failed naming `code` at `body`, and nothing written. */
async function expectIssue(f: Fixture, token: string, body: string, code: string): Promise<void> {
  const before = await entryCount(f.s.site.id);
  const res = await create(f, token, body);
  expect(res.status, body.slice(0, 200)).toBe(422);
  expect(res.body.error.code).toBe("field_validation_failed");
  expect(res.body.error.issues?.map((i) => [i.path, i.code]), body.slice(0, 200)).toContainEqual(["body", code]);
  expect(await entryCount(f.s.site.id)).toBe(before);
}

/** Expects `body` refused on create with the error `code` (422), and nothing written. */
async function expectRefused(f: Fixture, token: string, body: string, code: string): Promise<Err["error"]> {
  const before = await entryCount(f.s.site.id);
  const res = await create(f, token, body);
  expect(res.status, body.slice(0, 200)).toBe(422);
  expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
  expect(await entryCount(f.s.site.id)).toBe(before);
  return res.body.error;
}

const row = (cells: number, tag = "td") => `<tr>${`<${tag}>c</${tag}>`.repeat(cells)}</tr>`;

describe("rich-text tables (#13 item 9)", () => {
  it("stores a table canonically with bounded spans and scope, and serves it unchanged", async () => {
    const f = await fixture();
    const token = await f.token();
    const table =
      `<table><caption>Tides</caption><thead><tr><th scope="col" colspan="2">Time</th><th scope="COL">Height</th></tr></thead>` +
      `<tbody><tr><th scope="row" rowspan="2">Mon</th><td>6:00</td><td>3.1</td></tr><tr><td>18:00</td><td>2.9</td></tr></tbody>` +
      `<tfoot><tr><td colspan="3">m</td></tr></tfoot></table>`;
    const created = await create(f, token, table, "tides");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const stored = String(created.body.fields.body);
    expect(stored).toBe(table.replace(`scope="COL"`, `scope="col"`));
    expect(canonicalRichText(stored)).toBe(stored);
    expect(created.body.warnings).toBeUndefined();
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    expect((await publicGet<ItemBody>(f.s.host, "/v1/article/tides")).body.data.fields.body).toBe(stored);
    // Spans out of bounds, zero, signed or hostile are dropped; the cell stays.
    const spans = await create(f, token, `<table><tr><td colspan="13" rowspan="0" scope="x" onclick="x()">a</td><td colspan="-1" rowspan="201">b</td></tr></table>`);
    expect(spans.body.fields.body).toBe(`<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>`);
  });

  it("refuses a table wider than 12 columns or longer than 200 rows, counting colspan and rowspan, and writes nothing", async () => {
    const f = await fixture();
    const token = await f.token();
    expect((await create(f, token, `<table>${row(12)}${row(12, "th")}</table>`)).status).toBe(201);
    expect((await create(f, token, `<table>${row(1).repeat(200)}</table>`)).status).toBe(201);
    await expectIssue(f, token, `<table>${row(13)}</table>`, "table_too_large");
    await expectIssue(f, token, `<table>${row(1).repeat(201)}</table>`, "table_too_large");
    await expectIssue(f, token, `<table><tr><td colspan="12">a</td><td>b</td></tr></table>`, "table_too_large");
    // A cell spanning down pushes the next row's cells right: 1 + 12 columns.
    await expectIssue(f, token, `<table><tr><td rowspan="2">a</td><td>b</td></tr>${row(12)}</table>`, "table_too_large");
    // Rows of thead, tbody and tfoot all count; a table nested in a cell is judged alone.
    await expectIssue(f, token, `<table><thead>${row(1).repeat(100)}</thead><tbody>${row(1).repeat(100)}</tbody><tfoot>${row(1)}</tfoot></table>`, "table_too_large");
    await expectIssue(f, token, `<table><tr><td><table>${row(13)}</table></td></tr></table>`, "table_too_large");
    // Unclosed markup is parsed as a browser would: implied rows count too.
    await expectIssue(f, token, `<table>${"<tr><td>x".repeat(201)}`, "table_too_large");
    // The same refusal on a draft save: the draft does not move.
    const ok = await create(f, token, `<p>x</p>`);
    const saved = await manage<Err>(token, "PUT", `/entries/${ok.body.instance_id}`, { body: { expected_version_id: ok.body.current_version_id, fields: { body: `<table>${row(20)}</table>` } } });
    expect(saved.status).toBe(422);
    expect(saved.body.error.issues?.map((i) => i.code)).toEqual(["table_too_large"]);
    expect(await versionCount(ok.body.instance_id)).toBe(1);
  });
});

describe("rich-text galleries (#13 item 9)", () => {
  it("stores a gallery of 2 to 24 library images of this site; the images count as usage", async () => {
    const f = await fixture();
    const token = await f.token();
    const [a, b] = [await uploadPng(token, "a"), await uploadPng(token, "b")];
    const gallery = `<figure data-gallery=""><img src="${a.url}" data-media="${a.id}" alt="A"><img data-media="${b.id}" alt="B"><figcaption>Two</figcaption></figure>`;
    const created = await create(f, token, gallery.replace(`data-gallery=""`, `data-gallery="yes" class="g"`));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fields.body).toBe(gallery);
    expect((await usageOf(token, b.id)).body).toMatchObject({ used_by: [{ instance_id: created.body.instance_id }], total: 1 });
    const many = `<figure data-gallery>${`<img data-media="${a.id}">`.repeat(24)}</figure>`;
    expect((await create(f, token, many)).status).toBe(201);
  });

  it("refuses a gallery of fewer than 2 or more than 24 images, images not from the library, and media ids that are not this site's", async () => {
    const f = await fixture();
    const other = await fixture();
    const token = await f.token();
    const a = await uploadPng(token, "a");
    const foreign = await uploadPng(await other.token(), "foreign");
    await expectIssue(f, token, `<figure data-gallery><img data-media="${a.id}"></figure>`, "gallery_size");
    await expectIssue(f, token, `<figure data-gallery></figure>`, "gallery_size");
    await expectIssue(f, token, `<figure data-gallery>${`<img data-media="${a.id}">`.repeat(25)}</figure>`, "gallery_size");
    await expectIssue(f, token, `<figure data-gallery><img data-media="${a.id}"><img src="https://cdn.example.com/x.png"></figure>`, "gallery_image_invalid");
    expect((await expectRefused(f, token, `<figure data-gallery><img data-media="${a.id}"><img data-media="med_nope"></figure>`, "media_not_found")).ids).toEqual(["med_nope"]);
    expect((await expectRefused(f, token, `<figure data-gallery><img data-media="${a.id}"><img data-media="${foreign.id}"></figure>`, "media_not_found")).ids).toEqual([foreign.id]);
    // A malformed id is refused, not silently dropped.
    expect((await expectRefused(f, token, `<img data-media="javascript:alert(1)">`, "media_not_found")).ids).toEqual(["javascript:alert(1)"]);
  });
});

describe("rich-text embeds (#13 item 9)", () => {
  it("keeps embeds of the two built-in providers and of the site's embed origins, and lists the providers publicly", async () => {
    const f = await fixture({ embed_origins: ["https://maps.example.com"] });
    const token = await f.token();
    const embeds =
      `<figure data-embed="https://www.youtube.com/embed/dQw4w9WgXcQ?start=30"><figcaption>Video</figcaption></figure>` +
      `<figure data-embed="https://player.vimeo.com/video/76979871"></figure>` +
      `<figure data-embed="https://maps.example.com/embed/harbour?z=3"></figure>`;
    const created = await create(f, token, embeds);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fields.body).toBe(embeds);
    // The URL is stored as the URL standard writes it.
    expect((await create(f, token, `<figure data-embed=" HTTPS://WWW.YOUTUBE.COM/embed/dQw4w9WgXcQ"></figure>`)).body.fields.body).toBe(`<figure data-embed="https://www.youtube.com/embed/dQw4w9WgXcQ"></figure>`);
    const listed = await publicGet<{ data: { providers: string[]; origins: string[] } }>(f.s.host, "/v1/_embeds");
    expect(listed.body.data).toEqual({ providers: ["https://www.youtube.com", "https://player.vimeo.com"], origins: ["https://maps.example.com"] });
  });

  it("refuses an embed from any other origin, another path of a provider, or another scheme, naming the field; nothing is written", async () => {
    const f = await fixture({ embed_origins: ["https://maps.example.com"] });
    const token = await f.token();
    for (const url of [
      "https://evil.example.com/embed/x",
      "https://maps.example.com.evil.test/x",
      "http://maps.example.com/x",
      "https://maps.example.com:8443/x",
      "https://user:pw@maps.example.com/x",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ/../../redirect",
      "https://player.vimeo.com/video/abc",
      "https://youtube.com/embed/dQw4w9WgXcQ",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "//www.youtube.com/embed/dQw4w9WgXcQ",
    ]) {
      await expectIssue(f, token, `<figure data-embed="${url}"></figure>`, "embed_not_allowed");
    }
  });

  it("judges a restored version again: an embed whose origin the site no longer allows is refused", async () => {
    const f = await fixture({ embed_origins: ["https://maps.example.com"] });
    const token = await f.token();
    const first = await create(f, token, `<figure data-embed="https://maps.example.com/x"></figure>`);
    expect(first.status).toBe(201);
    const saved = await manage<EntryView>(token, "PUT", `/entries/${first.body.instance_id}`, { body: { expected_version_id: first.body.current_version_id, fields: { body: "<p>later</p>" } } });
    expect(saved.status).toBe(200);
    expect((await manage(token, "PUT", "/settings", { body: { embed_origins: [] } })).status).toBe(200);
    const restored = await manage<Err>(token, "POST", `/entries/${first.body.instance_id}/versions/${first.body.current_version_id}/restore`, { body: {} });
    expect(restored.status).toBe(422);
    expect(restored.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["body", "embed_not_allowed"]]);
    expect(await versionCount(first.body.instance_id)).toBe(2);
  });

  it("drops an iframe, whatever its origin, and reports it with the other dropped markup", async () => {
    const f = await fixture();
    const token = await f.token();
    const created = await create(f, token, `<p onclick="x()">a</p><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" srcdoc="<script>x()</script>"></iframe><script>y()</script><!-- c --><font>b</font>`);
    expect(created.status).toBe(201);
    expect(created.body.fields.body).toBe(`<p>a</p>b`);
    expect(created.body.warnings).toEqual([{ code: "rich_markup_dropped", path: "body", dropped: ["p[onclick]", "<iframe>", "<script>", "#comment", "<font>"] }]);
    // A draft save reports too; a write that drops nothing has no warnings.
    const saved = await manage<Warned>(token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: created.body.current_version_id, fields: { body: `<img src="javascript:x" alt="a">` } } });
    expect(saved.body.warnings).toEqual([{ code: "rich_markup_dropped", path: "body", dropped: ["img[src]"] }]);
    // A replay of the same Idempotency-Key answers the same warnings.
    const key = `replay-${Date.now()}`;
    const sent = { model_id: f.articleId, slug: "replayed", fields: { title: "R", body: `<p style="x">r</p>` } };
    const once = await manage<Warned>(token, "POST", "/entries", { key, body: sent });
    const twice = await manage<Warned & { replayed?: boolean }>(token, "POST", "/entries", { key, body: sent });
    expect(once.body.warnings).toEqual([{ code: "rich_markup_dropped", path: "body", dropped: ["p[style]"] }]);
    expect(twice.body.replayed).toBe(true);
    expect(twice.body.warnings).toEqual(once.body.warnings);
    const clean = await manage<Warned>(token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: saved.body.current_version_id, fields: { body: `<p>ok</p>` } } });
    expect(clean.status).toBe(200);
    expect("warnings" in clean.body).toBe(false);
  });
});

describe("plugin blocks in rich text (#13 item 9)", () => {
  const blocks = [
    {
      name: "callout",
      label: "Callout",
      version: 2,
      fields: {
        text: { type: "text", required: true, max_length: 20 },
        tone: { type: "select", options: ["info", "warn"] },
        count: { type: "integer", min: 1, max: 5 },
        link: { type: "url" },
        open: { type: "boolean" },
        image: { type: "media" },
        extra: { type: "something-else" },
      },
    },
    { name: "divider", label: "Divider", version: 1, fields: {} },
  ];

  async function withPlugins(): Promise<Fixture> {
    const f = await fixture();
    await installTestPlugin(f.s, { manifest: testManifest({ id: "kit", rich_text_blocks: blocks }), modelIds: [f.articleId] });
    await installTestPlugin(f.s, { manifest: testManifest({ id: "off", rich_text_blocks: blocks }), modelIds: [f.articleId], state: "disabled" });
    return f;
  }
  const block = (name: string, version: string, values?: unknown) =>
    `<div data-block="${name}" data-version="${version}"${values === undefined ? "" : ` data-values="${JSON.stringify(values).replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`}></div>`;

  it("stores blocks of active plugins with their declared version and matching values, in groups nested up to 3 levels", async () => {
    const f = await withPlugins();
    const token = await f.token();
    const image = await uploadPng(token, "img");
    const values = { text: "Mind the tide", tone: "warn", count: 3, link: "https://example.com/t", open: true, image: image.id, extra: [1, { a: 2 }] };
    const html = `<div data-block-group="">${block("kit/callout", "2", values)}<div data-block-group="">${block("kit/divider", "1")}<div data-block-group="">${block("kit/divider", "1", {})}</div></div></div>`;
    const created = await create(f, token, html.replace(`data-values="{`, `data-values=" {`), "blocks");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.fields.body).toBe(html);
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const served = String((await publicGet<ItemBody>(f.s.host, "/v1/article/blocks")).body.data.fields.body);
    expect(served).toBe(html);
    expect(canonicalRichText(served)).toBe(served);
    // Required values and select options are judged; a layout div is unwrapped, not a block.
    expect((await create(f, token, `<div class="x">${block("kit/callout", "2", { text: "t" })}</div>`)).body.fields.body).toBe(block("kit/callout", "2", { text: "t" }));
  });

  it("refuses an unknown or inactive plugin's block, an undeclared version and values that do not match, writing nothing", async () => {
    const f = await withPlugins();
    const token = await f.token();
    expect((await expectRefused(f, token, block("kit/nope", "1"), "rich_block_unregistered"))).toMatchObject({ path: "body", block: "kit/nope" });
    await expectRefused(f, token, block("off/callout", "2", { text: "x" }), "rich_block_unregistered");
    await expectRefused(f, token, block("ghost/callout", "2", { text: "x" }), "rich_block_unregistered");
    await expectRefused(f, token, `<div data-block="Kit/Callout!" data-version="2"></div>`, "rich_block_unregistered");
    expect((await expectRefused(f, token, block("kit/callout", "1", { text: "x" }), "rich_block_version_unknown"))).toMatchObject({ path: "body", block: "kit/callout", version: "1", declared_version: 2 });
    await expectRefused(f, token, `<div data-block="kit/callout" data-values="{}"></div>`, "rich_block_version_unknown");
    await expectRefused(f, token, `<div data-block="kit/divider" data-version="01"></div>`, "rich_block_version_unknown");
    for (const values of [
      {},
      { text: 5 },
      { text: "x".repeat(21) },
      { text: "ok", tone: "loud" },
      { text: "ok", count: 2.5 },
      { text: "ok", count: 9 },
      { text: "ok", link: "javascript:alert(1)" },
      { text: "ok", open: "yes" },
      { text: "ok", image: "not-a-media-id" },
      { text: "ok", surprise: 1 },
    ]) {
      const refused = await expectRefused(f, token, block("kit/callout", "2", values), "rich_block_values_invalid");
      expect(refused.block, JSON.stringify(values)).toBe("kit/callout");
    }
    await expectRefused(f, token, `<div data-block="kit/divider" data-version="1" data-values="[1]"></div>`, "rich_block_values_invalid");
    await expectRefused(f, token, `<div data-block="kit/divider" data-version="1" data-values="{not json"></div>`, "rich_block_values_invalid");
    // A block's media value must name a file of this site.
    expect((await expectRefused(f, token, block("kit/callout", "2", { text: "ok", image: "med_missing" }), "media_not_found")).ids).toEqual(["med_missing"]);
  });

  it("refuses block groups nested deeper than 3 levels or holding more than 50 items", async () => {
    const f = await withPlugins();
    const token = await f.token();
    const divider = block("kit/divider", "1");
    const group = (inner: string) => `<div data-block-group>${inner}</div>`;
    expect((await create(f, token, group(divider.repeat(50)))).status).toBe(201);
    await expectIssue(f, token, group(group(group(group(divider)))), "block_group_too_deep");
    await expectIssue(f, token, group(divider.repeat(51)), "block_group_too_large");
    await expectIssue(f, token, group(group(divider.repeat(30) + group(divider) + divider.repeat(20))), "block_group_too_large");
    // Blocks nested in a block's fallback content nest like groups: three levels hold, ten do not
    // (found by the black-box probe: the level bound was not applied to blocks inside blocks).
    const inBlock = (inner: string) => `<div data-block="kit/divider" data-version="1">${inner}</div>`;
    expect((await create(f, token, group(group(inBlock(divider))))).status).toBe(201);
    let chain = divider;
    for (let i = 0; i < 9; i++) chain = inBlock(chain);
    await expectIssue(f, token, chain, "block_group_too_deep");
    await expectIssue(f, token, group(group(group(inBlock(divider)))), "block_group_too_deep");
  });

  it("judges blocks on every write path: a draft save and an added language", async () => {
    const f = await withPlugins();
    const token = await f.token();
    const created = await create(f, token, `<p>x</p>`);
    const saved = await manage<Err>(token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: created.body.current_version_id, fields: { body: block("kit/nope", "1") } } });
    expect(saved.status).toBe(422);
    expect(saved.body.error.code).toBe("rich_block_unregistered");
    const french = await manage<Err>(token, "POST", `/entries/${created.body.instance_id}/languages`, { body: { lang: "fr", fields: { title: "Fr", body: block("kit/callout", "2", { text: 1 }) } } });
    expect(french.status).toBe(422);
    expect(french.body.error.code).toBe("rich_block_values_invalid");
    expect(await versionCount(created.body.instance_id)).toBe(1);
    expect(await entryCount(f.s.site.id)).toBe(1);
  });
});
