import type * as v from "valibot";
import type {
  CompleteImportUploadBody,
  CreateImportBody,
  CreateImportSourceBody,
  DecideWordPressReviewBody,
  PutHistoryAssignmentsBody,
  PutImportMappingBody,
  UploadImportMediaBody,
  UploadImportPartBody,
} from "../../../schema/manage-imports";
import { ARTIFACT_CHUNK_MAX, ARTIFACT_CONTENT_TYPE, artifactStream, readImportArtifact as readArtifact, settledArtifact, type ImportArtifact } from "../../../shared/services/imports/artifacts";
import { byteReadAnswer } from "../../http/byte-read";
import { importMediaKey } from "../../../shared/services/imports/wordpress/attachments";
import { importMapping } from "../../../shared/services/imports/wordpress/mapping-routes";
import { historyAssignments, importPrincipals } from "../../../shared/services/imports/wordpress/principals";
import { sha256Hex } from "../../../shared/crypto/digest";
import { AppError } from "../../../shared/errors";
import { newId } from "../../../shared/ids";
import { findingsPage, FINDINGS_PAGE } from "../../../shared/services/imports/findings";
import { importJobView, loadImportJob, requireImportPermission, requireState } from "../../../shared/services/imports/jobs";
import { requirePartShape } from "../../../shared/services/imports/upload";
import { IMPORT_PART_BYTES } from "../../../shared/services/imports/jobs";
import { wordpressReview } from "../../../shared/services/imports/wordpress/review";
import type { JobStepName } from "../../../objects/site/job-step-registry";
import { expectValue, siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandHandler, sendCommand, commandResponse } from "../respond";
import { rangeHeader } from "../../../shared/services/exports/byte-range";
import { base64, queryRange } from "./exports";

/** POST /imports/sources (rule 3: one batch with its answer). */
export const createImportSource = commandHandler("createImportSource", (call) => call.body as v.InferOutput<typeof CreateImportSourceBody>);

/** Where an import's file is kept in R2 (never under a media key: the media sweeps do not see it). */
export const importObjectKey = (siteId: string, jobId: string) => `imports/${siteId}/${jobId}/file`;

/**
 * POST /imports: opens the R2 multipart upload of the file, then creates the job in one batch
 * (rule 3). A refused command, or a replay answering another job, aborts the upload opened here.
 */
export async function createImport(call: ManageCall): Promise<Response> {
  requireImportPermission(call.ctx);
  const body = call.body as v.InferOutput<typeof CreateImportBody>;
  const jobId = newId("imp");
  const objectKey = importObjectKey(call.site.id, jobId);
  const upload = await call.env.MEDIA.createMultipartUpload(objectKey);
  try {
    const result = await sendCommand(call, "createImport", { job_id: jobId, source_id: body.source_id, file_name: body.file_name, object_key: objectKey, upload_id: upload.uploadId });
    if (result.body.import.id !== jobId) await upload.abort().catch(() => undefined);
    return commandResponse(result);
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/** Standard base64 with padding, checked in one pass (a regular expression over 7 MB would recurse). */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  for (let i = 0; i < text.length - padding; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!ok) return false;
  }
  return true;
}

function decodeBase64(text: string): Uint8Array {
  if (!isBase64(text)) throw new AppError("invalid_request", "content_base64 is not base64.", { field: "content_base64" });
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * PUT /imports/{id}/parts/{part}: the part goes into the job's R2 multipart upload, then its record
 * (etag, size, SHA-256) into the job through the site's object (rule 4: a part sent again replaces itself).
 */
export async function uploadImportPart(call: ManageCall): Promise<Response> {
  requireImportPermission(call.ctx);
  const body = call.body as v.InferOutput<typeof UploadImportPartBody>;
  const part = Number(call.params.part);
  const bytes = decodeBase64(body.content_base64);
  requirePartShape(part, bytes.length);
  const job = await loadImportJob(call.ctx, call.params.id ?? "");
  requireState(job, ["awaiting_upload"], "Uploading a part");
  if (!job.upload_id) throw new AppError("import_state_conflict", "The job has no upload open.", { state: job.state });
  const stored = await call.env.MEDIA.resumeMultipartUpload(job.object_key, job.upload_id).uploadPart(part, bytes);
  return commandResponse(await sendCommand(call, "recordImportPart", { job_id: job.id, part, etag: stored.etag, byte_length: bytes.length, sha256: await sha256Hex(bytes) }));
}

/** Runs a job step in the site's object (spec 2, rule 5; objects/site/job-steps.ts) and answers it. */
async function jobStep(call: ManageCall, name: JobStepName, input: object): Promise<Response> {
  const answer = await expectValue(
    siteObject(call.env, call.site.id).jobStep(name, {
      siteId: call.site.id,
      actor: call.actor,
      jobId: call.params.id ?? "",
      input,
      ...(call.idempotency ? { idempotency: call.idempotency } : {}),
    }),
  );
  return json(answer.body, answer.status);
}

export const completeImportUpload = (call: ManageCall) => jobStep(call, "completeImportUpload", { sha256: (call.body as v.InferOutput<typeof CompleteImportUploadBody>).sha256 });
export const advanceImport = (call: ManageCall) => jobStep(call, "advanceImport", {});
export const pauseImport = (call: ManageCall) => jobStep(call, "pauseImport", {});
export const resumeImport = (call: ManageCall) => jobStep(call, "resumeImport", {});
export const cancelImport = (call: ManageCall) => jobStep(call, "cancelImport", {});
export const advanceImportUndo = (call: ManageCall) => jobStep(call, "advanceImportUndo", {});
export const retryImportUndo = (call: ManageCall) => jobStep(call, "retryImportUndo", {});
export const decideWordPressReview = (call: ManageCall) => jobStep(call, "decideWordPressReview", call.body as v.InferOutput<typeof DecideWordPressReviewBody>);

/** GET /imports/{id}. */
export async function getImportJob(call: ManageCall): Promise<Response> {
  requireImportPermission(call.ctx);
  return json({ import: importJobView(await loadImportJob(call.ctx, call.params.id ?? "")) });
}

const cursorOf = (call: ManageCall) => Number((call.query.cursor as string | undefined) ?? "0");

/** GET /imports/{id}/findings: one page. */
export async function getImportFindings(call: ManageCall): Promise<Response> {
  requireImportPermission(call.ctx);
  const job = await loadImportJob(call.ctx, call.params.id ?? "");
  return json(await findingsPage(call.ctx, job.id, cursorOf(call), FINDINGS_PAGE));
}

/** GET /imports/{id}/wordpress/review. */
export async function getWordPressReview(call: ManageCall): Promise<Response> {
  return json(await wordpressReview(call.ctx, call.params.id ?? "", cursorOf(call)));
}

/**
 * PUT /imports/{id}/media: the bytes of one attachment URL, stored under the job in R2 (keyed by
 * their SHA-256), then recorded through the site's object; the write step takes them into the
 * media library (docs/imports.md, "Attachments and featured images").
 */
export async function uploadImportMedia(call: ManageCall): Promise<Response> {
  requireImportPermission(call.ctx);
  const body = call.body as v.InferOutput<typeof UploadImportMediaBody>;
  const bytes = decodeBase64(body.content_base64);
  if (bytes.length > IMPORT_PART_BYTES) throw new AppError("invalid_request", "An attachment sent to an import is at most 5 MiB.", { field: "content_base64", max_bytes: IMPORT_PART_BYTES });
  const job = await loadImportJob(call.ctx, call.params.id ?? "");
  requireState(job, ["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused"], "Sending an attachment");
  const sha256 = await sha256Hex(bytes);
  const objectKey = importMediaKey(call.site.id, job.id, sha256);
  await call.env.MEDIA.put(objectKey, bytes);
  return commandResponse(await sendCommand(call, "recordImportMedia", { job_id: job.id, url: body.attachment_url, object_key: objectKey, byte_length: bytes.length, sha256 }));
}

/** GET /imports/{id}/mapping. */
export async function getImportMapping(call: ManageCall): Promise<Response> {
  return json(await importMapping(call.ctx, call.params.id ?? ""));
}

export const putImportMapping = (call: ManageCall) => jobStep(call, "putImportMapping", call.body as v.InferOutput<typeof PutImportMappingBody>);

/** GET /imports/{id}/principals: one page. */
export async function getImportPrincipals(call: ManageCall): Promise<Response> {
  return json(await importPrincipals(call.ctx, call.params.id ?? "", cursorOf(call)));
}

/** GET /imports/{id}/history-assignments: one page. */
export async function getHistoryAssignments(call: ManageCall): Promise<Response> {
  return json(await historyAssignments(call.ctx, call.params.id ?? "", cursorOf(call)));
}

export const putHistoryAssignments = (call: ManageCall) => jobStep(call, "putHistoryAssignments", call.body as v.InferOutput<typeof PutHistoryAssignmentsBody>);

/**
 * GET (and HEAD) /imports/{id}/artifacts/{name}: with a Range header, the bytes as an export's
 * (workers/http/byte-read.ts: 206, `Content-Range`, `ETag`, `If-Range`, `If-None-Match`); without,
 * the JSON answer the MCP tool gives.
 */
export async function readImportArtifact(call: ManageCall): Promise<Response> {
  const range = rangeHeader(call.request, ARTIFACT_CHUNK_MAX);
  const file = await settledArtifact(call.ctx, call.env.MEDIA, call.params.id ?? "", call.params.name as ImportArtifact);
  if (range) {
    return byteReadAnswer(call.request, { total: file.size, sha256: file.sha256, contentType: ARTIFACT_CONTENT_TYPE }, {
      part: (withBytes) => readArtifact(call.env.MEDIA, file, range, true, withBytes),
      whole: () => artifactStream(call.env.MEDIA, file),
    });
  }
  const { bytes, ...rest } = await readArtifact(call.env.MEDIA, file, queryRange(call, ARTIFACT_CHUNK_MAX), false);
  return json({ content_base64: base64(bytes), ...rest });
}
