import type { ReplaceMediaFields } from "../../../schema/manage-media-replace";
import { AppError } from "../../../shared/errors";
import { mediaRepository } from "../../../shared/repositories/media-repository";
import { inspectMedia } from "../../../shared/services/media/inspect";
import { newObjectKey } from "../../../shared/services/media/object-keys";
import { assertMayReplace, assertReplaceable } from "../../../shared/services/media/replace";
import { uploadOptions } from "../../../shared/services/media/upload-fields";
import type { ManageCall } from "../context";
import { storeThenCommand } from "./media";

/**
 * POST /media/{id}/replace (docs/media.md, "Replace"): authorise (`media:update`) → the item of this
 * site (404) → the upload's content checks → same kind (409) → R2 put under a
 * new key for the same item → command `replaceMedia` in the site's object, through the upload's
 * store-then-write path (`storeThenCommand`: note, put, keep or delete, settle). The object checks
 * permission, item and kind again, then the revision, inside the write.
 */
export async function replaceMedia(call: ManageCall): Promise<Response> {
  const upload = call.upload;
  if (!upload) throw new AppError("invalid_request", 'The replace needs a "file" part.', { field: "file" });
  assertMayReplace(call.ctx);
  const { expected_revision, ...claimFields } = call.body as ReplaceMediaFields;
  const expectedRevision = expected_revision === undefined ? undefined : Number(expected_revision);
  const mediaId = call.params.id ?? "";
  // Only what a committed replace cannot change is checked here (item of this site, its kind), so a
  // retry of a committed replace still reaches the object and is replayed; the revision is the
  // object's to check (a stale one stores the object, then deletes it on the refusal).
  const row = assertReplaceable(await mediaRepository(call.ctx.db, call.ctx.scope).findById(mediaId), undefined);

  const { claims } = uploadOptions(claimFields, upload, call.site.languages);
  const inspected = await inspectMedia(upload.bytes, claims, call.site.settings.media.allowed);
  assertReplaceable(row, undefined, inspected.kind);

  const stored = newObjectKey(call.site.id, row.id);
  return storeThenCommand(call, { ...stored, bytes: upload.bytes, sha256: upload.sha256, mimeType: inspected.mimeType }, "replaceMedia", {
    media_id: row.id,
    object_key: stored.objectKey,
    kind: inspected.kind,
    file_name: claims.fileName,
    mime_type: inspected.mimeType,
    byte_length: upload.bytes.byteLength,
    sha256: upload.sha256,
    width: inspected.width,
    height: inspected.height,
    ...(expectedRevision !== undefined ? { expected_revision: expectedRevision } : {}),
  });
}
