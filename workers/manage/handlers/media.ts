import type { UploadMediaFields } from "../../../schema/manage-media";
import { AppError } from "../../../shared/errors";
import { newId } from "../../../shared/ids";
import { mediaRepository } from "../../../shared/repositories/media-repository";
import { inspectMedia } from "../../../shared/services/media/inspect";
import { mediaItem, type MediaItem } from "../../../shared/services/media/media-view";
import { newObjectKey } from "../../../shared/services/media/object-keys";
import { assertMayUpload } from "../../../shared/services/media/upload";
import { uploadCommandInput, uploadOptions } from "../../../shared/services/media/upload-fields";
import { siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { CommandInput } from "../../../objects/site/command-registry";
import type { IdempotencyRequest } from "../../../objects/site/commands";
import type { ManageCall } from "../context";
import { commandResponse, sendCommand, type CommandCall, type CommandResult } from "../respond";

/**
 * POST /media (docs/media.md): authorise → content checks on the bytes → R2 put under a new,
 * never reused key → the site's object decides (folder, edit source, duplicates) and commits the
 * row in one batch with its idempotency answer and audit row. The object is kept only when the
 * committed answer names it; a refusal, a reuse, a replay or a batch that did not commit deletes it.
 * The key is noted in the site's object before the put, so a request that stops in between leaves
 * the alarm an object to remove (spec 2, idempotency rule 3).
 */
export async function uploadMedia(call: ManageCall): Promise<Response> {
  const upload = call.upload;
  if (!upload) throw new AppError("invalid_request", 'The upload needs a "file" part.', { field: "file" });
  // Authorise before storing anything; the object asks again inside the write.
  assertMayUpload(call.ctx);
  const options = uploadOptions(call.body as UploadMediaFields, upload, call.site.languages);
  const inspected = await inspectMedia(upload.bytes, options.claims, call.site.settings.media.allowed);

  const mediaId = newId("med");
  const stored = newObjectKey(call.site.id, mediaId);
  return storeThenCommand(
    call,
    { ...stored, bytes: upload.bytes, sha256: upload.sha256, mimeType: inspected.mimeType },
    "uploadMedia",
    uploadCommandInput({ mediaId, objectKey: stored.objectKey }, { byteLength: upload.bytes.byteLength, sha256: upload.sha256 }, inspected, options),
  );
}

/** A checked file about to be stored under its new, never reused key. */
export interface StoredFile {
  objectId: string;
  objectKey: string;
  bytes: Uint8Array;
  sha256: string;
  mimeType: string;
}

/** The commands that bring a file stored by {@link storeThenCommand}. */
type FileCommand = "uploadMedia" | "replaceMedia" | "setMediaOriginal";

/** The object a file command's answer names: the item's file (`media.object_id`) or an original (`original.id`). */
function answeredObjectId(body: unknown): string | undefined {
  const answer = body as { media?: Pick<MediaItem, "object_id">; original?: { id: string } };
  return answer.original?.id ?? answer.media?.object_id;
}

/**
 * The one store-then-write path of every command that brings a file (upload, replace, an original
 * by language): note the key in the site's object, put the object to R2, run the command; keep the
 * object only when a fresh answer names it (`media.object_id`, `original.id`), else delete it — a
 * refusal, a reuse or unchanged answer, a replay, or a batch that did not commit (checked by reading
 * whether the ledger names the key).
 */
export function storeThenCommand<K extends FileCommand>(call: CommandCall, file: StoredFile, name: K, input: CommandInput<K>): Promise<Response> {
  return storeWithThenCommand(call, file, name, async () => {
    await call.env.MEDIA.put(file.objectKey, file.bytes, { httpMetadata: { contentType: file.mimeType }, sha256: file.sha256 });
    return { input };
  });
}

/** What a store step hands on: the command's input, and the idempotency when only the stored bytes tell it. */
export interface Stored<K extends FileCommand> {
  input: CommandInput<K>;
  /** Replaces the call's idempotency (the admin streamed upload fingerprints the SHA-256 it streamed). */
  idempotency?: IdempotencyRequest;
}

/**
 * {@link storeThenCommand} with its own way of storing (the admin streamed upload streams into an R2
 * multipart upload): the key is noted before `store` runs; a `store` that refuses or fails has its
 * key deleted and settled (it cleans up what it began, e.g. aborts its multipart upload), then the
 * refusal is thrown; otherwise the command runs and the object is kept or deleted as above.
 */
export async function storeWithThenCommand<K extends FileCommand>(
  call: CommandCall,
  target: { objectId: string; objectKey: string },
  name: K,
  store: () => Promise<Stored<K>>,
): Promise<Response> {
  const { objectId, objectKey } = target;
  // Noted first: if this request stops before settling, the site's alarm removes the object.
  await siteObject(call.env, call.site.id).noteUpload(objectKey);
  let stored: Stored<K>;
  try {
    stored = await store();
  } catch (error) {
    await settleObject(call, objectKey, false);
    throw error;
  }
  const sending: CommandCall = stored.idempotency ? { ...call, idempotency: stored.idempotency } : call;

  let result: CommandResult<K>;
  try {
    result = await sendCommand(sending, name, stored.input);
  } catch (error) {
    // Refused, or a fault: delete the object unless a committed row names it (a fault after the
    // commit). If even that read fails, the note stays and the site's alarm decides later.
    const used = await mediaRepository(call.ctx.db, call.ctx.scope).objectKeyInUse(objectKey).catch(() => undefined);
    if (used !== undefined) await settleObject(call, objectKey, used);
    throw error;
  }
  await settleObject(call, objectKey, !result.replayed && answeredObjectId(result.body) === objectId);
  return commandResponse(result);
}

/**
 * Keeps or deletes the upload's object, then forgets its note in the site's object. A failed delete
 * or settle leaves the note, and the alarm finishes the job (it never deletes an object a row names).
 */
async function settleObject(call: CommandCall, objectKey: string, keep: boolean): Promise<void> {
  try {
    if (!keep) await call.env.MEDIA.delete(objectKey);
    await siteObject(call.env, call.site.id).settleUpload(objectKey);
  } catch (error) {
    console.error(JSON.stringify({ level: "warn", site_id: call.site.id, message: "upload object not settled; the alarm will", object_key: objectKey, error: String(error) }));
  }
}

/** GET /media/{id}: one item of the credential's site, in list shape; another site's id is 404. */
export async function getMedia(call: ManageCall): Promise<Response> {
  const id = call.params.id ?? "";
  const row = await mediaRepository(call.ctx.db, call.ctx.scope).findById(id);
  if (!row) throw new AppError("not_found", "No such media item.");
  return json({ media: mediaItem(row) });
}
