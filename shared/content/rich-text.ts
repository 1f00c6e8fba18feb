/**
 * The rich-text sanitiser: every rich_text value is stored and served as the HTML this returns.
 *
 * The value is parsed by parse5 exactly as a browser parses `body.innerHTML = value` (fragment
 * parsing in a body context, scripting on), so the tricks that rely on a sanitiser and a browser
 * disagreeing about the tree (mXSS through `<noscript>`, `<svg><style>`, comments, unclosed tags)
 * meet the browser's own tree. The tree is then re-serialised from an allow-list (docs/rich-text.md):
 * allowed HTML elements keep their allowed attributes, URLs keep allowed schemes only; elements
 * whose content is code or another document (script, style, template, iframe, object, svg, math…)
 * go with their content; any other element is unwrapped (its children kept); comments go; every
 * text and attribute value is escaped. The output holds no raw-text element and no foreign
 * content, so a browser parses it back into the same tree. Tables, galleries (`figure[data-gallery]`
 * of `img[data-media]`), embeds (`figure[data-embed]`) and plugin blocks (`div[data-block]`,
 * `div[data-block-group]`) are part of the allow-list; the rules that judge them (sizes, origins,
 * registered blocks) are in rich-text-rules.ts.
 */
import { html, parseFragment, type DefaultTreeAdapterTypes } from "parse5";
import { richTextFacts, type RichTextFacts } from "./rich-text-facts";

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

/** A check of one attribute's value: the value to keep (normalised), or undefined to drop it. */
type AttributeRule = (value: string) => string | undefined;

const anyText: AttributeRule = (value) => value;
const oneOf = (...allowed: string[]): AttributeRule => (value) => {
  const lower = value.trim().toLowerCase();
  return allowed.includes(lower) ? lower : undefined;
};
const matching = (form: RegExp): AttributeRule => (value) => (form.test(value) ? value : undefined);

/** URL schemes a link may use; anything else (javascript:, data:, vbscript:, file:…) is dropped. */
export const LINK_SCHEMES: readonly string[] = ["http", "https", "mailto", "tel"];
/** URL schemes an image or a citation may use. */
export const SOURCE_SCHEMES: readonly string[] = ["http", "https"];

/**
 * The URL as a browser reads the attribute (parse5 has already decoded character references):
 * leading and trailing C0 controls and spaces stripped, tabs and newlines removed anywhere. Kept
 * when it is relative (no scheme before the first `/`, `?` or `#`) or its scheme is in `schemes`.
 */
const url = (schemes: readonly string[]): AttributeRule => (value) => {
  // eslint-disable-next-line no-control-regex -- the URL standard strips exactly these.
  const cleaned = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const colon = cleaned.indexOf(":");
  const firstDelimiter = cleaned.search(/[/?#]/);
  if (colon === -1 || (firstDelimiter !== -1 && firstDelimiter < colon)) return cleaned;
  const scheme = cleaned.slice(0, colon).toLowerCase();
  return schemes.includes(scheme) ? cleaned : undefined;
};

/**
 * "Open in a new tab" (docs/rich-text.md, "Links that open a new tab"): a link may carry exactly
 * `target="_blank"`; the sanitiser then writes `rel="noopener noreferrer"` itself, so the page a
 * link opens can neither reach back through `window.opener` nor learn the address it came from.
 * A `rel` as sent is never kept: it is the sanitiser's to write.
 */
export const NEW_TAB = "_blank";
export const NEW_TAB_REL = "noopener noreferrer";

/** Attributes every allowed element may carry. */
const GLOBAL_ATTRIBUTES: Readonly<Record<string, AttributeRule>> = {
  title: anyText,
  lang: matching(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/),
  dir: oneOf("ltr", "rtl", "auto"),
};

const cite = { cite: url(SOURCE_SCHEMES) };
const dimension = matching(/^\d{1,5}$/);
/** An integer in [1, max] written without sign or leading zero. */
const span = (max: number): AttributeRule => (value) => {
  const trimmed = value.trim();
  return /^[1-9]\d{0,3}$/.test(trimmed) && Number(trimmed) <= max ? trimmed : undefined;
};
/** A marker attribute: present or not, its value is always written empty. */
const marker: AttributeRule = () => "";

/** A media library id (what `data-media` names; docs/rich-text.md, "Galleries"). */
export const MEDIA_ID = /^med_[0-9A-Za-z_-]{1,64}$/;
/** A plugin block's public name, `<plugin id>/<block name>`. */
export const BLOCK_NAME = /^[a-z][a-z0-9-]{1,63}\/[a-z][a-z0-9_-]{0,63}$/;

/** An absolute https URL without credentials, written as the URL standard serialises it. */
const httpsUrl: AttributeRule = (value) => {
  const cleaned = url(["https"])(value);
  if (cleaned === undefined) return undefined;
  try {
    const parsed = new URL(cleaned);
    return parsed.protocol === "https:" && parsed.username === "" && parsed.password === "" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
};

/** A block's values: a JSON object, written as JSON.stringify writes it; anything else is kept as sent for the rules to refuse. */
const blockValues: AttributeRule = (value) => {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? JSON.stringify(parsed) : value;
  } catch {
    return value;
  }
};

/** Table cells: bounded spans (a table holds at most 12 columns and 200 rows; rich-text-rules.ts). */
const cell = { colspan: span(12), rowspan: span(200) };

/** Allowed elements (HTML namespace only) and the attributes each may carry beyond the global ones. */
export const ALLOWED_ELEMENTS: Readonly<Record<string, Readonly<Record<string, AttributeRule>>>> = {
  p: {}, br: {}, hr: {}, h1: {}, h2: {}, h3: {}, h4: {}, h5: {}, h6: {},
  blockquote: cite, pre: {}, ul: {}, ol: { start: matching(/^-?\d{1,9}$/) }, li: {}, dl: {}, dt: {}, dd: {},
  figure: { "data-gallery": marker, "data-embed": httpsUrl }, figcaption: {},
  a: { href: url(LINK_SCHEMES), target: oneOf(NEW_TAB) },
  img: { src: url(SOURCE_SCHEMES), alt: anyText, width: dimension, height: dimension, "data-media": matching(MEDIA_ID) },
  table: {}, caption: {}, thead: {}, tbody: {}, tfoot: {}, tr: {},
  th: { ...cell, scope: oneOf("row", "col", "rowgroup", "colgroup") }, td: cell,
  em: {}, strong: {}, b: {}, i: {}, u: {}, s: {}, sub: {}, sup: {}, small: {}, mark: {}, span: {},
  code: {}, kbd: {}, samp: {}, var: {}, abbr: {}, cite: {}, dfn: {}, q: cite,
  del: { ...cite, datetime: anyText }, ins: { ...cite, datetime: anyText }, time: { datetime: anyText },
};

/**
 * A `div` is kept only as a plugin block (`data-block`) or a block group (`data-block-group`);
 * any other `div` is unwrapped like every element not allowed.
 */
const BLOCK_ATTRIBUTES: Readonly<Record<string, AttributeRule>> = {
  "data-block": matching(BLOCK_NAME),
  "data-version": matching(/^[1-9]\d{0,6}$/),
  "data-values": blockValues,
  "data-block-group": marker,
};

/** Attributes whose malformed value the rules refuse rather than let vanish (rich-text-rules.ts). */
const CHECKED_ATTRIBUTES: ReadonlySet<string> = new Set(["data-embed", "data-media", "data-block", "data-version"]);

/** Elements without content or end tag. */
const VOID_ELEMENTS: ReadonlySet<string> = new Set(["br", "hr", "img"]);

/**
 * Elements dropped together with their content: code, styles, other documents, forms' controls,
 * and elements whose content a browser parses as raw text. Anything else not allowed is unwrapped.
 */
const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set([
  "script", "style", "template", "noscript", "noembed", "noframes", "xmp", "plaintext", "iframe", "frame", "frameset",
  "object", "embed", "applet", "param", "textarea", "select", "option", "optgroup", "input", "button", "title",
  "head", "meta", "link", "base", "audio", "video", "source", "track", "canvas", "map", "area", "picture", "portal", "dialog",
]);

/** A body element as the context of fragment parsing: what `body.innerHTML = value` does. */
const BODY_CONTEXT: Element = {
  nodeName: "body",
  tagName: "body",
  attrs: [],
  namespaceURI: html.NS.HTML,
  childNodes: [],
  parentNode: null,
};

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
}

function isElement(node: Node): node is Element {
  return "tagName" in node;
}

/** The rule for `name` held by `rules` itself: `constructor` or `__proto__` must not find Object's. */
function ownRule(rules: Readonly<Record<string, AttributeRule>>, name: string): AttributeRule | undefined {
  return Object.hasOwn(rules, name) ? rules[name] : undefined;
}

/** What a pass left out: markup dropped (for `rich_markup_dropped`) and checked values refused by form. */
interface PassReport {
  dropped: Set<string>;
  rejected: RejectedValue[];
}

/** A checked attribute (`data-embed`, `data-media`, `data-block`, `data-version`) whose value was malformed. */
export interface RejectedValue {
  attribute: string;
  value: string;
}

/** How many distinct dropped markup names a report lists. */
const MAX_DROPPED_NAMES = 50;

function noteDropped(report: PassReport, name: string): void {
  if (report.dropped.size < MAX_DROPPED_NAMES) report.dropped.add(name);
}

/** Whether a link opens a new tab: a kept `target` (only `_blank` is kept) on an `a`. */
function opensNewTab(element: Element): boolean {
  return element.tagName === "a" && element.attrs.some((a) => a.name === "target" && !a.namespace && a.value.trim().toLowerCase() === NEW_TAB);
}

/** A `rel` whose every token the written `rel="noopener noreferrer"` already holds. */
function subsumedRel(value: string): boolean {
  return value.toLowerCase().split(/[\t\n\f\r ]+/).every((token) => token === "" || NEW_TAB_REL.split(" ").includes(token));
}

function serialiseAttributes(element: Element, rules: Readonly<Record<string, AttributeRule>>, report: PassReport): string {
  let out = "";
  const newTab = opensNewTab(element);
  for (const attribute of element.attrs) {
    const name = attribute.namespace !== undefined && attribute.namespace !== "" ? `${attribute.prefix ?? ""}:${attribute.name}` : attribute.name;
    if (element.tagName === "a" && name === "rel") {
      // Written below from `target`. Not reported when what was sent says no more than that
      // (`noopener`, as WordPress writes it); anything else (`opener`, `nofollow`) is left out.
      if (!(newTab && subsumedRel(attribute.value))) noteDropped(report, "a[rel]");
      continue;
    }
    // xlink:href and friends have a namespace: never kept.
    const rule = name === attribute.name ? (ownRule(rules, attribute.name) ?? ownRule(GLOBAL_ATTRIBUTES, attribute.name)) : undefined;
    const kept = rule?.(attribute.value);
    if (kept !== undefined) {
      out += ` ${attribute.name}="${escapeAttribute(kept)}"`;
    } else {
      noteDropped(report, `${element.tagName}[${name}]`);
      if (rule !== undefined && CHECKED_ATTRIBUTES.has(name)) report.rejected.push({ attribute: name, value: attribute.value });
    }
  }
  return newTab ? `${out} rel="${NEW_TAB_REL}"` : out;
}

/** Whether a `div` is a plugin block or a block group (kept) rather than layout (unwrapped). */
function isBlockElement(element: Element): boolean {
  return element.tagName === "div" && element.attrs.some((a) => (a.name === "data-block" || a.name === "data-block-group") && !a.namespace);
}

/**
 * Deepest nesting of kept elements: deeper ones are unwrapped (their text kept). Bounds the output a
 * reader's renderer must walk, as browsers bound their own DOM depth.
 */
export const MAX_DEPTH = 128;

/** Work left while serialising: a node to write (at a depth, first in its parent or not), or an end tag. */
type Step = { node: Node; parent: string | undefined; first: boolean; depth: number } | { close: string };

/**
 * Serialises `nodes` from the allow-list. Iterative, not recursive: a value of 256 KiB can nest
 * tens of thousands of elements, more than the call stack holds.
 */
function serialise(nodes: readonly Node[], report: PassReport): string {
  const out: string[] = [];
  const steps: Step[] = [];
  const pushChildren = (children: readonly Node[], parent: string | undefined, depth: number) => {
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const node = children[i];
      if (node !== undefined) steps.push({ node, parent, first: i === 0, depth });
    }
  };
  pushChildren(nodes, undefined, 0);
  for (let step = steps.pop(); step !== undefined; step = steps.pop()) {
    if ("close" in step) {
      out.push(`</${step.close}>`);
      continue;
    }
    const { node, parent, first, depth } = step;
    if (node.nodeName === "#text" && "value" in node) {
      // A browser drops one newline right after <pre>: keep a leading one by writing it twice.
      out.push((parent === "pre" && first && node.value.startsWith("\n") ? "\n" : "") + escapeText(node.value));
      continue;
    }
    if (!isElement(node)) {
      // comments, doctypes and processing instructions are dropped
      noteDropped(report, node.nodeName);
      continue;
    }
    const name = node.tagName;
    // Foreign content (svg, math and what they hold) goes whole: its parsing rules differ from HTML's.
    if (node.namespaceURI !== html.NS.HTML || DROPPED_WITH_CONTENT.has(name)) {
      noteDropped(report, `<${name}>`);
      continue;
    }
    const rules = isBlockElement(node) ? BLOCK_ATTRIBUTES : Object.hasOwn(ALLOWED_ELEMENTS, name) ? ALLOWED_ELEMENTS[name] : undefined;
    if (rules === undefined || depth >= MAX_DEPTH) {
      noteDropped(report, rules === undefined ? `<${name}>` : `<${name}> nested deeper than ${MAX_DEPTH}`);
      pushChildren(node.childNodes, undefined, depth); // unwrapped: the children take its place
      continue;
    }
    out.push(`<${name}${serialiseAttributes(node, rules, report)}>`);
    if (VOID_ELEMENTS.has(name)) continue;
    steps.push({ close: name });
    pushChildren(node.childNodes, name, depth + 1);
  }
  return out.join("");
}

/** One pass: parse as a browser would, keep the allowed. */
function sanitiseOnce(value: string, report: PassReport): { html: string; nodes: readonly Node[] } {
  const fragment = parseFragment(BODY_CONTEXT, value, { scriptingEnabled: true });
  return { html: serialise(fragment.childNodes, report), nodes: fragment.childNodes };
}

/** Passes enough for any output to be stable (unwrapping can leave, say, a <p> in a <p>). */
const MAX_PASSES = 4;

/** A rich-text value made canonical, with what the rules judge and what was left out. */
export interface SanitisedRichText {
  /** The canonical HTML stored and served. */
  html: string;
  /** Markup left out (`<script>`, `img[onerror]`, `#comment`…), distinct, at most 50. */
  dropped: string[];
  /** Checked attributes refused by form (an embed that is not https, a malformed media id…). */
  rejected: RejectedValue[];
  /** Tables, galleries, embeds and blocks of the canonical HTML (rich-text-facts.ts). */
  facts: RichTextFacts;
}

/**
 * Sanitises `value` to its canonical form and reports what the content rules judge: the structure of
 * the canonical HTML (read from the tree of the stable pass, so no extra parse) and what was dropped.
 */
export function sanitiseRichText(value: string): SanitisedRichText {
  const report: PassReport = { dropped: new Set(), rejected: [] };
  let current = value;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const next = sanitiseOnce(current, report);
    if (next.html === current) return { html: current, dropped: [...report.dropped], rejected: report.rejected, facts: richTextFacts(next.nodes) };
    current = next.html;
  }
  const last = parseFragment(BODY_CONTEXT, current, { scriptingEnabled: true });
  return { html: current, dropped: [...report.dropped], rejected: report.rejected, facts: richTextFacts(last.childNodes) };
}

/**
 * The canonical form of a rich-text value: safe to insert into any page as HTML, and stable (the
 * canonical form of a canonical value is itself). Costs one parse when the value is already canonical.
 */
export function canonicalRichText(value: string): string {
  const report: PassReport = { dropped: new Set(), rejected: [] };
  let current = value;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const next = sanitiseOnce(current, report).html;
    if (next === current) return next;
    current = next;
  }
  return current;
}
