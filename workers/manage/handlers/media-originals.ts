import type { RemoveMediaOriginalBody, SetMediaOriginalFields } from "../../../schema/manage-media-originals";
import type * as v from "valibot";
import { AppError } from "../../../shared/errors";
import { mediaOriginalsRepository } from "../../../shared/repositories/media-originals-repository";
import { mediaRepository } from "../../../shared/repositories/media-repository";
import { inspectMedia } from "../../../shared/services/media/inspect";
import { newObjectKey } from "../../../shared/services/media/object-keys";
import { originalTarget } from "../../../shared/services/media/original-writes";
import { defaultOriginalOf, originalsByLanguage, originalsOf, originalView } from "../../../shared/services/media/originals";
import { assertReplaceable } from "../../../shared/services/media/replace";
import { storedFileOf, uploadOptions } from "../../../shared/services/media/upload-fields";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";
import { storeThenCommand } from "./media";

/**
 * GET /media/{id}/originals (docs/media.md, "Originals by language"): the item's own file (the
 * default original, `lang` null), each language's override, and per language of the site the
 * original it resolves to along the site's fallback order. `url` only for publicly served objects.
 */
export async function listMediaOriginals(call: ManageCall): Promise<Response> {
  const row = await mediaRepository(call.ctx.db, call.ctx.scope).findById(call.params.id ?? "");
  if (!row) throw new AppError("not_found", "No such media item.");
  const overrides = (await originalsOf(call.ctx, [row.id])).get(row.id) ?? new Map();
  const pinned = await mediaOriginalsRepository(call.ctx.db, call.ctx.scope).pinnedKeys([row.id]);
  const fallback = defaultOriginalOf(row);
  return json({
    media_id: row.id,
    originals: [fallback, ...overrides.values()].map((file) => originalView(row.id, file, pinned)),
    by_language: originalsByLanguage(call.site, overrides, fallback),
  });
}

/**
 * PUT /media/{id}/originals/{lang}: `media:update` → the item of this site (404) → a language of the
 * site (422) → the upload's content checks → the item's kind (409) → R2 put under a new key of the
 * item → command `setMediaOriginal` through the upload's store-then-write path. The pointer
 * (`expected_object_id`) is the object's to check, so a retry of a committed write is replayed.
 */
export async function setMediaOriginal(call: ManageCall): Promise<Response> {
  const upload = call.upload;
  if (!upload) throw new AppError("invalid_request", 'The original needs a "file" part.', { field: "file" });
  const lang = call.params.lang ?? "";
  const row = await originalTarget(call.ctx, call.params.id ?? "", lang);
  const { expected_object_id, ...claimFields } = call.body as SetMediaOriginalFields;

  const { claims } = uploadOptions(claimFields, upload, call.site.languages);
  const inspected = await inspectMedia(upload.bytes, claims, call.site.settings.media.allowed);
  assertReplaceable(row, undefined, inspected.kind);

  const stored = newObjectKey(call.site.id, row.id);
  return storeThenCommand(call, { ...stored, bytes: upload.bytes, sha256: upload.sha256, mimeType: inspected.mimeType }, "setMediaOriginal", {
    ...storedFileOf({ mediaId: row.id, objectKey: stored.objectKey }, { byteLength: upload.bytes.byteLength, sha256: upload.sha256 }, inspected, claims.fileName),
    lang,
    expected_object_id,
  });
}

/** DELETE /media/{id}/originals/{lang}: command `removeMediaOriginal` (permission, item, language, pointer inside the write). */
export async function removeMediaOriginal(call: ManageCall): Promise<Response> {
  const { expected_object_id } = call.body as v.InferOutput<typeof RemoveMediaOriginalBody>;
  return runCommand(call, "removeMediaOriginal", { media_id: call.params.id ?? "", lang: call.params.lang ?? "", expected_object_id });
}
