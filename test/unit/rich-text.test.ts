import { describe, expect, it } from "vitest";
import { canonicalRichText, MAX_DEPTH, sanitiseRichText } from "../../shared/content/rich-text";
import { convertContent } from "../../shared/services/imports/wordpress/content";
import { htmlToText } from "../../shared/search/text";
import naughty from "../corpus/naughty-strings.json";
import corpus from "../corpus/rich-text-xss.json";

describe("canonicalRichText", () => {
  it("is stable: the canonical form of every corpus payload is its own canonical form", () => {
    for (const payload of corpus) {
      const once = canonicalRichText(payload.html);
      expect(canonicalRichText(once), payload.name).toBe(once);
    }
  });

  it("is stable on every naughty string", () => {
    for (const { category, value } of naughty) {
      const once = canonicalRichText(value);
      expect(canonicalRichText(once), `${category}: ${JSON.stringify(value)}`).toBe(once);
    }
  });

  it("keeps allowed elements and attributes, and drops the rest of an element's attributes", () => {
    expect(canonicalRichText(`<p lang="fr" dir="RTL" class="x" id="y" style="color:red">a</p>`)).toBe(`<p lang="fr" dir="rtl">a</p>`);
    expect(canonicalRichText(`<ol start="3" type="a"><li>x</li></ol>`)).toBe(`<ol start="3"><li>x</li></ol>`);
    expect(canonicalRichText(`<img src="/m/a.png" alt="A" width="20" height="big" loading="lazy">`)).toBe(`<img src="/m/a.png" alt="A" width="20">`);
  });

  it("drops attributes named after Object's own properties", () => {
    expect(canonicalRichText(`<p constructor="x" __proto__="y" tostring="z" hasownproperty="w" valueof="v">a</p>`)).toBe(`<p>a</p>`);
  });

  it("keeps http, https, mailto and tel links and relative ones; drops every other scheme, however written", () => {
    for (const href of ["https://example.com/a", "http://example.com", "mailto:a@example.com", "tel:+331", "/path?q=1#f", "#top", "page", "//example.com/x"]) {
      expect(canonicalRichText(`<a href="${href}">x</a>`), href).toBe(`<a href="${href}">x</a>`);
    }
    for (const href of ["javascript:alert(1)", "JAVASCRIPT:alert(1)", " \tjava\nscript:alert(1)", "&#106;avascript:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc/passwd", "blob:https://x/y", "java\u0000script:alert(1)"]) {
      expect(canonicalRichText(`<a href="${href}">x</a>`), href).toBe(`<a>x</a>`);
    }
    expect(canonicalRichText(`<img src="data:image/png;base64,AAAA">`)).toBe(`<img>`);
    expect(canonicalRichText(`<img src="mailto:a@example.com">`)).toBe(`<img>`);
  });

  it("escapes text and attribute values so nothing in them becomes markup", () => {
    expect(canonicalRichText(`a &lt;script&gt; & <b title='"><script>'>b</b>`)).toBe(`a &lt;script&gt; &amp; <b title="&quot;&gt;&lt;script&gt;">b</b>`);
  });

  it("drops code, other documents and foreign content with their content, and unwraps unknown elements", () => {
    expect(canonicalRichText(`<p>a<script>x()</script><style>p{}</style><iframe src="/x"></iframe>b</p>`)).toBe(`<p>ab</p>`);
    expect(canonicalRichText(`<svg><text>in svg</text></svg><math><mi>x</mi></math>c`)).toBe(`c`);
    expect(canonicalRichText(`<section><article><p>kept</p></article></section><custom-el>text</custom-el>`)).toBe(`<p>kept</p>text`);
    expect(canonicalRichText(`<!-- note --><p>x</p>`)).toBe(`<p>x</p>`);
  });

  it("keeps a leading newline of <pre> through a browser's re-parse", () => {
    expect(canonicalRichText(`<pre>\n\ncode</pre>`)).toBe(`<pre>\n\ncode</pre>`);
    expect(canonicalRichText(canonicalRichText(`<pre>\n\ncode</pre>`))).toBe(`<pre>\n\ncode</pre>`);
  });

  it("bounds nesting without exhausting the stack, keeping the text", () => {
    const deep = `${"<span>".repeat(50_000)}x`;
    const out = canonicalRichText(deep);
    expect(out).toBe(`${"<span>".repeat(MAX_DEPTH)}x${"</span>".repeat(MAX_DEPTH)}`);
  });

  it("keeps exactly target=\"_blank\" on a link and writes rel=\"noopener noreferrer\" itself (open in a new tab)", () => {
    const newTab = `<a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>`;
    expect(canonicalRichText(`<a href="https://example.com/" target="_blank">x</a>`)).toBe(newTab);
    expect(canonicalRichText(`<a href="https://example.com/" TARGET=" _BLANK ">x</a>`)).toBe(newTab);
    // Stable, and the canonical form reports nothing dropped.
    expect(canonicalRichText(newTab)).toBe(newTab);
    expect(sanitiseRichText(newTab).dropped).toEqual([]);
    // rel is the sanitiser's: whatever was sent is replaced (with target) or dropped (without).
    expect(canonicalRichText(`<a rel="opener" href="/a" target="_blank">x</a>`)).toBe(`<a href="/a" target="_blank" rel="noopener noreferrer">x</a>`);
    expect(sanitiseRichText(`<a rel="opener" href="/a" target="_blank">x</a>`).dropped).toEqual(["a[rel]"]);
    expect(sanitiseRichText(`<a rel="nofollow noopener" href="/a" target="_blank">x</a>`).dropped).toEqual(["a[rel]"]);
    expect(sanitiseRichText(`<a rel="NOOPENER" href="/a" target="_blank">x</a>`).dropped).toEqual([]);
    expect(canonicalRichText(`<a href="/a" rel="noopener noreferrer">x</a>`)).toBe(`<a href="/a">x</a>`);
    expect(canonicalRichText(`<a href="/a" rel="noopener&quot; onclick=&quot;alert(1)" target="_blank">x</a>`)).toBe(`<a href="/a" target="_blank" rel="noopener noreferrer">x</a>`);
    // Any other target goes (and is reported); so does target on any other element.
    for (const target of ["_top", "_parent", "_self", "frame", "_blank2", "_blank _top", ""]) {
      const out = sanitiseRichText(`<a href="/a" target="${target}">x</a>`);
      expect(out.html, target).toBe(`<a href="/a">x</a>`);
      expect(out.dropped, target).toEqual(["a[target]"]);
    }
    expect(canonicalRichText(`<p target="_blank">x</p><img src="/i.png" target="_blank">`)).toBe(`<p>x</p><img src="/i.png">`);
    // A new tab does not make a script address acceptable.
    expect(canonicalRichText(`<a href="javascript:alert(1)" target="_blank">x</a>`)).toBe(`<a target="_blank" rel="noopener noreferrer">x</a>`);
    expect(canonicalRichText(`<a href=" jav&#x09;ascript:alert(1)" target="_blank" rel="opener">x</a>`)).toBe(`<a target="_blank" rel="noopener noreferrer">x</a>`);
  });

  it("a WordPress link that opens a new tab is imported as one; search indexes its text only", () => {
    const converted = convertContent(`<p><a href="https://example.com/" target="_blank" rel="noopener">site</a></p>`);
    expect(converted.html).toBe(`<p><a href="https://example.com/" target="_blank" rel="noopener noreferrer">site</a></p>`);
    expect(converted.dropped).toEqual([]);
    expect(htmlToText(converted.html)).toBe("site");
  });
});
