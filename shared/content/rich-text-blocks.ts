/**
 * A rich-text value read as blocks of formatted words (issue #30 item 9; docs/rich-text-diff.md):
 * the first half of the version comparison (rich-text-diff.ts). Pure: it takes the value already
 * parsed into a small neutral tree (`RichNode`; the admin builds it with the browser's DOMParser,
 * tests with parse5), so the same reading runs anywhere and nothing here parses HTML.
 *
 * Each value is read as a sequence of blocks — paragraphs, headings (with their level), list items
 * (bulleted or numbered, with their depth), quotes, code blocks, table cells (table, row and
 * column), captions, images, galleries, embeds, plugin blocks, rules — and each block as words
 * carrying their formatting (bold, italic, code, links with their address and new tab…).
 */

/** A parsed rich-text value: elements (lower-case tag, attributes) and text. */
export type RichNode = { kind: "text"; text: string } | { kind: "element"; tag: string; attrs: Readonly<Record<string, string>>; children: readonly RichNode[] };

/** A word or a run of white space with the formatting it carries (sorted names: "bold", "link to /a"…). */
export interface Word {
  text: string;
  marks: readonly string[];
}

/** One block of a value: what it is (in words), where it is (for pairing), and its words. */
export interface Block {
  /** "Paragraph", "Heading 2", "Bulleted list item", "Table 1, row 2, column 3"… */
  label: string;
  /** Kind without position ("heading 2", "bulleted list item, level 1", "table cell"…): a change of it is a change of structure. */
  kind: string;
  /** A table cell's place ("1:2:3"), used to pair a cell with itself; otherwise undefined. */
  place?: string;
  words: readonly Word[];
}

/** How inline elements read as formatting; elements not named carry none (span, abbr…). */
const INLINE_MARKS: Readonly<Record<string, string>> = {
  strong: "bold", b: "bold", em: "italic", i: "italic", u: "underline", s: "strikethrough", del: "strikethrough",
  ins: "underline", code: "code", kbd: "code", samp: "code", var: "italic", sub: "subscript", sup: "superscript",
  mark: "highlight", small: "small print", q: "quotation", cite: "italic", dfn: "italic",
};

/** Elements whose inline content is one block, and how they read. */
const TEXT_BLOCKS: Readonly<Record<string, string>> = {
  p: "Paragraph", pre: "Code block", dt: "Term", dd: "Description", figcaption: "Caption", caption: "Table caption",
  h1: "Heading 1", h2: "Heading 2", h3: "Heading 3", h4: "Heading 4", h5: "Heading 5", h6: "Heading 6",
};

/** Containers: walked into (their own text, if any, is a paragraph). */
const CONTAINERS: ReadonlySet<string> = new Set(["ul", "ol", "blockquote", "table", "thead", "tbody", "tfoot", "tr", "dl", "figure", "div"]);

interface Context {
  lists: ("bulleted" | "numbered")[];
  quote: boolean;
  table?: { index: number; row: number };
}

type Element = Extract<RichNode, { kind: "element" }>;

const linkMark = (attrs: Readonly<Record<string, string>>): string =>
  `link to ${attrs.href ?? "nowhere"}${(attrs.target ?? "").toLowerCase() === "_blank" ? " (opens in a new tab)" : ""}`;

const attr = (node: RichNode, name: string): string | undefined => (node.kind === "element" ? node.attrs[name] : undefined);

/**
 * Words: letters and digits, joined through inner punctuation ("06:12", "don't", "a-b"); each other
 * punctuation mark alone, so "chart." and a linked "chart" followed by "." compare as the same word.
 */
const TOKENS = /\s+|[\p{L}\p{N}\p{M}]+(?:[:.,'’\-/][\p{L}\p{N}\p{M}]+)*|[^\s\p{L}\p{N}\p{M}]/gu;

/** Text split into words, punctuation and single spaces (white space collapsed). */
function split(text: string, marks: readonly string[], into: Word[]): void {
  for (const [part] of text.matchAll(TOKENS)) into.push({ text: /^\s/.test(part) ? " " : part, marks });
}

/** The value's blocks in document order. */
export function richBlocks(nodes: readonly RichNode[]): Block[] {
  const blocks: Block[] = [];
  let tables = 0;
  let loose: Word[] = [];
  const flushLoose = (context: Context) => {
    if (loose.some((w) => w.text.trim() !== "")) blocks.push({ label: context.quote ? "Quoted paragraph" : "Paragraph", kind: context.quote ? "quoted paragraph" : "paragraph", words: trim(loose) });
    loose = [];
  };

  /** Inline content of a text block: words with their marks; images as words. */
  const inline = (children: readonly RichNode[], marks: readonly string[], into: Word[]): void => {
    for (const child of children) {
      if (child.kind === "text") split(child.text, marks, into);
      else if (child.tag === "br") into.push({ text: " ", marks });
      else if (child.tag === "img") into.push({ text: imageWord(child), marks });
      else {
        const mark = child.tag === "a" ? linkMark(child.attrs) : INLINE_MARKS[child.tag];
        inline(child.children, mark === undefined || marks.includes(mark) ? marks : [...marks, mark].sort(), into);
      }
    }
  };

  const walk = (children: readonly RichNode[], context: Context): void => {
    for (const node of children) {
      if (node.kind === "text" || !(isBlockTag(node.tag) || node.tag === "img")) {
        // Inline content outside any text block (a value written without <p>, a list item's text).
        if (node.kind === "text") split(node.text, [], loose);
        else inline([node], [], loose);
        continue;
      }
      flushLoose(context);
      const tag = node.tag;
      const text = TEXT_BLOCKS[tag];
      if (text !== undefined) {
        const words: Word[] = [];
        inline(node.children, [], words);
        const quoted = context.quote && tag === "p";
        blocks.push({ label: quoted ? "Quoted paragraph" : text, kind: quoted ? "quoted paragraph" : text.toLowerCase(), words: tag === "pre" ? words : trim(words) });
      } else if (tag === "li") {
        const list = context.lists[context.lists.length - 1] ?? "bulleted";
        const depth = context.lists.length;
        const label = `${list === "numbered" ? "Numbered" : "Bulleted"} list item${depth > 1 ? `, level ${depth}` : ""}`;
        const start = blocks.length;
        walkItem(node.children, context, label);
        if (blocks.length === start) blocks.push({ label, kind: label.toLowerCase(), words: [] });
      } else if (tag === "hr") {
        blocks.push({ label: "Horizontal rule", kind: "horizontal rule", words: [] });
      } else if (tag === "img") {
        blocks.push({ label: "Image", kind: "image", words: [{ text: imageWord(node), marks: [] }] });
      } else if (tag === "figure" && attr(node, "data-embed") !== undefined) {
        blocks.push({ label: "Embed", kind: "embed", words: [{ text: attr(node, "data-embed") ?? "", marks: [] }] });
        walk(node.children.filter((c) => c.kind === "element" && c.tag === "figcaption"), context);
      } else if (tag === "figure" && attr(node, "data-gallery") !== undefined) {
        const images = node.children.filter((c): c is Element => c.kind === "element" && c.tag === "img").map(imageWord);
        blocks.push({ label: `Gallery of ${images.length} images`, kind: "gallery", words: joinWords(images) });
        walk(node.children.filter((c) => c.kind === "element" && c.tag === "figcaption"), context);
      } else if (tag === "div" && attr(node, "data-block") !== undefined) {
        blocks.push({ label: `Block ${attr(node, "data-block") ?? ""}`, kind: "plugin block", words: joinWords([attr(node, "data-values") ?? ""]) });
      } else if (tag === "table") {
        tables += 1;
        walkTable(node, { ...context, table: { index: tables, row: 0 } });
      } else {
        walk(node.children, {
          ...context,
          lists: tag === "ul" || tag === "ol" ? [...context.lists, tag === "ol" ? "numbered" : "bulleted"] : context.lists,
          quote: context.quote || tag === "blockquote",
        });
      }
    }
    flushLoose(context);
  };

  /** A list item: its own text is one block labelled as the item; nested lists follow. */
  const walkItem = (children: readonly RichNode[], context: Context, label: string): void => {
    const own: Word[] = [];
    let first = true;
    const emitOwn = () => {
      if (own.some((w) => w.text.trim() !== "") || first) blocks.push({ label, kind: label.toLowerCase(), words: trim(own) });
      own.length = 0;
      first = false;
    };
    for (const child of children) {
      if (child.kind === "element" && child.tag === "p" && first) {
        inline(child.children, [], own);
        emitOwn();
      } else if (child.kind === "element" && isBlockTag(child.tag)) {
        if (own.length > 0 || first) emitOwn();
        walk([child], context);
      } else inline([child], [], own);
    }
    if (own.length > 0 || first) emitOwn();
  };

  /** Rows in order (sections in document order), each row's number counted across sections. */
  const walkTable = (table: Element, context: Context): void => {
    const state = context.table ?? { index: 0, row: 0 };
    for (const child of table.children) {
      if (child.kind !== "element") continue;
      if (child.tag === "caption") walk([child], context);
      else if (child.tag === "tr") {
        state.row += 1;
        let column = 1;
        for (const cell of child.children) {
          if (cell.kind !== "element" || (cell.tag !== "td" && cell.tag !== "th")) continue;
          const header = cell.tag === "th";
          const words: Word[] = [];
          inline(flattenCell(cell.children), [], words);
          blocks.push({ label: `Table ${state.index}, row ${state.row}, column ${column}${header ? " (header)" : ""}`, kind: header ? "table header cell" : "table cell", place: `${state.index}:${state.row}:${column}`, words: trim(words) });
          column += Math.max(1, Number.parseInt(cell.attrs.colspan ?? "1", 10) || 1);
        }
      } else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") walkTable(child, { ...context, table: state });
    }
  };

  walk(nodes, { lists: [], quote: false });
  return blocks;
}

function isBlockTag(tag: string): boolean {
  return TEXT_BLOCKS[tag] !== undefined || CONTAINERS.has(tag) || ["li", "hr"].includes(tag);
}

/** A cell's content as inline content: paragraphs inside a cell separated by a space. */
function flattenCell(children: readonly RichNode[]): RichNode[] {
  const out: RichNode[] = [];
  for (const child of children) {
    if (child.kind === "element" && isBlockTag(child.tag)) {
      if (out.length > 0) out.push({ kind: "text", text: " " });
      out.push(...flattenCell(child.children));
    } else out.push(child);
  }
  return out;
}

function imageWord(image: RichNode): string {
  const alt = attr(image, "alt");
  return `[image${alt ? `: ${alt}` : ""}${attr(image, "data-media") ? ` (${attr(image, "data-media")})` : attr(image, "src") ? ` (${attr(image, "src")})` : ""}]`;
}

function joinWords(parts: readonly string[]): Word[] {
  const words: Word[] = [];
  parts.forEach((part, i) => {
    if (i > 0) words.push({ text: " ", marks: [] });
    words.push({ text: part, marks: [] });
  });
  return words;
}

/** Leading and trailing spaces of a block go: they are not content. */
function trim(words: readonly Word[]): Word[] {
  let start = 0;
  let end = words.length;
  while (start < end && words[start]?.text === " ") start += 1;
  while (end > start && words[end - 1]?.text === " ") end -= 1;
  return words.slice(start, end);
}
