import type * as v from "valibot";
import type { CreateExportBody } from "../../../schema/manage-exports";
import { rangeHeader, type ByteRange } from "../../../shared/services/exports/byte-range";
import { EXPORT_CONTENT_TYPE, exportJobView, loadExportJob, requireExportPermission } from "../../../shared/services/exports/jobs";
import { EXPORT_CHUNK_MAX, exportFileStream, finishedExport, readExportChunk as readChunk } from "../../../shared/services/exports/read";
import { byteReadAnswer } from "../../http/byte-read";
import { expectValue, siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandHandler } from "../respond";

/** POST /exports (rule 3: one batch with its answer). */
export const createExport = commandHandler("createExport", (call) => {
  const body = call.body as v.InferOutput<typeof CreateExportBody>;
  return { ...(body.model_ids !== undefined ? { model_ids: body.model_ids } : {}), ...(body.languages !== undefined ? { languages: body.languages } : {}) };
});

/** POST /exports/{id}/advance: a job step (spec 2, rule 5) in the site's object. */
export async function advanceExport(call: ManageCall): Promise<Response> {
  const answer = await expectValue(
    siteObject(call.env, call.site.id).jobStep("advanceExport", { siteId: call.site.id, actor: call.actor, jobId: call.params.id ?? "", input: {}, ...(call.idempotency ? { idempotency: call.idempotency } : {}) }),
  );
  return json(answer.body, answer.status);
}

/** GET /exports/{id}. */
export async function getExportJob(call: ManageCall): Promise<Response> {
  requireExportPermission(call.ctx);
  return json({ export: exportJobView(await loadExportJob(call.ctx, call.params.id ?? "")) });
}

/** The JSON read's range (MCP): `offset` (default 0) and `length` (default the largest read). */
export function queryRange(call: ManageCall, max: number): ByteRange {
  return { offset: Number((call.query.offset as string | undefined) ?? "0"), length: Number((call.query.length as string | undefined) ?? String(max)) };
}

export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * GET (and HEAD) /exports/{id}/file: with a Range header, the bytes (workers/http/byte-read.ts:
 * 206 with `Content-Range`, `ETag` and the whole file's SHA-256 in `X-Content-SHA256`; `If-Range`
 * and `If-None-Match` honoured); without, the JSON answer the MCP tool gives.
 */
export async function readExportChunk(call: ManageCall): Promise<Response> {
  const range = rangeHeader(call.request, EXPORT_CHUNK_MAX);
  const job = await finishedExport(call.ctx, call.params.id ?? "");
  const page = call.query.page as string | undefined;
  const options = { fromHeader: range !== null, ...(page !== undefined ? { page: Number(page) } : {}), offsetGiven: range !== null || call.query.offset !== undefined };
  if (range) {
    return byteReadAnswer(call.request, { total: job.total_bytes, sha256: job.sha256, contentType: EXPORT_CONTENT_TYPE }, {
      part: (withBytes) => readChunk(call.ctx, call.env.MEDIA, job, range, { ...options, withBytes }),
      whole: () => Promise.resolve(exportFileStream(call.env.MEDIA, call.site.id, job)),
    });
  }
  const { bytes, ...rest } = await readChunk(call.ctx, call.env.MEDIA, job, queryRange(call, EXPORT_CHUNK_MAX), options);
  return json({ content_base64: base64(bytes), ...rest });
}
