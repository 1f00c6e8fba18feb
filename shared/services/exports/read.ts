import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { rows } from "../imports/statements";
import { EXPORT_CONTENT_TYPE, loadExportJob, requireExportPermission, type ExportJobRow } from "./jobs";

/** The largest byte range one read answers (MCP: 1 MiB is 1.4 MB of base64 in one message). */
export const EXPORT_CHUNK_MAX = 1024 * 1024;

export interface ExportChunk {
  bytes: Uint8Array;
  content_type: string;
  offset: number;
  length: number;
  total: number;
  next_offset: number | null;
  sha256: string;
  /** The page holding `offset`, and the page after the range's end (null at the end). */
  page: number;
  next_page: number | null;
}

/**
 * One byte range of a finished export (`offset`, at most {@link EXPORT_CHUNK_MAX} bytes), read from
 * the pages it spans. Before the export is finished there is no whole file (and no SHA-256) to read:
 * 409 `export_state_conflict`; a range starting past the end is `invalid_request`.
 */
export async function readExportChunk(ctx: Pick<LifecycleContext, "d1" | "site" | "actor">, files: R2Bucket, jobId: string, offset: number, length: number): Promise<ExportChunk> {
  requireExportPermission(ctx);
  const job: ExportJobRow = await loadExportJob(ctx, jobId);
  if (job.state !== "finished" || !job.sha256) throw new AppError("export_state_conflict", "The export is not finished; advance it until it is.", { state: job.state });
  if (!Number.isSafeInteger(offset) || offset < 0 || (offset >= job.total_bytes && job.total_bytes > 0)) {
    throw new AppError("invalid_request", "The range starts outside the file.", { offset, total: job.total_bytes });
  }
  const want = Math.max(0, Math.min(length, EXPORT_CHUNK_MAX, job.total_bytes - offset));
  const end = offset + want;
  const pages = await rows<{ page: number; byte_offset: number; byte_length: number; object_key: string }>(
    ctx.d1,
    "SELECT page, byte_offset, byte_length, object_key FROM export_pages WHERE site_id = ? AND job_id = ? AND byte_offset < ? AND byte_offset + byte_length > ? ORDER BY page",
    [ctx.site.id, job.id, Math.max(end, offset + 1), offset],
  );
  const out = new Uint8Array(want);
  let written = 0;
  for (const p of pages) {
    if (written >= want) break;
    const from = Math.max(offset, p.byte_offset) - p.byte_offset;
    const to = Math.min(end, p.byte_offset + p.byte_length) - p.byte_offset;
    if (to <= from) continue;
    const object = await files.get(p.object_key, { range: { offset: from, length: to - from } });
    if (!object) throw new AppError("export_state_conflict", "A page of the export is missing; create the export again.", { page: p.page });
    out.set(new Uint8Array(await object.arrayBuffer()), written);
    written += to - from;
  }
  const first = pages[0]?.page ?? 1;
  const after = end < job.total_bytes ? (await rows<{ page: number }>(ctx.d1, "SELECT page FROM export_pages WHERE site_id = ? AND job_id = ? AND byte_offset <= ? AND byte_offset + byte_length > ?", [ctx.site.id, job.id, end, end]))[0]?.page ?? null : null;
  return {
    bytes: out,
    content_type: EXPORT_CONTENT_TYPE,
    offset,
    length: want,
    total: job.total_bytes,
    next_offset: end < job.total_bytes ? end : null,
    sha256: job.sha256,
    page: first,
    next_page: after,
  };
}
