import { AppError } from "../../errors";
import { hex } from "../../crypto/digest";
import { commit } from "../../db/batch";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import type { StepAnswer, StepContext } from "./job-step";
import { IMPORT_MAX_BYTES, IMPORT_MAX_PARTS, IMPORT_PART_BYTES, importJobView, loadImportJob, movedJob, moveJob, requireImportPermission, requireState, type ImportJobView } from "./jobs";
import { rows, statement } from "./statements";

export interface RecordImportPartInput {
  job_id: string;
  part: number;
  etag: string;
  byte_length: number;
  sha256: string;
}

/** A part number the job may take, and a size a part may have (all 5 MiB but the last). */
export function requirePartShape(part: number, byteLength: number): void {
  if (!Number.isSafeInteger(part) || part < 1) throw new AppError("import_part_invalid", "Parts are numbered from 1.", { part });
  if (part > IMPORT_MAX_PARTS) {
    throw new AppError("import_file_too_large", `An import file is at most ${IMPORT_MAX_PARTS} parts of 5 MiB (${IMPORT_MAX_BYTES} bytes).`, { max_parts: IMPORT_MAX_PARTS, max_bytes: IMPORT_MAX_BYTES });
  }
  if (byteLength < 1 || byteLength > IMPORT_PART_BYTES) throw new AppError("import_part_invalid", "A part is 1 byte to 5 MiB.", { part, byte_length: byteLength, part_bytes: IMPORT_PART_BYTES });
}

/**
 * uploadImportPart's record: the part the router stored in the job's R2 multipart upload (spec 2,
 * rule 4: a part sent again replaces itself). Only while the job waits for its file.
 */
export async function recordImportPart(ctx: LifecycleContext, input: RecordImportPartInput): Promise<WritePlan<{ import_id: string; part: number; byte_length: number; sha256: string }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  requireState(job, ["awaiting_upload"], "Uploading a part");
  requirePartShape(input.part, input.byte_length);
  return {
    statements: [
      statement(
        `INSERT INTO import_parts (job_id, site_id, part, etag, byte_length, sha256) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (job_id, part) DO UPDATE SET etag = excluded.etag, byte_length = excluded.byte_length, sha256 = excluded.sha256`,
        [job.id, ctx.site.id, input.part, input.etag, input.byte_length, input.sha256],
      ),
    ],
    answer: { import_id: job.id, part: input.part, byte_length: input.byte_length, sha256: input.sha256 },
    events: [],
    purgeTags: [],
    audit: { action: "import.part", targetKind: "import", targetId: job.id, details: { part: input.part, sha256: input.sha256 } },
    locks: [],
  };
}

/** SHA-256 (hex) of an R2 object, streamed through the runtime's digest (the file is never held whole). */
export async function objectSha256(files: R2Bucket, key: string): Promise<{ sha256: string; bytes: number } | null> {
  const object = await files.get(key);
  if (!object) return null;
  const digest = new crypto.DigestStream("SHA-256");
  await object.body.pipeTo(digest);
  return { sha256: hex(new Uint8Array(await digest.digest)), bytes: object.size };
}

/**
 * completeImportUpload (a job step, rule 5): the parts must be 1..n, each 5 MiB but the last; the R2
 * upload is completed and the whole file's SHA-256 compared with the one sent. A different digest
 * deletes the file and opens a new upload (the job waits for its file again, parts forgotten), then
 * refuses 422 `import_checksum_mismatch`: nothing of the file is ever read.
 */
export async function completeImportUpload(ctx: StepContext, input: { job_id: string; sha256: string }): Promise<StepAnswer<{ import: ImportJobView }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  requireState(job, ["awaiting_upload"], "Completing the upload");
  const parts = await rows<{ part: number; etag: string; byte_length: number }>(ctx.d1, "SELECT part, etag, byte_length FROM import_parts WHERE site_id = ? AND job_id = ? ORDER BY part", [ctx.site.id, job.id]);
  const gaps = parts.length === 0 || parts.some((p, i) => p.part !== i + 1);
  const short = parts.slice(0, -1).filter((p) => p.byte_length !== IMPORT_PART_BYTES).map((p) => p.part);
  if (gaps || short.length > 0 || !job.upload_id) {
    throw new AppError("import_upload_incomplete", "The parts must be numbered 1 to n without gaps, each 5 MiB but the last.", {
      parts: parts.map((p) => p.part),
      // The numbers missing below the highest part sent (part 1 when none was): what to send.
      missing: missingParts(parts.map((p) => p.part)),
      not_full: short,
    });
  }
  const upload = ctx.files.resumeMultipartUpload(job.object_key, job.upload_id);
  // Completed already by a run that stopped before its batch (rule 5 runs the completion again): the object is there.
  await upload.complete(parts.map((p) => ({ partNumber: p.part, etag: p.etag }))).catch(async (error: unknown) => {
    if (!(await ctx.files.head(job.object_key))) throw error;
  });
  const stored = await objectSha256(ctx.files, job.object_key);
  if (!stored || stored.sha256 !== input.sha256.toLowerCase()) {
    await ctx.files.delete(job.object_key);
    const reopened = await ctx.files.createMultipartUpload(job.object_key);
    const reset = { upload_id: reopened.uploadId };
    await commit(ctx.d1, [...moveJob(ctx, job, reset), statement("DELETE FROM import_parts WHERE site_id = ? AND job_id = ?", [ctx.site.id, job.id])]);
    throw new AppError("import_checksum_mismatch", "The file's SHA-256 is not the one sent; its parts were discarded: upload the file again.", {
      expected: input.sha256.toLowerCase(),
      received: stored?.sha256 ?? null,
    });
  }
  const set = { state: "uploaded" as const, upload_id: null, file_bytes: stored.bytes, file_sha256: stored.sha256 };
  await commit(ctx.d1, [...moveJob(ctx, job, set), statement("DELETE FROM import_parts WHERE site_id = ? AND job_id = ?", [ctx.site.id, job.id])]);
  return { body: { import: importJobView(movedJob(ctx, job, set)) }, purgeTags: [] };
}

/** Part numbers from 1 to the highest sent that were not sent (`[1]` when none was). */
function missingParts(sent: readonly number[]): number[] {
  const have = new Set(sent);
  const highest = Math.max(1, ...sent);
  return Array.from({ length: highest }, (_, i) => i + 1).filter((n) => !have.has(n));
}
