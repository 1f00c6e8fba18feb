import type { RemoveMediaBody } from "../../../schema/manage-media-usage";
import type * as v from "valibot";
import { AppError } from "../../../shared/errors";
import { mediaRepository } from "../../../shared/repositories/media-repository";
import { assertMayRemove } from "../../../shared/services/media/remove";
import { readMediaUsage } from "../../../shared/services/media/usage";
import { siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandResponse, sendCommand } from "../respond";

/** GET /media/{id}/usage (docs/media.md, "Usage"): the item of this site (else 404), then its usage answer. */
export async function getMediaUsage(call: ManageCall): Promise<Response> {
  const id = call.params.id ?? "";
  const row = await mediaRepository(call.ctx.db, call.ctx.scope).findById(id);
  if (!row) throw new AppError("not_found", "No such media item.");
  const { usage } = await readMediaUsage(call.ctx, row.id);
  return json({ media_id: row.id, ...usage });
}

/**
 * POST /media/{id}/remove (docs/media.md, "Remove"): the permission is asked here and again inside
 * the write; everything about the item (404, revision, usage) only inside it, so a retry of a
 * committed removal reaches the object's idempotency ledger and is replayed instead of answered 404.
 * The answer adds `storage_cleanup`: from the deletes that followed the commit, or, on a replay, from
 * what is still to delete after one more try.
 */
export async function removeMedia(call: ManageCall): Promise<Response> {
  assertMayRemove(call.ctx);
  const mediaId = call.params.id ?? "";
  const { expected_revision } = call.body as v.InferOutput<typeof RemoveMediaBody>;
  const result = await sendCommand(call, "removeMedia", { media_id: mediaId, ...(expected_revision !== undefined ? { expected_revision } : {}) });
  const storage_cleanup = result.cleanup ?? (await siteObject(call.env, call.site.id).retryMediaCleanup(mediaId));
  return commandResponse({ ...result, body: { ...result.body, storage_cleanup } as typeof result.body });
}
