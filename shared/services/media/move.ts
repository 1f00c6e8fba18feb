import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { mediaFolderRepository } from "../../repositories/media-folder-repository";
import type { MediaRow } from "../../repositories/media-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { assertMayManageFolders, folderExistsGuard } from "./folders";
import { mediaItem, type MediaItem } from "./media-view";

/** Spec 2, Limits: files per move. */
export const MEDIA_MOVE_MAX = 200;

export interface MoveMediaInput {
  ids: string[];
  folder_id: string | null;
}

/**
 * POST /media/move: files of the site into a folder or Unfiled (logical: no object or address
 * moves; revisions stay, so an edit begun before a move still applies). All or nothing: an id the
 * site does not hold → 404 not_found naming every such id.
 */
export async function moveMedia(ctx: LifecycleContext, input: MoveMediaInput): Promise<WritePlan<{ media: MediaItem[]; folder_id: string | null }>> {
  assertMayManageFolders(ctx);
  const ids = [...new Set(input.ids)];
  if (ids.length < 1 || ids.length > MEDIA_MOVE_MAX) {
    throw new AppError("invalid_request", `Move 1 to ${MEDIA_MOVE_MAX} files.`, { field: "ids", max: MEDIA_MOVE_MAX });
  }
  const folders = mediaFolderRepository(ctx.db, ctx.scope);
  if (input.folder_id !== null && !(await folders.findById(input.folder_id))) {
    throw new AppError("media_folder_not_found", "No such media folder.", { folder_id: input.folder_id });
  }
  const rows = await folders.mediaByIds(ids);
  const found = new Map(rows.map((r) => [r.id, r]));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new AppError("not_found", "No such media items in this site.", { ids: unknown });
  const at = isoAt(ctx.clock.now());
  const moved = ids.map((id) => mediaItem({ ...(found.get(id) as MediaRow), folder_id: input.folder_id, updated_at: at }));
  return {
    statements: [...(input.folder_id !== null ? [folderExistsGuard(ctx, input.folder_id)] : []), ...folders.moveMedia(ids, input.folder_id, at)],
    answer: { media: moved, folder_id: input.folder_id },
    events: [{ name: "media.moved", payload: { media_ids: ids, folder_id: input.folder_id } }],
    purgeTags: [],
    audit: { action: "media.move", targetKind: "media_folder", targetId: input.folder_id ?? "unfiled", details: { media_ids: ids } },
  };
}
