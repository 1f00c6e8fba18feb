/**
 * A formatting-aware comparison of two rich-text values (issue #30 item 9; docs/rich-text-diff.md):
 * what a version history shows instead of flattened text. Pure: it takes the values already parsed
 * into a small neutral tree (`RichNode`; the admin builds it with the browser's DOMParser, tests
 * with parse5), so the same logic runs anywhere and nothing here parses HTML.
 *
 * Each value is read as a sequence of blocks — paragraphs, headings (with their level), list items
 * (bulleted or numbered, with their depth), quotes, code blocks, table cells (table, row and
 * column), captions, images, galleries, embeds, plugin blocks, rules — and each block as words
 * carrying their formatting (bold, italic, code, links with their address and new tab…). Blocks
 * are matched (longest common subsequence), then the unmatched ones of a gap paired where they
 * are the same cell or similar text, and the words of a pair compared: a word inserted, deleted,
 * or kept with other formatting. Every change is also described in words (`notes`), for screen
 * readers and for anyone who does not see colour.
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

/** A piece of a compared block: kept, inserted, deleted, or kept with other formatting. */
export interface Piece {
  op: "same" | "insert" | "delete" | "format";
  text: string;
  /** The formatting the text has (after, or before for a deletion). */
  marks: readonly string[];
  /** For `format`: the formatting it had before. */
  was?: readonly string[];
}

export interface BlockChange {
  status: "same" | "added" | "removed" | "changed";
  /** The block's label (after; before for a removed one). */
  label: string;
  /** The label before, when the block's kind changed ("Heading 2" → "Heading 3"). */
  wasLabel?: string;
  pieces: readonly Piece[];
  /** The changes of this block in words: "Heading 2 became heading 3.", "“tides” made bold." */
  notes: readonly string[];
}

export interface RichTextDiff {
  /** Every block in document order (unchanged ones with status "same"). */
  blocks: readonly BlockChange[];
  /** Whether anything differs (text, formatting or structure). */
  changed: boolean;
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

// ---- comparing ----

const sameMarks = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((m, i) => m === b[i]);
const sameWord = (a: Word, b: Word): boolean => a.text === b.text && sameMarks(a.marks, b.marks);
/** Same kind and words: a block whose place alone changed (a row inserted above) is the same block. */
const sameBlock = (a: Block, b: Block): boolean => a.kind === b.kind && a.words.length === b.words.length && a.words.every((w, i) => sameWord(w, b.words[i] as Word));

/** Past this many cells the LCS is skipped: the middle is shown as deleted then inserted. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Index pairs of a longest common subsequence of `a` and `b` under `equal`, in order. A common
 * prefix and suffix are matched first (the usual edit touches a little of a long value).
 */
export function commonPairs<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): [number, number][] {
  let head = 0;
  while (head < a.length && head < b.length && equal(a[head] as T, b[head] as T)) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && equal(a[a.length - 1 - tail] as T, b[b.length - 1 - tail] as T)) tail += 1;
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i += 1) pairs.push([i, i]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && n * m <= MAX_LCS_CELLS) {
    // lengths[i][j]: LCS of a[head+i…] and b[head+j…], in one flat array.
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        lengths[i * width + j] = equal(a[head + i] as T, b[head + j] as T) ? (lengths[(i + 1) * width + j + 1] as number) + 1 : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
      }
    }
    for (let i = 0, j = 0; i < n && j < m; ) {
      if (equal(a[head + i] as T, b[head + j] as T)) {
        pairs.push([head + i, head + j]);
        i += 1;
        j += 1;
      } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) i += 1;
      else j += 1;
    }
  }
  for (let k = tail; k > 0; k -= 1) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/** Dice similarity of two blocks' words (text only): 1 for the same words, 0 for none shared. */
function similarity(a: Block, b: Block): number {
  const words = (block: Block) => block.words.map((w) => w.text).filter((t) => t !== " ");
  const left = words(a);
  const right = words(b);
  if (left.length === 0 && right.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of left) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of right) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      shared += 1;
      counts.set(w, c - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}

/** Consecutive pieces of one kind and formatting joined. */
function pushPiece(pieces: Piece[], piece: Piece): void {
  const last = pieces[pieces.length - 1];
  if (last && last.op === piece.op && sameMarks(last.marks, piece.marks) && sameMarks(last.was ?? [], piece.was ?? [])) pieces[pieces.length - 1] = { ...last, text: last.text + piece.text };
  else pieces.push(piece);
}

const ADJECTIVES: Readonly<Record<string, string>> = {
  bold: "bold", italic: "italic", underline: "underlined", strikethrough: "struck through", code: "code", subscript: "subscript",
  superscript: "superscript", highlight: "highlighted", "small print": "small print", quotation: "a quotation",
};

const describeMark = (mark: string, on: boolean): string => {
  const what = mark.startsWith("link to ") ? `a ${mark}` : (ADJECTIVES[mark] ?? mark);
  return on ? `now ${what}` : `no longer ${what}`;
};

/** A text quoted for a note: white space collapsed, long text shortened. */
export function quote(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return `“${t.length > 80 ? `${t.slice(0, 77)}…` : t}”`;
}

const textOf = (words: readonly Word[]): string => words.map((w) => w.text).join("");
const lower = (label: string): string => label.charAt(0).toLowerCase() + label.slice(1);

function wholeBlock(block: Block, status: "added" | "removed"): BlockChange {
  const pieces: Piece[] = [];
  for (const w of block.words) pushPiece(pieces, { op: status === "added" ? "insert" : "delete", text: w.text, marks: w.marks });
  const text = textOf(block.words).trim();
  const note = `${status === "added" ? "Added" : "Removed"} ${lower(block.label)}${text ? `: ${quote(text)}` : ""}.`;
  return { status, label: block.label, pieces, notes: [note] };
}

function sameBlockChange(block: Block): BlockChange {
  const pieces: Piece[] = [];
  for (const w of block.words) pushPiece(pieces, { op: "same", text: w.text, marks: w.marks });
  return { status: "same", label: block.label, pieces, notes: [] };
}

/** Two versions of one block: words compared by text, then by formatting; notes in words. */
export function compareBlock(before: Block, after: Block): BlockChange {
  const pairs = commonPairs(before.words, after.words, (x, y) => x.text === y.text);
  const pieces: Piece[] = [];
  let i = 0;
  let j = 0;
  const flush = (untilI: number, untilJ: number) => {
    for (; i < untilI; i += 1) pushPiece(pieces, { op: "delete", text: (before.words[i] as Word).text, marks: (before.words[i] as Word).marks });
    for (; j < untilJ; j += 1) pushPiece(pieces, { op: "insert", text: (after.words[j] as Word).text, marks: (after.words[j] as Word).marks });
  };
  for (const [pi, pj] of pairs) {
    flush(pi, pj);
    const was = before.words[pi] as Word;
    const now = after.words[pj] as Word;
    pushPiece(pieces, sameMarks(was.marks, now.marks) ? { op: "same", text: now.text, marks: now.marks } : { op: "format", text: now.text, marks: now.marks, was: was.marks });
    i = pi + 1;
    j = pj + 1;
  }
  flush(before.words.length, after.words.length);

  const notes: string[] = [];
  if (before.label !== after.label) notes.push(`${before.label} became ${lower(after.label)}.`);
  for (const piece of pieces) {
    if (piece.text.trim() === "") continue;
    if (piece.op === "insert") notes.push(`Inserted ${quote(piece.text)}.`);
    else if (piece.op === "delete") notes.push(`Deleted ${quote(piece.text)}.`);
    else if (piece.op === "format") {
      const was = piece.was ?? [];
      const changes = [...piece.marks.filter((m) => !was.includes(m)).map((m) => describeMark(m, true)), ...was.filter((m) => !piece.marks.includes(m)).map((m) => describeMark(m, false))];
      notes.push(`${quote(piece.text)} ${changes.join(", ")}.`);
    }
  }
  const changed = notes.length > 0;
  return { status: changed ? "changed" : "same", label: after.label, ...(before.label !== after.label ? { wasLabel: before.label } : {}), pieces, notes };
}

/**
 * The blocks of a gap between matched blocks: pairs (the same table cell; similar words; or the
 * same count of blocks of one kind, as a formatting change leaves them) compared, the rest added
 * or removed, in document order.
 */
function compareGap(removed: readonly Block[], added: readonly Block[], out: BlockChange[]): void {
  let next = 0;
  for (const r of removed) {
    let found = -1;
    for (let k = next; k < added.length; k += 1) {
      const a = added[k] as Block;
      if ((r.place !== undefined && r.place === a.place) || (r.place === undefined && a.place === undefined && (similarity(r, a) >= 0.5 || (removed.length === added.length && removed.indexOf(r) === k)))) {
        found = k;
        break;
      }
    }
    if (found === -1) {
      out.push(wholeBlock(r, "removed"));
      continue;
    }
    for (; next < found; next += 1) out.push(wholeBlock(added[next] as Block, "added"));
    out.push(compareBlock(r, added[found] as Block));
    next = found + 1;
  }
  for (; next < added.length; next += 1) out.push(wholeBlock(added[next] as Block, "added"));
}

/** Compares two parsed rich-text values block by block and word by word (see the module's comment). */
export function diffRichText(before: readonly RichNode[], after: readonly RichNode[]): RichTextDiff {
  const a = richBlocks(before);
  const b = richBlocks(after);
  const blocks: BlockChange[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...commonPairs(a, b, sameBlock), [a.length, b.length] as [number, number]]) {
    compareGap(a.slice(i, pi), b.slice(j, pj), blocks);
    if (pj < b.length) blocks.push(sameBlockChange(b[pj] as Block));
    i = pi + 1;
    j = pj + 1;
  }
  return { blocks, changed: blocks.some((block) => block.status !== "same") };
}
