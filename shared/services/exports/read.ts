import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { rows } from "../imports/statements";
import { resolveByteRange, type ByteRange } from "./byte-range";
import { EXPORT_CONTENT_TYPE, exportPageKey, loadExportJob, requireExportPermission, type ExportJobRow } from "./jobs";

/** The largest byte range one read answers (MCP: 1 MiB is 1.4 MB of base64 in one message). */
export const EXPORT_CHUNK_MAX = 1024 * 1024;

export interface ExportChunk {
  /** The range's bytes (none when read `withBytes: false`: `length` still says how many). */
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
  /** With `page`: the SHA-256 of that kept page alone, so a client saving one page checks it. */
  page_sha256?: string;
}

/** A finished export: the one state whose file (and SHA-256) exists. */
export type FinishedExport = ExportJobRow & { sha256: string };

/**
 * The export a read names, once the caller may read exports and it is finished (before, there is
 * no whole file and no SHA-256 to read: 409 `export_state_conflict`).
 */
export async function finishedExport(ctx: Pick<LifecycleContext, "d1" | "site" | "actor">, jobId: string): Promise<FinishedExport> {
  requireExportPermission(ctx);
  const job: ExportJobRow = await loadExportJob(ctx, jobId);
  if (job.state !== "finished" || !job.sha256) throw new AppError("export_state_conflict", "The export is not finished; advance it until it is.", { state: job.state });
  return { ...job, sha256: job.sha256 };
}

/**
 * The whole file of a finished export, its pages streamed in order (never held whole): the
 * answer to a byte read whose `If-Range` no longer matches, and what the seal step digests.
 */
export function exportFileStream(files: R2Bucket, siteId: string, job: Pick<ExportJobRow, "id" | "pages">): ReadableStream<Uint8Array> {
  let page = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!reader) {
          page++;
          if (page > job.pages) return controller.close();
          const object = await files.get(exportPageKey(siteId, job.id, page));
          if (!object) return controller.error(new AppError("export_state_conflict", "A page of the export is missing; create the export again.", { page }));
          reader = object.body.getReader();
        }
        const chunk = await reader.read();
        if (!chunk.done) return controller.enqueue(chunk.value);
        reader = null;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

/**
 * One byte range of a finished export (at most {@link EXPORT_CHUNK_MAX} bytes), read from the pages
 * it spans; a range no byte satisfies is 416 `range_not_satisfiable` (byte-range.ts). With `page`
 * (a kept page, as `read-export-chunk --page <n>` saves it) the read starts at that page's first
 * byte unless an offset inside it is given, and stops at its last: a page past the last is 416, an
 * offset outside the page `invalid_request`. `withBytes: false` (a HEAD) resolves the range and
 * answers everything but the bytes, reading nothing from R2.
 */
export async function readExportChunk(
  ctx: Pick<LifecycleContext, "d1" | "site">,
  files: R2Bucket,
  job: FinishedExport,
  range: ByteRange,
  options: { fromHeader: boolean; page?: number; offsetGiven?: boolean; withBytes?: boolean },
): Promise<ExportChunk> {
  let limit = job.total_bytes;
  let pageSha256: string | undefined;
  if (options.page !== undefined) {
    const kept = (await rows<{ byte_offset: number; byte_length: number; sha256: string }>(ctx.d1, "SELECT byte_offset, byte_length, sha256 FROM export_pages WHERE site_id = ? AND job_id = ? AND page = ?", [ctx.site.id, job.id, options.page]))[0];
    if (!kept) throw new AppError("range_not_satisfiable", "The export has no such page.", { page: options.page, pages: job.pages, total: job.total_bytes });
    limit = kept.byte_offset + kept.byte_length;
    pageSha256 = kept.sha256;
    if ("suffix" in range) throw new AppError("invalid_request", "A page is read from its first byte (or an offset inside it), not by a suffix range.", { page: options.page });
    if ("offset" in range && !options.offsetGiven) range = { offset: kept.byte_offset, length: range.length };
    if ("offset" in range && (range.offset < kept.byte_offset || range.offset >= limit)) {
      throw new AppError("invalid_request", "The offset lies outside the page.", { page: options.page, offset: range.offset, page_offset: kept.byte_offset, page_length: kept.byte_length });
    }
  }
  const resolved = resolveByteRange(range, job.total_bytes, EXPORT_CHUNK_MAX, options.fromHeader);
  const offset = resolved.offset;
  const want = Math.min(resolved.length, limit - offset);
  const end = offset + want;
  const pages = await rows<{ page: number; byte_offset: number; byte_length: number; object_key: string }>(
    ctx.d1,
    "SELECT page, byte_offset, byte_length, object_key FROM export_pages WHERE site_id = ? AND job_id = ? AND byte_offset < ? AND byte_offset + byte_length > ? ORDER BY page",
    [ctx.site.id, job.id, Math.max(end, offset + 1), offset],
  );
  const out = new Uint8Array(options.withBytes === false ? 0 : want);
  let written = 0;
  for (const p of options.withBytes === false ? [] : pages) {
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
    ...(pageSha256 === undefined ? {} : { page_sha256: pageSha256 }),
  };
}
