import type * as v from "valibot";
import type { CreateMediaFolderBody, MoveMediaBody, RemoveMediaFolderBody, UpdateMediaFolderBody } from "../../../schema/manage-media-folders";
import { mediaFolderRepository } from "../../../shared/repositories/media-folder-repository";
import { FolderTree, MEDIA_FOLDER_LIMITS } from "../../../shared/services/media/folder-tree";
import { streamedLimit } from "../../../shared/services/media/streamed-limit";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/**
 * GET /media/folders: the whole tree depth first, plus unfiled, total and the limits — the folders'
 * and `streamed_max_bytes`, the admin streamed upload's (spec 2, Limits).
 */
export async function listMediaFolders(call: ManageCall): Promise<Response> {
  const repo = mediaFolderRepository(call.ctx.db, call.ctx.scope);
  const [rows, counts] = await Promise.all([repo.all(), repo.mediaCounts()]);
  const tree = new FolderTree(rows, counts);
  return json({ folders: tree.list(), unfiled: tree.unfiled(), total: tree.total(), limits: { ...MEDIA_FOLDER_LIMITS, streamed_max_bytes: streamedLimit(call.env).maxBytes } });
}

/** POST /media/folders → 201 `{ folder }`. */
export function createMediaFolder(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof CreateMediaFolderBody>;
  return runCommand(call, "createMediaFolder", { name: body.name, ...(body.parent_id !== undefined ? { parent_id: body.parent_id } : {}) });
}

/** PUT /media/folders/{id}: rename and/or move. */
export function updateMediaFolder(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof UpdateMediaFolderBody>;
  return runCommand(call, "updateMediaFolder", {
    folder_id: call.params.id ?? "",
    expected_revision: body.expected_revision,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.parent_id !== undefined ? { parent_id: body.parent_id } : {}),
  });
}

/** POST /media/folders/{id}/remove: the subtree's folders go, its files become Unfiled. */
export function removeMediaFolder(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof RemoveMediaFolderBody>;
  return runCommand(call, "removeMediaFolder", { folder_id: call.params.id ?? "", ...body });
}

/** POST /media/move: 1 to 200 files into a folder or Unfiled. */
export function moveMedia(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof MoveMediaBody>;
  return runCommand(call, "moveMedia", { ids: body.ids, folder_id: body.folder_id });
}
