import type { CompiledQuery } from "kysely";
import { sha256Hex } from "../../../crypto/digest";
import { AppError } from "../../../errors";
import { newId } from "../../../ids";
import { judgeOutboundUrl } from "../../../net/outbound-address";
import { mediaRepository } from "../../../repositories/media-repository";
import { isoAt } from "../../../clock";
import { commitPlan, type CommittedEvent } from "../../lifecycle/commit-plan";
import type { LifecycleContext, WritePlan } from "../../lifecycle/context";
import { inspectMedia } from "../../media/inspect";
import { newObjectKey } from "../../media/object-keys";
import { storedFileOf } from "../../media/upload-fields";
import { uploadMedia } from "../../media/upload";
import type { Finding } from "../findings";
import type { StepContext } from "../job-step";
import { loadImportJob, requireImportPermission, requireState, type ImportJobRow } from "../jobs";
import { commit } from "../../../db/batch";
import { firstRow, statement } from "../statements";
import { archivedAttachment } from "./archive-step";
import type { WordPressDecisions } from "./review";
import type { WxrPost } from "./wxr-items";

/** The largest attachment a write step takes into the library (one uploadImportMedia body, or one fetch). */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** How long a write step waits for one attachment URL (docs/imports.md, "Attachments"). */
export const ATTACHMENT_FETCH_MS = 10_000;

/** Where bytes sent for an attachment wait in R2 until the write step takes them (never a media key). */
export const importMediaKey = (siteId: string, jobId: string, sha256: string) => `imports/${siteId}/${jobId}/media/${sha256}`;

export interface RecordImportMediaInput {
  job_id: string;
  url: string;
  object_key: string;
  byte_length: number;
  sha256: string;
}

/**
 * uploadImportMedia's record: the bytes of one attachment URL of the file, stored by the router
 * under the job (rule 4: the same URL sent again replaces its bytes). Before the attachment is
 * written: in any state but the final ones.
 */
export async function recordImportMedia(ctx: LifecycleContext, input: RecordImportMediaInput): Promise<WritePlan<{ import_id: string; url: string; byte_length: number; sha256: string }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  if (job.kind !== "wordpress") throw new AppError("import_state_conflict", "Attachments are sent for a WordPress import.", { state: job.state });
  requireState(job, ["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused"], "Sending an attachment");
  return {
    statements: [
      statement(
        `INSERT INTO import_media (job_id, site_id, url, object_key, byte_length, sha256, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (job_id, url) DO UPDATE SET object_key = excluded.object_key, byte_length = excluded.byte_length, sha256 = excluded.sha256`,
        [job.id, ctx.site.id, input.url, input.object_key, input.byte_length, input.sha256, isoAt(ctx.clock.now())],
      ),
    ],
    answer: { import_id: job.id, url: input.url, byte_length: input.byte_length, sha256: input.sha256 },
    events: [],
    purgeTags: [],
    audit: { action: "import.media", targetKind: "import", targetId: job.id, details: { url: input.url, sha256: input.sha256 } },
    locks: [],
  };
}

type Bytes = { bytes: Uint8Array } | { refused: string };

/**
 * The attachment's bytes: those sent for its URL, else the uploaded archive's file at its path, else
 * (when the review chose it) its URL fetched under the outbound policy.
 */
async function attachmentBytes(ctx: StepContext, job: ImportJobRow, url: string, fetchAllowed: boolean): Promise<Bytes> {
  const sent = await firstRow<{ object_key: string }>(ctx.d1, "SELECT object_key FROM import_media WHERE site_id = ? AND job_id = ? AND url = ?", [ctx.site.id, job.id, url]);
  if (sent) {
    const object = await ctx.files.get(sent.object_key);
    if (object) return { bytes: new Uint8Array(await object.arrayBuffer()) };
  }
  const archived = await archivedAttachment(ctx, job, url, ATTACHMENT_MAX_BYTES);
  if (archived) return archived;
  if (!fetchAllowed || !ctx.outbound) return { refused: "no bytes were sent for this URL (uploadImportMedia), the uploaded archive holds no file at its path, and fetching attachments is off (putImportMapping fetch_attachments)" };
  const verdict = judgeOutboundUrl(url, ctx.outbound.policy);
  if (!verdict.ok) return { refused: `outbound address refused: ${verdict.reason}` };
  try {
    const response = await ctx.outbound.fetch(new Request(verdict.url, { redirect: "manual", signal: AbortSignal.timeout(ATTACHMENT_FETCH_MS) }));
    if (response.status !== 200) {
      await response.body?.cancel();
      return { refused: `HTTP ${response.status}` };
    }
    const length = Number(response.headers.get("content-length") ?? "0");
    if (length > ATTACHMENT_MAX_BYTES) {
      await response.body?.cancel();
      return { refused: `larger than ${ATTACHMENT_MAX_BYTES} bytes` };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.length > ATTACHMENT_MAX_BYTES ? { refused: `larger than ${ATTACHMENT_MAX_BYTES} bytes` } : { bytes };
  } catch (error) {
    return { refused: error instanceof Error ? error.message.slice(0, 200) : "the fetch failed" };
  }
}

export interface AttachmentResult {
  /** The item's new state with its media item, committed by the caller's last batch when no media was written. */
  statements: CompiledQuery[];
  findings: Finding[];
  events: CommittedEvent[];
}

/**
 * One attachment into the media library through the media pipeline (docs/imports.md,
 * "Attachments"): its bytes (sent, or fetched), the content checks of every upload (`inspectMedia`:
 * the type from the bytes, the site's allowed formats, no markup or executable), deduplicated by
 * bytes (the library's item with the same SHA-256 is used, nothing stored), else stored in R2 and
 * committed by `uploadMedia` (media:upload asked of whoever advances the job) with the alt text
 * WordPress kept, in the site's default language. A refusal is a `media_not_imported` finding.
 */
export async function writeAttachment(ctx: StepContext, job: ImportJobRow, seq: number, post: WxrPost, decisions: WordPressDecisions): Promise<AttachmentResult> {
  const mark = (mediaId: string | null, created: boolean, state: string) =>
    statement("UPDATE import_items SET state = ?, media_id = ?, media_created = ? WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged'", [state, mediaId, created ? 1 : 0, ctx.site.id, job.id, seq]);
  const notImported = (reason: string, extra: Record<string, unknown> = {}): AttachmentResult => ({
    statements: [mark(null, false, "skipped")],
    findings: [{ item_seq: seq, code: "media_not_imported", message: `The attachment was not imported: ${reason}.`, details: { url: post.attachment_url, reason, ...extra } }],
    events: [],
  });
  if (!post.attachment_url) return notImported("the item names no file");
  const got = await attachmentBytes(ctx, job, post.attachment_url, decisions.fetch_attachments === true);
  if ("refused" in got) return notImported(got.refused);
  const sha256 = await sha256Hex(got.bytes);
  const existing = (await mediaRepository(ctx.db, ctx.scope).findBySha256(sha256))[0];
  if (existing) {
    // Committed now: a post later in this step reads it for its featured image.
    await commit(ctx.d1, [mark(existing.id, false, "media")]);
    return { statements: [], findings: [], events: [] };
  }
  const fileName = decodeURIComponent(new URL(post.attachment_url).pathname.split("/").pop() ?? "") || `${post.slug || "attachment"}`;
  const mediaId = newId("med");
  const stored = newObjectKey(ctx.site.id, mediaId);
  try {
    const inspected = await inspectMedia(got.bytes, { fileName, declaredType: null }, ctx.site.settings.media.allowed);
    const alt = post.alt_text ? { alt_texts: { [ctx.site.default_lang]: post.alt_text } } : {};
    const plan = await uploadMedia(ctx, { ...storedFileOf({ mediaId, objectKey: stored.objectKey }, { byteLength: got.bytes.length, sha256 }, inspected, fileName), ...alt, folder_id: null, on_duplicate: "use_existing" });
    await ctx.files.put(stored.objectKey, got.bytes, { httpMetadata: { contentType: inspected.mimeType }, sha256 });
    plan.statements.push(mark(mediaId, true, "media"));
    try {
      const committed = await commitPlan(ctx, plan);
      return { statements: [], findings: [], events: committed.events };
    } catch (error) {
      await ctx.files.delete(stored.objectKey).catch(() => undefined);
      throw error;
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const permission = error.code === "missing_permission";
    if (permission) {
      return { statements: [mark(null, false, "skipped")], findings: [{ item_seq: seq, code: "permission_denied", message: "Importing the attachment: the caller may not upload media now.", details: { code: error.code, url: post.attachment_url } }], events: [] };
    }
    return notImported(error.message, { code: error.code });
  }
}

/** The media item an attachment of the file became (by its WordPress post id), for a featured image. */
export async function mediaOfAttachment(ctx: StepContext, jobId: string, postId: string): Promise<string | undefined> {
  const row = await firstRow<{ media_id: string }>(ctx.d1, "SELECT media_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'attachment' AND source_key = ? AND media_id IS NOT NULL", [ctx.site.id, jobId, postId]);
  return row?.media_id;
}
