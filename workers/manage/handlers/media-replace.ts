import type { ReplaceMediaFields } from "../../../schema/manage-media-replace";
import { AppError } from "../../../shared/errors";
import { mediaRepository } from "../../../shared/repositories/media-repository";
import { inspectMedia } from "../../../shared/services/media/inspect";
import { newObjectKey } from "../../../shared/services/media/object-keys";
import { assertMayReplace, assertReplaceable } from "../../../shared/services/media/replace";
import { storedFileOf, uploadOptions } from "../../../shared/services/media/upload-fields";
import type { CommandInput } from "../../../objects/site/command-registry";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";
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
  // Only what a committed replace cannot change is checked here (its kind), so a retry of a
  // committed replace still reaches the object and is replayed; the revision is the object's to
  // check (a stale one stores the object, then deletes it on the refusal). An item that is gone
  // (never existed, another site's, or removed since) is asked of the object too, storing nothing:
  // a committed replace of an item removed since is replayed, anything else is its 404.
  const found = await mediaRepository(call.ctx.db, call.ctx.scope).findById(mediaId);
  if (!found) return runCommand(call, "replaceMedia", goneItem(mediaId));
  const row = assertReplaceable(found, undefined);

  const { claims } = uploadOptions(claimFields, upload, call.site.languages);
  const inspected = await inspectMedia(upload.bytes, claims, call.site.settings.media.allowed);
  assertReplaceable(row, undefined, inspected.kind);

  const stored = newObjectKey(call.site.id, row.id);
  return storeThenCommand(call, { ...stored, bytes: upload.bytes, sha256: upload.sha256, mimeType: inspected.mimeType }, "replaceMedia", {
    ...storedFileOf({ mediaId: row.id, objectKey: stored.objectKey }, { byteLength: upload.bytes.byteLength, sha256: upload.sha256 }, inspected, claims.fileName),
    ...(expectedRevision !== undefined ? { expected_revision: expectedRevision } : {}),
  });
}

/**
 * The input of a replace of an item the router did not find: no file was stored and none is named,
 * so the object's write answers either the replay of a committed replace under this key or 404
 * `not_found` (the item is read before the input's file is looked at).
 */
function goneItem(mediaId: string): CommandInput<"replaceMedia"> {
  return { media_id: mediaId, object_key: "", kind: "file", file_name: "", mime_type: "", byte_length: 0, sha256: "", width: null, height: null };
}
