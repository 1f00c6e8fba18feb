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
 * content, so a browser parses it back into the same tree.
 */
import { html, parseFragment, type DefaultTreeAdapterTypes } from "parse5";

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

/** Attributes every allowed element may carry. */
const GLOBAL_ATTRIBUTES: Readonly<Record<string, AttributeRule>> = {
  title: anyText,
  lang: matching(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/),
  dir: oneOf("ltr", "rtl", "auto"),
};

const cite = { cite: url(SOURCE_SCHEMES) };
const dimension = matching(/^\d{1,5}$/);

/** Allowed elements (HTML namespace only) and the attributes each may carry beyond the global ones. */
export const ALLOWED_ELEMENTS: Readonly<Record<string, Readonly<Record<string, AttributeRule>>>> = {
  p: {}, br: {}, hr: {}, h1: {}, h2: {}, h3: {}, h4: {}, h5: {}, h6: {},
  blockquote: cite, pre: {}, ul: {}, ol: { start: matching(/^-?\d{1,9}$/) }, li: {}, dl: {}, dt: {}, dd: {},
  figure: {}, figcaption: {},
  a: { href: url(LINK_SCHEMES) },
  img: { src: url(SOURCE_SCHEMES), alt: anyText, width: dimension, height: dimension },
  em: {}, strong: {}, b: {}, i: {}, u: {}, s: {}, sub: {}, sup: {}, small: {}, mark: {}, span: {},
  code: {}, kbd: {}, samp: {}, var: {}, abbr: {}, cite: {}, dfn: {}, q: cite,
  del: { ...cite, datetime: anyText }, ins: { ...cite, datetime: anyText }, time: { datetime: anyText },
};

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

function serialiseAttributes(element: Element, rules: Readonly<Record<string, AttributeRule>>): string {
  let out = "";
  for (const attribute of element.attrs) {
    if (attribute.namespace !== undefined && attribute.namespace !== "") continue; // xlink:href and friends
    const rule = ownRule(rules, attribute.name) ?? ownRule(GLOBAL_ATTRIBUTES, attribute.name);
    const kept = rule?.(attribute.value);
    if (kept !== undefined) out += ` ${attribute.name}="${escapeAttribute(kept)}"`;
  }
  return out;
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
function serialise(nodes: readonly Node[]): string {
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
    if (!isElement(node)) continue; // comments, doctypes and processing instructions are dropped
    const name = node.tagName;
    // Foreign content (svg, math and what they hold) goes whole: its parsing rules differ from HTML's.
    if (node.namespaceURI !== html.NS.HTML || DROPPED_WITH_CONTENT.has(name)) continue;
    const rules = Object.hasOwn(ALLOWED_ELEMENTS, name) ? ALLOWED_ELEMENTS[name] : undefined;
    if (rules === undefined || depth >= MAX_DEPTH) {
      pushChildren(node.childNodes, undefined, depth); // unwrapped: the children take its place
      continue;
    }
    out.push(`<${name}${serialiseAttributes(node, rules)}>`);
    if (VOID_ELEMENTS.has(name)) continue;
    steps.push({ close: name });
    pushChildren(node.childNodes, name, depth + 1);
  }
  return out.join("");
}

/** One pass: parse as a browser would, keep the allowed. */
function sanitiseOnce(value: string): string {
  const fragment = parseFragment(BODY_CONTEXT, value, { scriptingEnabled: true });
  return serialise(fragment.childNodes);
}

/** Passes enough for any output to be stable (unwrapping can leave, say, a <p> in a <p>). */
const MAX_PASSES = 4;

/**
 * The canonical form of a rich-text value: safe to insert into any page as HTML, and stable (the
 * canonical form of a canonical value is itself). Costs one parse when the value is already canonical.
 */
export function canonicalRichText(value: string): string {
  let current = value;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const next = sanitiseOnce(current);
    if (next === current) return next;
    current = next;
  }
  return current;
}
