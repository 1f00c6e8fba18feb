import type * as v from "valibot";
import type { CreateExportBody } from "../../../schema/manage-exports";
import { rangeHeader, type ByteRange } from "../../../shared/services/exports/byte-range";
import { exportJobView, loadExportJob, requireExportPermission } from "../../../shared/services/exports/jobs";
import { EXPORT_CHUNK_MAX, readExportChunk as readChunk } from "../../../shared/services/exports/read";
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
 * GET /exports/{id}/file: with a Range header, 206 with the bytes, `Content-Range` and the whole
 * file's SHA-256 in `X-Content-SHA256`; without, the JSON answer the MCP tool gives.
 */
export async function readExportChunk(call: ManageCall): Promise<Response> {
  const range = rangeHeader(call.request, EXPORT_CHUNK_MAX);
  const page = call.query.page as string | undefined;
  const chunk = await readChunk(call.ctx, call.env.MEDIA, call.params.id ?? "", range ?? queryRange(call, EXPORT_CHUNK_MAX), {
    fromHeader: range !== null,
    ...(page !== undefined ? { page: Number(page) } : {}),
    offsetGiven: range !== null || call.query.offset !== undefined,
  });
  if (range) {
    const last = chunk.offset + chunk.length - 1;
    return new Response(chunk.bytes, {
      status: 206,
      headers: {
        "content-type": chunk.content_type,
        "content-range": `bytes ${chunk.offset}-${last}/${chunk.total}`,
        "x-content-sha256": chunk.sha256,
        "accept-ranges": "bytes",
        "cache-control": "private, no-store",
      },
    });
  }
  const { bytes, ...rest } = chunk;
  return json({ content_base64: base64(bytes), ...rest });
}
