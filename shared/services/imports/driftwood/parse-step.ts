import { commit } from "../../../db/batch";
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from "../../exports/jobs";
import { findingStatements } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { statement } from "../statements";

/** Bytes one parse step reads (docs/imports.md, "Driftwood exports"); a longer line doubles it up to 16 MiB. */
const STEP_BYTES = 1024 * 1024;
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const STEP_ITEMS = 200;
/**
 * The longest record line staged: a D1 row holds at most 2,000,000 bytes (the staged row's other
 * columns take the rest). A longer one failed the step with SQLITE_TOOBIG, a 500 at every advance
 * (probe finding, session 17); a Driftwood export never writes one, so the file is refused.
 */
const MAX_RECORD_BYTES = 1_900_000;

class ExportFileError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One parse step of a Driftwood export (docs/exports.md, format 1): whole lines from the job's
 * offset, the header checked first (`format`, `version`), models and entries staged, roles and
 * media noted (not imported: `item_skipped`), the end record finishing the file. Anything else —
 * invalid JSON, another format or version, no end record — fails the job, nothing written.
 */
export async function driftwoodParseStep(ctx: StepContext, job: ImportJobRow): Promise<ImportJobRow> {
  try {
    return await parse(ctx, job);
  } catch (error) {
    if (!(error instanceof ExportFileError)) throw error;
    const set = { state: "failed" as const, failure: JSON.stringify({ code: "import_file_invalid", message: error.message, reason: error.reason }), findings_count: job.findings_count + 1, items_total: 0 };
    await commit(ctx.d1, [
      statement("DELETE FROM import_items WHERE site_id = ? AND job_id = ?", [ctx.site.id, job.id]),
      ...findingStatements(ctx, job.id, job.findings_count, [{ item_seq: null, code: "import_file_invalid", message: error.message, details: { reason: error.reason } }]),
      ...moveJob(ctx, job, set),
    ]);
    return movedJob(ctx, job, set);
  }
}

async function parse(ctx: StepContext, job: ImportJobRow): Promise<ImportJobRow> {
  const size = job.file_bytes ?? 0;
  let length = STEP_BYTES;
  for (;;) {
    const object = await ctx.files.get(job.object_key, { range: { offset: job.parse_offset, length: Math.min(length, size - job.parse_offset) } });
    if (!object) throw new ExportFileError("truncated", "The import file is gone.");
    const bytes = new Uint8Array(await object.arrayBuffer());
    const atEnd = job.parse_offset + bytes.length >= size;
    const cut = atEnd ? bytes.length : bytes.lastIndexOf(0x0a) + 1;
    if (cut === 0) {
      if (length >= MAX_LINE_BYTES) throw new ExportFileError("malformed", "One line is longer than 16 MiB.");
      length *= 2;
      continue;
    }
    let text: string;
    try {
      text = utf8.decode(bytes.subarray(0, cut));
    } catch {
      throw new ExportFileError("invalid_utf8", "The file is not valid UTF-8.");
    }
    const lines = text.split("\n");
    let consumed = 0;
    const staged: { kind: string; key: string; group: string | null; payload: unknown }[] = [];
    let finished = false;
    for (const [i, line] of lines.entries()) {
      if (staged.length >= STEP_ITEMS) break;
      if (i === lines.length - 1 && !atEnd) break; // the empty rest after the last newline
      const lineBytes = new TextEncoder().encode(line).length;
      consumed += lineBytes + (i < lines.length - 1 ? 1 : 0);
      if (line.trim() === "") continue;
      if (lineBytes > MAX_RECORD_BYTES) throw new ExportFileError("record_too_large", `A record is longer than ${MAX_RECORD_BYTES} bytes.`);
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new ExportFileError("malformed", "A line is not JSON.");
      }
      if (job.parse_offset === 0 && i === 0) {
        if (record.format !== EXPORT_FORMAT) throw new ExportFileError("not_driftwood", "The file is not a Driftwood export.");
        if (record.version !== EXPORT_FORMAT_VERSION) throw new ExportFileError("version_unsupported", `Export format version ${String(record.version)} is not read by this version.`);
        continue;
      }
      if (record.type === "end") {
        finished = true;
        break;
      }
      const type = typeof record.type === "string" ? record.type : "unknown";
      const key = String(record.instance_id ?? record.id ?? record.slug ?? "");
      // An entry's translation group is staged beside it: a language finds its sibling by this key (write step).
      const group = type === "entry" && typeof record.translation_group_id === "string" ? record.translation_group_id : null;
      staged.push({ kind: type === "model" || type === "entry" ? type : "other", key, group, payload: record });
    }
    if (!finished && atEnd && job.parse_offset + consumed >= size) throw new ExportFileError("truncated", "The file ends without its end record: it was cut short.");
    const set = { state: finished ? ("writing" as const) : ("parsing" as const), parse_offset: job.parse_offset + consumed, items_total: job.items_total + staged.length };
    await commit(ctx.d1, [
      ...staged.map((s, n) => statement("INSERT INTO import_items (job_id, seq, site_id, kind, source_key, source_group, payload) VALUES (?, ?, ?, ?, ?, ?, ?)", [job.id, job.items_total + n + 1, ctx.site.id, s.kind, s.key, s.group, JSON.stringify(s.payload)])),
      ...moveJob(ctx, job, set),
    ]);
    return movedJob(ctx, job, set);
  }
}
