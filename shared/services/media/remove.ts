import { AppError } from "../../errors";
import { mediaRepository } from "../../repositories/media-repository";
import { mediaUsageRepository } from "../../repositories/media-usage-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { requireMediaPermission } from "./media-permission";
import { mediaItem, type MediaItem } from "./media-view";
import { readMediaUsage } from "./usage";

/** POST /media/{id}/remove as a command: the route's closed body plus the id. Plain data for DO RPC. */
export interface RemoveMediaInput {
  media_id: string;
  expected_revision?: number;
}

/**
 * What the batch commits as the answer: the item as it was. `storage_cleanup` is added after the
 * commit, from the R2 deletes (or, on a replay, from what is still to delete).
 */
export interface RemoveMediaAnswer {
  media: MediaItem;
}

/** The permission a removal needs (spec 2, Scopes: media:write needs `media:delete` to delete). */
export function assertMayRemove(ctx: Pick<LifecycleContext, "actor">): void {
  requireMediaPermission(ctx, "media:delete", "Removing media");
}

/**
 * POST /media/{id}/remove, inside the site's object (docs/media.md, "Remove"): permission
 * `media:delete`, the item (404), the revision (409 `media_changed`), then the usage index: any
 * use refuses it — 409 `media_usage_unreadable` when the caller may not read usage at all, else
 * 409 `media_in_use` with the usage fields. Otherwise one batch deletes the row, its object ledger
 * rows and its usage rows, guarded on the revision and on no use existing, with the
 * `media.removed` event, audit `media.remove` and the idempotency answer. The R2 objects the
 * ledger named are handed to the site's object to delete after the commit (`objectCleanup`).
 */
export async function removeMedia(ctx: LifecycleContext, input: RemoveMediaInput): Promise<WritePlan<RemoveMediaAnswer>> {
  assertMayRemove(ctx);
  const media = mediaRepository(ctx.db, ctx.scope);
  const row = await media.findById(input.media_id);
  if (!row) throw new AppError("not_found", "No such media item.");
  if (input.expected_revision !== undefined && input.expected_revision !== row.revision) {
    throw new AppError("media_changed", "The media item changed since you read it.", { current_revision: row.revision });
  }
  const { usage, in_use } = await readMediaUsage(ctx, row.id);
  if (in_use && usage.unreadable) {
    throw new AppError("media_usage_unreadable", "The file is used by content whose usage you may not read; nothing was removed.", { unreadable: true });
  }
  if (in_use) throw new AppError("media_in_use", "The file is used by content; nothing was removed.", { ...usage });

  const keys = [...new Set([row.object_key, ...(await media.objectKeysOf(row.id))])];
  const usageIndex = mediaUsageRepository(ctx.db, ctx.scope);
  return {
    statements: [usageIndex.guardUnused(row.id), ...media.removeStatements(row.id, row.revision), usageIndex.deleteOf(row.id)],
    answer: { media: mediaItem(row) },
    events: [{ name: "media.removed", payload: { media_id: row.id, kind: row.kind, objects: keys.length } }],
    // A stored copy of any of its files must stop being served at once (docs/media.md, "Edge cache").
    purgeTags: [cacheTag.media(row.id)],
    audit: { action: "media.remove", targetKind: "media", targetId: row.id, details: { sha256: row.sha256, file_name: row.file_name, revision: row.revision, objects: keys.length } },
    objectCleanup: { mediaId: row.id, objectKeys: keys },
  };
}
