import type { CompiledQuery } from "kysely";
import { commit } from "../../../db/batch";
import { findingStatements } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { statement } from "../statements";
import { mayBeArchive, unpackArchiveStep } from "./archive-step";
import { keepOversizeOut } from "./oversize-items";
import { canonicalise, canonicalPrefixes, stagedItem, type StagedItem } from "./wxr-items";
import { nextTag, readElement, readPrologue, XmlError } from "./xml";

/**
 * The bytes one parse step reads from the file, at first (docs/imports.md, "Steps"): measured on the
 * loaded 2-core test machine, 1 MiB of WXR parses and stages in well under a second of CPU. A single
 * element larger than this doubles the read, up to {@link PARSE_MAX_ELEMENT_BYTES}.
 */
export const PARSE_STEP_BYTES = 1024 * 1024;
export const PARSE_MAX_ELEMENT_BYTES = 16 * 1024 * 1024;
/** Items staged per parse step at most (one D1 batch of inserts). */
export const PARSE_STEP_ITEMS = 200;
/** The start of the file read again by later steps, for its namespace declarations. */
const PROLOGUE_BYTES = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * Bytes from `offset`, cut after the last '>' unless they reach the end of the file, decoded as
 * strict UTF-8 ('>' is ASCII, so the cut never splits a character).
 */
async function readText(files: R2Bucket, key: string, offset: number, length: number, size: number): Promise<{ text: string; atEnd: boolean }> {
  const object = await files.get(key, { range: { offset, length: Math.min(length, size - offset) } });
  if (!object) throw new XmlError("truncated", "The import file is gone.");
  let bytes = new Uint8Array(await object.arrayBuffer());
  const atEnd = offset + bytes.length >= size;
  if (!atEnd) {
    const cut = bytes.lastIndexOf(0x3e);
    bytes = bytes.subarray(0, cut + 1);
  }
  try {
    return { text: utf8.decode(bytes), atEnd };
  } catch {
    throw new XmlError("invalid_utf8", "The file is not valid UTF-8.", offset + firstInvalidUtf8(bytes));
  }
}

/**
 * Index of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no overlong
 * forms, no surrogates, nothing past U+10FFFF), so the finding's `at` names the byte to look at.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte → sequence length and the allowed range of the second byte (Unicode Table 3-7).
    const [n, lo, hi] = b >= 0xc2 && b <= 0xdf ? [2, 0x80, 0xbf] : b === 0xe0 ? [3, 0xa0, 0xbf] : b === 0xed ? [3, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [3, 0x80, 0xbf] : b === 0xf0 ? [4, 0x90, 0xbf] : b === 0xf4 ? [4, 0x80, 0x8f] : b >= 0xf1 && b <= 0xf3 ? [4, 0x80, 0xbf] : [0, 0, 0];
    if (n === 0 || i + n > bytes.length) return i;
    const second = bytes[i + 1] ?? 0;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < n; k++) {
      const c = bytes[i + k] ?? 0;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += n;
  }
  return bytes.length;
}

async function namespacesOf(ctx: StepContext, job: ImportJobRow, size: number): Promise<Record<string, string>> {
  const { text } = await readText(ctx.files, job.object_key, 0, PROLOGUE_BYTES, size);
  const prologue = readPrologue(text);
  if (!prologue) throw new XmlError("truncated", "The file ends inside its <rss> or <channel> tag.");
  return canonicalPrefixes(prologue.namespaces);
}

interface ParseResult {
  items: StagedItem[];
  /** Bytes of the file consumed so far. */
  offset: number;
  finished: boolean;
}

/** Reads the next complete children of `<channel>` after the job's offset (see the constants above). */
async function parseChunk(ctx: StepContext, job: ImportJobRow): Promise<ParseResult> {
  const size = job.file_bytes ?? 0;
  let length = PARSE_STEP_BYTES;
  for (;;) {
    const { text, atEnd } = await readText(ctx.files, job.object_key, job.parse_offset, length, size);
    let i = 0;
    let prefixes: Record<string, string>;
    if (job.parse_offset === 0) {
      const prologue = readPrologue(text);
      if (!prologue) {
        if (atEnd) throw new XmlError("truncated", "The file ends before its <channel>.");
        length *= 2;
        continue;
      }
      prefixes = canonicalPrefixes(prologue.namespaces);
      i = prologue.channelAt;
    } else {
      prefixes = await namespacesOf(ctx, job, size);
    }
    const items: StagedItem[] = [];
    let consumed = i;
    let finished = false;
    while (items.length < PARSE_STEP_ITEMS) {
      const at = nextTag(text, consumed);
      if (at < 0) break;
      if (text.startsWith("</channel", at)) {
        const close = text.indexOf(">", at);
        const rssAt = close < 0 ? -1 : nextTag(text, close + 1);
        const rssEnd = rssAt < 0 ? -1 : text.indexOf(">", rssAt);
        if (rssAt < 0 || rssEnd < 0) break;
        if (!text.startsWith("</rss", rssAt)) throw new XmlError("malformed", "</channel> is not followed by </rss>.", rssAt);
        const rest = nextTag(text, rssEnd + 1);
        if (rest >= 0) throw new XmlError("malformed", "Content after </rss>.", rest);
        consumed = text.length;
        finished = true;
        break;
      }
      const read = readElement(text, at);
      if (!read) break;
      const item = stagedItem(canonicalise(read.element, prefixes));
      if (item) items.push(item);
      consumed = read.end;
    }
    if (!finished && items.length === 0 && consumed === i) {
      if (atEnd) throw new XmlError("truncated", "The file ends inside an element: it was cut short.");
      if (length >= PARSE_MAX_ELEMENT_BYTES) throw new XmlError("malformed", `One element is larger than ${PARSE_MAX_ELEMENT_BYTES} bytes.`);
      length *= 2;
      continue;
    }
    if (!finished && atEnd && consumed >= text.length) throw new XmlError("truncated", "The file ends before </channel></rss>: it was cut short.");
    return { items, offset: job.parse_offset + encoder.encode(text.slice(0, consumed)).length, finished };
  }
}

/**
 * One parse step: stage what the next bytes hold, move the job (to `review` after the last
 * element). A refused file fails the job with one `import_file_invalid` finding and its staged
 * items deleted: nothing of it was written to the site's content, nothing of it is kept.
 */
export async function wordpressParseStep(ctx: StepContext, job: ImportJobRow): Promise<ImportJobRow> {
  // A ZIP upload: the first step unpacks its WXR file (and indexes its attachments), the next parse it.
  if (mayBeArchive(job)) {
    const unpacked = await unpackArchiveStep(ctx, job);
    if (unpacked) return unpacked;
  }
  let result: ParseResult;
  try {
    result = await parseChunk(ctx, job);
  } catch (error) {
    if (!(error instanceof XmlError)) throw error;
    const failure = { code: "import_file_invalid", message: error.message };
    const set = { state: "failed" as const, failure: JSON.stringify({ ...failure, reason: error.reason }), findings_count: job.findings_count + 1, items_total: 0 };
    await commit(ctx.d1, [
      statement("DELETE FROM import_items WHERE site_id = ? AND job_id = ?", [ctx.site.id, job.id]),
      ...findingStatements(ctx, job.id, job.findings_count, [{ item_seq: null, code: "import_file_invalid", message: error.message, details: { reason: error.reason, ...(error.at !== undefined ? { at: error.at } : {}) } }]),
      ...moveJob(ctx, job, set),
    ]);
    return movedJob(ctx, job, set);
  }
  const { items, findings } = keepOversizeOut(result.items, job.items_total + 1);
  const staged: CompiledQuery[] = items.map((item, n) =>
    statement("INSERT INTO import_items (job_id, seq, site_id, kind, source_key, payload) VALUES (?, ?, ?, ?, ?, ?)", [
      job.id,
      job.items_total + n + 1,
      ctx.site.id,
      item.kind,
      item.source_key,
      item.payload,
    ]),
  );
  const set = { state: result.finished ? ("review" as const) : ("parsing" as const), parse_offset: result.offset, items_total: job.items_total + items.length, findings_count: job.findings_count + findings.length };
  await commit(ctx.d1, [...staged, ...findingStatements(ctx, job.id, job.findings_count, findings), ...moveJob(ctx, job, set)]);
  return movedJob(ctx, job, set);
}
