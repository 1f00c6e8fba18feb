import { commonPairs } from "./common-pairs";
import { richBlocks, type Block, type RichNode, type Word } from "./rich-text-blocks";
import { describeMark, lower, quote, textOf } from "./rich-text-notes";

/**
 * A formatting-aware comparison of two rich-text values (issue #30 item 9; docs/rich-text-diff.md):
 * what a version history shows instead of flattened text. Each value is read as blocks of
 * formatted words (rich-text-blocks.ts); blocks are matched (longest common subsequence,
 * common-pairs.ts), then the unmatched ones of a gap paired where they are the same cell or
 * similar text, and the words of a pair compared: a word inserted, deleted, or kept with other
 * formatting. Every change is also described in words (`notes`, rich-text-notes.ts), for screen
 * readers and for anyone who does not see colour.
 */

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

const sameMarks = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((m, i) => m === b[i]);
const sameWord = (a: Word, b: Word): boolean => a.text === b.text && sameMarks(a.marks, b.marks);
/** Same kind and words: a block whose place alone changed (a row inserted above) is the same block. */
const sameBlock = (a: Block, b: Block): boolean => a.kind === b.kind && a.words.length === b.words.length && a.words.every((w, i) => sameWord(w, b.words[i] as Word));

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
