/**
 * A small XML reader for WordPress export files (WXR), safe by construction (docs/imports.md,
 * "Reading WXR safely"): no DTD is ever processed — a document type declaration is refused
 * (`entity_declaration` when it declares entities, the billion-laughs bomb; `external_entity` when
 * it names a SYSTEM or PUBLIC identifier; `doctype` otherwise) — so no entity can expand and no
 * external resource is fetched. Only the five predefined entities and character references are
 * decoded; any other reference is `undefined_entity`. Iterative (no recursion), nesting at most
 * {@link MAX_DEPTH}, so hostile nesting costs linear time and no stack.
 *
 * It reads the children of `<channel>` one complete element at a time, so a parse step can stop at
 * the last complete element of the bytes it read and the next step continue from there.
 */

export type XmlRefusal = "entity_declaration" | "external_entity" | "doctype" | "undefined_entity" | "malformed" | "truncated" | "invalid_utf8" | "too_deep" | "not_wxr";

export class XmlError extends Error {
  constructor(
    readonly reason: XmlRefusal,
    message: string,
    readonly at?: number,
  ) {
    super(message);
  }
}

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
}

export const MAX_DEPTH = 64;

const NAME = /[A-Za-z_][-A-Za-z0-9_.:]*/y;
const SPACE = /[ \t\r\n]*/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the predefined entities and character references of a text or attribute value. */
export function decodeEntities(raw: string, at = 0): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&([^;&\s<]{0,40});?/g, (whole, name: string) => {
    if (!whole.endsWith(";")) throw new XmlError("malformed", "An '&' that starts no reference.", at);
    if (name.startsWith("#")) {
      const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      const valid = Number.isSafeInteger(code) && (code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff));
      if (!valid || !/^#(x[0-9A-Fa-f]+|[0-9]+)$/.test(name)) throw new XmlError("malformed", `Character reference &${name}; is not an XML character.`, at);
      return String.fromCodePoint(code);
    }
    const value = PREDEFINED[name];
    if (value === undefined) throw new XmlError("undefined_entity", `Entity &${name}; is not defined (DTDs are not read).`, at);
    return value;
  });
}

function skipSpace(text: string, i: number): number {
  SPACE.lastIndex = i;
  SPACE.exec(text);
  return SPACE.lastIndex;
}

/** Reads a start tag at `i` (text[i] === '<'): name, attributes, whether it closes itself, where it ends; null if the text ends inside it. */
function startTag(text: string, i: number): { name: string; attrs: Record<string, string>; selfClosing: boolean; end: number } | null {
  NAME.lastIndex = i + 1;
  const name = NAME.exec(text)?.[0];
  if (!name) throw new XmlError("malformed", "A '<' that starts no element.", i);
  let j = i + 1 + name.length;
  const attrs: Record<string, string> = {};
  for (;;) {
    j = skipSpace(text, j);
    if (j >= text.length) return null;
    const c = text[j];
    if (c === ">") return { name, attrs, selfClosing: false, end: j + 1 };
    if (c === "/") {
      if (j + 1 >= text.length) return null;
      if (text[j + 1] !== ">") throw new XmlError("malformed", "A '/' inside a tag.", j);
      return { name, attrs, selfClosing: true, end: j + 2 };
    }
    NAME.lastIndex = j;
    const attr = NAME.exec(text)?.[0];
    if (!attr) throw new XmlError("malformed", `An attribute of <${name}> has no name.`, j);
    j = skipSpace(text, j + attr.length);
    if (j >= text.length) return null;
    if (text[j] !== "=") throw new XmlError("malformed", `Attribute ${attr} has no value.`, j);
    j = skipSpace(text, j + 1);
    if (j >= text.length) return null;
    const quote = text[j];
    if (quote !== '"' && quote !== "'") throw new XmlError("malformed", `Attribute ${attr} is not quoted.`, j);
    const close = text.indexOf(quote, j + 1);
    if (close < 0) return null;
    const raw = text.slice(j + 1, close);
    if (raw.includes("<")) throw new XmlError("malformed", "A '<' inside an attribute value.", j);
    if (Object.hasOwn(attrs, attr)) throw new XmlError("malformed", `Attribute ${attr} is repeated.`, j);
    attrs[attr] = decodeEntities(raw, j);
    j = close + 1;
  }
}

/** Where a comment, processing instruction or CDATA section at `i` ends, or -1 when the text ends first. */
function skipMarkup(text: string, i: number, open: string, close: string): number {
  const end = text.indexOf(close, i + open.length);
  return end < 0 ? -1 : end + close.length;
}

/**
 * Reads one whole element starting at `i` (text[i] === '<'). Answers null when the text ends before
 * the element does (read more bytes, or the file is truncated).
 */
export function readElement(text: string, i: number): { element: XmlElement; end: number } | null {
  const first = startTag(text, i);
  if (!first) return null;
  const root: XmlElement = { name: first.name, attrs: first.attrs, children: [] };
  if (first.selfClosing) return { element: root, end: first.end };
  const stack: XmlElement[] = [root];
  let j = first.end;
  let textStart = j;
  const flushText = (upTo: number) => {
    if (upTo > textStart) {
      const raw = text.slice(textStart, upTo);
      if (raw.includes("]]>")) throw new XmlError("malformed", "']]>' outside a CDATA section.", textStart);
      stack[stack.length - 1]?.children.push(decodeEntities(raw, textStart));
    }
  };
  for (;;) {
    const lt = text.indexOf("<", j);
    if (lt < 0) return null;
    flushText(lt);
    const top = stack[stack.length - 1] as XmlElement;
    if (text.startsWith("<![CDATA[", lt)) {
      const end = skipMarkup(text, lt, "<![CDATA[", "]]>");
      if (end < 0) return null;
      top.children.push(text.slice(lt + 9, end - 3));
      j = textStart = end;
    } else if (text.startsWith("<!--", lt)) {
      const end = skipMarkup(text, lt, "<!--", "-->");
      if (end < 0) return null;
      j = textStart = end;
    } else if (text.startsWith("<?", lt)) {
      const end = skipMarkup(text, lt, "<?", "?>");
      if (end < 0) return null;
      j = textStart = end;
    } else if (text.startsWith("<!", lt)) {
      if (text.startsWith("<!DOCTYPE", lt) || text.startsWith("<!ENTITY", lt)) throw new XmlError("entity_declaration", "A declaration inside the document.", lt);
      throw new XmlError("malformed", "Unknown markup declaration.", lt);
    } else if (text[lt + 1] === "/") {
      const close = text.indexOf(">", lt);
      if (close < 0) return null;
      const name = text.slice(lt + 2, close).trim();
      if (name !== top.name) throw new XmlError("malformed", `</${name}> closes <${top.name}>.`, lt);
      stack.pop();
      j = textStart = close + 1;
      if (stack.length === 0) return { element: root, end: j };
    } else {
      const tag = startTag(text, lt);
      if (!tag) return null;
      const child: XmlElement = { name: tag.name, attrs: tag.attrs, children: [] };
      top.children.push(child);
      if (!tag.selfClosing) {
        if (stack.length >= MAX_DEPTH) throw new XmlError("too_deep", `Elements nest deeper than ${MAX_DEPTH} levels.`, lt);
        stack.push(child);
      }
      j = textStart = tag.end;
    }
  }
}

/**
 * Skips what may stand between elements (white space, comments, processing instructions): the index
 * of the next '<' that starts an element or end tag; -1 when the text ends first; throws on text.
 */
export function nextTag(text: string, i: number): number {
  let j = i;
  for (;;) {
    j = skipSpace(text, j);
    if (j >= text.length) return -1;
    if (text[j] !== "<") throw new XmlError("malformed", "Text where an element was expected.", j);
    if (text.startsWith("<!--", j)) {
      const end = skipMarkup(text, j, "<!--", "-->");
      if (end < 0) return -1;
      j = end;
    } else if (text.startsWith("<?", j)) {
      const end = skipMarkup(text, j, "<?", "?>");
      if (end < 0) return -1;
      j = end;
    } else return j;
  }
}

/**
 * Reads the start of a WXR file up to the inside of `<channel>`: the XML declaration, comments, the
 * refusal of any document type declaration, `<rss>` with its namespace declarations, `<channel>`.
 * Answers the index where the channel's children begin, or null when the text ends before.
 */
export function readPrologue(text: string): { channelAt: number; namespaces: Record<string, string> } | null {
  let j = text.startsWith("\uFEFF") ? 1 : 0;
  for (;;) {
    j = skipSpace(text, j);
    if (j >= text.length) return null;
    if (text.startsWith("<?", j) || text.startsWith("<!--", j)) {
      const end = text.startsWith("<?", j) ? skipMarkup(text, j, "<?", "?>") : skipMarkup(text, j, "<!--", "-->");
      if (end < 0) return null;
      j = end;
      continue;
    }
    if (text.startsWith("<!DOCTYPE", j) || text.startsWith("<!doctype", j)) {
      const head = text.slice(j, j + 64 * 1024);
      if (/\b(SYSTEM|PUBLIC)\b/.test(head)) throw new XmlError("external_entity", "The file names an external entity or document type (external resources are never read).", j);
      if (/<!ENTITY/i.test(head)) throw new XmlError("entity_declaration", "The file declares entities in a document type declaration (entity expansion is refused).", j);
      throw new XmlError("doctype", "A WordPress export has no document type declaration; this one is refused.", j);
    }
    break;
  }
  const rss = startTag(text, j);
  if (!rss) return null;
  if (rss.name !== "rss" || rss.selfClosing) throw new XmlError("not_wxr", "The file is not a WordPress export (no <rss> root).", j);
  const namespaces: Record<string, string> = {};
  for (const [name, value] of Object.entries(rss.attrs)) if (name.startsWith("xmlns:")) namespaces[name.slice(6)] = value;
  const at = nextTag(text, rss.end);
  if (at < 0) return null;
  const channel = startTag(text, at);
  if (!channel) return null;
  if (channel.name !== "channel" || channel.selfClosing) throw new XmlError("not_wxr", "The file is not a WordPress export (no <channel>).", at);
  return { channelAt: channel.end, namespaces };
}

/** The text content of an element (its text and CDATA children, joined). */
export function textOf(element: XmlElement | undefined): string {
  if (!element) return "";
  let out = "";
  for (const child of element.children) out += typeof child === "string" ? child : textOf(child);
  return out;
}

/** The first child element named `name`. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  for (const c of element.children) if (typeof c !== "string" && c.name === name) return c;
  return undefined;
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== "string" && c.name === name);
}
