import type * as v from "valibot";
import type { CreateExportBody } from "../../../schema/manage-exports";
import { AppError } from "../../../shared/errors";
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

/** `Range: bytes=a-b` (one range, both ends or an open end), or null without a header (also read by readImportArtifact). */
export function rangeOf(request: Request): { offset: number; length: number } | null {
  const header = request.headers.get("range");
  if (header === null) return null;
  const m = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim());
  if (!m?.[1]) throw new AppError("invalid_request", "Range is one byte range: bytes=<first>-<last>.", { range: header });
  const first = Number(m[1]);
  const last = m[2] ? Number(m[2]) : first + EXPORT_CHUNK_MAX - 1;
  if (last < first) throw new AppError("invalid_request", "The range ends before it starts.", { range: header });
  return { offset: first, length: last - first + 1 };
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
  const range = rangeOf(call.request);
  const offset = range?.offset ?? Number((call.query.offset as string | undefined) ?? "0");
  const length = range?.length ?? Number((call.query.length as string | undefined) ?? String(EXPORT_CHUNK_MAX));
  const chunk = await readChunk(call.ctx, call.env.MEDIA, call.params.id ?? "", offset, length);
  if (range) {
    const last = chunk.offset + Math.max(chunk.length, 1) - 1;
    return new Response(chunk.bytes, {
      status: 206,
      headers: {
        "content-type": chunk.content_type,
        "content-range": `bytes ${chunk.offset}-${last}/${chunk.total}`,
        "x-content-sha256": chunk.sha256,
        "cache-control": "private, no-store",
      },
    });
  }
  const { bytes, ...rest } = chunk;
  return json({ content_base64: base64(bytes), ...rest });
}
