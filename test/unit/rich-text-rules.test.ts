import { describe, expect, it } from "vitest";
import { blockValueIssues } from "../../shared/content/rich-block-values";
import { canonicalRichText, sanitiseRichText } from "../../shared/content/rich-text";
import { embedAllowed, requireRegisteredBlocks, sanitiseWrittenRichText } from "../../shared/content/rich-text-rules";
import type { FieldDefinition } from "../../schema/model-definition";

const body = { id: "fld_body", key: "body", label: "Body", type: "rich_text" } as FieldDefinition;
const judge = (html: string, origins: string[] = []) => sanitiseWrittenRichText([body], { body: html }, origins);
const codes = (html: string, origins: string[] = []) => judge(html, origins).issues.map((i) => i.code);

describe("canonical tables, galleries, embeds and blocks", () => {
  it("keeps table markup with bounded spans and scope only on th, and parses implied sections as a browser does", () => {
    expect(canonicalRichText(`<table><tr><th scope=ROW colspan=12 rowspan=200>a<td scope=col colspan=2 style=x>b</table>`)).toBe(
      `<table><tbody><tr><th scope="row" colspan="12" rowspan="200">a</th><td colspan="2">b</td></tr></tbody></table>`,
    );
    expect(canonicalRichText(`<table><tr><td colspan=13 rowspan=201>a</td><td colspan=0 rowspan=" 3 ">b</td></tr></table>`)).toBe(`<table><tbody><tr><td>a</td><td rowspan="3">b</td></tr></tbody></table>`);
    // Text a browser foster-parents out of a table lands before it, as it would in the page.
    expect(canonicalRichText(`<table>loose<tr><td>x</td></tr></table>`)).toBe(`loose<table><tbody><tr><td>x</td></tr></tbody></table>`);
  });

  it("keeps a div only as a block or block group, with canonical JSON values", () => {
    expect(canonicalRichText(`<div data-block="kit/a" data-version="2" data-values='{ "x" : 1 }' class=c onclick=y>fallback</div>`)).toBe(
      `<div data-block="kit/a" data-version="2" data-values="{&quot;x&quot;:1}">fallback</div>`,
    );
    expect(canonicalRichText(`<div data-block-group="whatever"><div>plain</div></div>`)).toBe(`<div data-block-group="">plain</div>`);
    expect(canonicalRichText(`<div id=x>plain</div>`)).toBe(`plain`);
    // Values that are not a JSON object are kept as written, for the rules to refuse.
    expect(canonicalRichText(`<div data-block="kit/a" data-values="[1,&quot;<script>&quot;]"></div>`)).toBe(`<div data-block="kit/a" data-values="[1,&quot;&lt;script&gt;&quot;]"></div>`);
  });

  it("keeps https embed URLs as the URL standard writes them and data-media ids of the media form only", () => {
    expect(canonicalRichText(`<figure data-embed=" HTTPS://Player.Vimeo.com/video/1 "></figure>`)).toBe(`<figure data-embed="https://player.vimeo.com/video/1"></figure>`);
    for (const bad of ["javascript:alert(1)", "http://player.vimeo.com/video/1", "//player.vimeo.com/video/1", "/relative", "https://u:p@x.test/"]) {
      const out = sanitiseRichText(`<figure data-embed="${bad}"></figure>`);
      expect(out.html, bad).toBe(`<figure></figure>`);
      expect(out.rejected, bad).toEqual([{ attribute: "data-embed", value: bad }]);
    }
    expect(sanitiseRichText(`<img data-media="med_ok"><img data-media="med_../x">`).html).toBe(`<img data-media="med_ok"><img>`);
  });

  it("is stable on tables, galleries, embeds and blocks", () => {
    for (const html of [
      `<table><caption>c</caption><tr><td>1<table><tr><td>2</td></tr></table></td></tr><tfoot><tr><th>f</th></tr></tfoot></table>`,
      `<p><figure data-gallery><img data-media="med_a"><img data-media="med_b"></figure></p>`,
      `<table><tr><td><div data-block-group><div data-block="kk/x" data-version="1"></div></div></td></tr></table>`,
      `<div data-block="kk/x" data-values='{"a":"</div><script>x()</script>"}'></div>`,
    ]) {
      const once = canonicalRichText(html);
      expect(canonicalRichText(once), html).toBe(once);
    }
  });
});

describe("the rich-text rules", () => {
  it("measures tables by rows and by the widest row, counting spans", () => {
    const row = (n: number) => `<tr>${"<td>x</td>".repeat(n)}</tr>`;
    expect(codes(`<table>${row(12)}</table>`)).toEqual([]);
    expect(codes(`<table>${row(13)}</table>`)).toEqual(["table_too_large"]);
    expect(codes(`<table>${row(1).repeat(200)}</table>`)).toEqual([]);
    expect(codes(`<table>${row(1).repeat(201)}</table>`)).toEqual(["table_too_large"]);
    expect(judge(`<table><tr><td rowspan="3">a</td>${"<td>b</td>".repeat(11)}</tr>${row(11)}${row(11)}</table>`).issues).toEqual([]);
    expect(codes(`<table><tr><td rowspan="3">a</td></tr>${row(1)}${row(12)}</table>`)).toEqual(["table_too_large"]);
  });

  it("sizes galleries by their images, all from the library", () => {
    const img = `<img data-media="med_a">`;
    expect(codes(`<figure data-gallery>${img}</figure>`)).toEqual(["gallery_size"]);
    expect(codes(`<figure data-gallery>${img.repeat(2)}</figure>`)).toEqual([]);
    expect(codes(`<figure data-gallery>${img.repeat(24)}</figure>`)).toEqual([]);
    expect(codes(`<figure data-gallery>${img.repeat(25)}</figure>`)).toEqual(["gallery_size"]);
    expect(codes(`<figure data-gallery>${img}<img src="/x.png"></figure>`)).toEqual(["gallery_image_invalid"]);
    expect(judge(`<figure data-gallery>${img}<img data-media="med_b"></figure><img data-media="bad!">`).mediaIds).toEqual(["med_a", "med_b", "bad!"]);
  });

  it("allows embeds only from the providers' embed forms and the site's origins", () => {
    expect(embedAllowed("https://www.youtube.com/embed/abcdefghijk", [])).toBe(true);
    expect(embedAllowed("https://www.youtube.com/embed/abcdefghij", [])).toBe(false);
    expect(embedAllowed("https://player.vimeo.com/video/123?h=1", [])).toBe(true);
    expect(embedAllowed("https://player.vimeo.com/123", [])).toBe(false);
    expect(embedAllowed("https://maps.example.com/x", ["https://maps.example.com"])).toBe(true);
    expect(embedAllowed("https://maps.example.com:444/x", ["https://maps.example.com"])).toBe(false);
    expect(embedAllowed("http://maps.example.com/x", ["http://maps.example.com"])).toBe(false);
    expect(codes(`<figure data-embed="https://evil.test/x"></figure><figure data-embed="javascript:x"></figure>`)).toEqual(["embed_not_allowed", "embed_not_allowed"]);
  });

  it("bounds block group nesting and size", () => {
    const b = `<div data-block="kk/x" data-version="1"></div>`;
    const g = (inner: string) => `<div data-block-group>${inner}</div>`;
    expect(codes(g(g(g(b))))).toEqual([]);
    expect(codes(g(g(g(g(b)))))).toEqual(["block_group_too_deep"]);
    expect(codes(g(b.repeat(50)))).toEqual([]);
    expect(codes(g(b.repeat(51)))).toEqual(["block_group_too_large"]);
  });

  it("reports dropped markup per field, and nothing for canonical input", () => {
    expect(judge(`<p style="x">a</p><script>b</script>`).warnings).toEqual([{ code: "rich_markup_dropped", path: "body", dropped: ["p[style]", "<script>"] }]);
    expect(judge(`<p>a</p>`).warnings).toEqual([]);
    expect(judge(`<svg><a xlink:href="javascript:x">y</a></svg>`).warnings[0]?.dropped).toEqual(["<svg>"]);
  });

  it("checks blocks against registered blocks: name, version, then values", () => {
    const registered = [{ name: "kk/x", version: 2, fields: { t: { type: "text", required: true }, m: { type: "media" } } }];
    const blocks = (html: string) => judge(html).blocks;
    const code = (html: string) => {
      try {
        requireRegisteredBlocks(blocks(html), registered);
        return "ok";
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    expect(code(`<div data-block="kk/x" data-version="2" data-values='{"t":"a"}'></div>`)).toBe("ok");
    expect(code(`<div data-block="kk/y" data-version="2"></div>`)).toBe("rich_block_unregistered");
    expect(code(`<div data-block="KK/X" data-version="2"></div>`)).toBe("rich_block_unregistered");
    expect(code(`<div data-block="kk/x" data-version="3" data-values='{"t":"a"}'></div>`)).toBe("rich_block_version_unknown");
    expect(code(`<div data-block="kk/x" data-version="2"></div>`)).toBe("rich_block_values_invalid");
    expect(requireRegisteredBlocks(blocks(`<div data-block="kk/x" data-version="2" data-values='{"t":"a","m":"med_q"}'></div>`), registered)).toEqual(["med_q"]);
  });

  it("reads a block field schema: types, required, bounds and options; unknown specs accept any value", () => {
    const fields = { n: { type: "number", min: 0, max: 1 }, s: { type: "select", options: ["a"] }, u: { type: "url" }, free: { type: "map" }, loose: "text" };
    expect(blockValueIssues(fields, JSON.stringify({ n: 0.5, s: "a", u: "https://x.test", free: { any: [1] }, loose: 7 })).issues).toEqual([]);
    expect(blockValueIssues(fields, JSON.stringify({ n: 2, s: "b", u: "ftp://x", __proto__: 1 })).issues.map((i) => i.key)).toEqual(["n", "s", "u"]);
    expect(blockValueIssues(fields, `{"constructor":1}`).issues).toEqual([{ key: "constructor", message: "not a field of this block" }]);
    expect(blockValueIssues(fields, null).issues).toEqual([]);
    expect(blockValueIssues(fields, "nope").issues).toHaveLength(1);
  });
});
