import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { MediaItem } from "./manage-media";
import { wellFormed } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const FolderName = v.pipe(
  v.string(),
  v.maxLength(1000),
  wellFormed(),
  v.description(
    "1 to 80 characters (code points) after trimming, stored in NFC; without control, bidirectional control or other invisible format characters (Unicode Cf); unique under its parent regardless of case and Unicode normalisation form",
  ),
);

/** A media folder (spec 2, "Media item", folder object); subtree counts include the folder itself. */
export const MediaFolder = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    parent_id: v.nullable(v.string()),
    revision: v.number(),
    depth: v.pipe(v.number(), v.description("1 = top level")),
    media_count: v.pipe(v.number(), v.description("Files directly in this folder")),
    subtree_folder_count: v.pipe(v.number(), v.description("This folder and every folder below it")),
    subtree_media_count: v.pipe(v.number(), v.description("Files in this folder and every folder below it")),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  v.title("MediaFolder"),
);

const FolderAnswer = v.object({ folder: MediaFolder, replayed: v.optional(v.boolean()) });

export const CreateMediaFolderBody = v.strictObject({ name: FolderName, parent_id: v.optional(v.nullable(Id)) });
export const UpdateMediaFolderBody = v.strictObject({
  expected_revision: Revision,
  name: v.optional(FolderName),
  parent_id: v.optional(v.nullable(Id)),
});
export const RemoveMediaFolderBody = v.strictObject({
  expected_revision: Revision,
  expected_folders: v.pipe(Count, v.description("The folder's subtree_folder_count as read (itself included)")),
  expected_media: v.pipe(Count, v.description("The folder's subtree_media_count as read")),
});
export const MoveMediaBody = v.strictObject({
  ids: v.pipe(v.array(Id), v.minLength(1), v.maxLength(1000), v.description("1 to 200 distinct ids (a repeated id counts once; at most 1000 entries sent)")),
  folder_id: v.nullable(Id),
});

const COMMON = ["unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;
const WRITE = [...COMMON, "invalid_request", "missing_permission", "idempotency_in_progress", "idempotency_key_reused"] as const;

/** Media folders and moves (docs/media.md, "Folders"): logical only, no file or address moves. */
export const mediaFolderRoutes: readonly RouteSpec[] = [
  {
    operationId: "listMediaFolders",
    method: "get",
    path: "/media/folders",
    summary: "The whole folder tree depth first, with unfiled and total file counts and the limits",
    scope: "content:read",
    response: v.object({
      folders: v.array(MediaFolder),
      unfiled: v.number(),
      total: v.number(),
      limits: v.object({ max_depth: v.number(), max_folders: v.number(), name_max: v.number(), streamed_max_bytes: v.number() }),
    }),
    errors: [...COMMON],
  },
  {
    operationId: "createMediaFolder",
    method: "post",
    path: "/media/folders",
    summary: "Create a folder (top level, or under parent_id)",
    scope: "media:write",
    idempotent: true,
    body: CreateMediaFolderBody,
    status: 201,
    response: FolderAnswer,
    errors: [...WRITE, "media_folder_exists", "media_folder_too_deep", "media_folder_limit", "media_folder_not_found"],
  },
  {
    operationId: "updateMediaFolder",
    destructive: true,
    method: "put",
    path: "/media/folders/{id}",
    summary: "Rename and/or move a folder (with the folders below it)",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id }),
    body: UpdateMediaFolderBody,
    response: FolderAnswer,
    errors: [...WRITE, "media_folder_exists", "media_folder_cycle", "media_folder_too_deep", "media_folder_not_found", "media_folder_changed"],
  },
  {
    operationId: "removeMediaFolder",
    destructive: true,
    repeatable: true,
    method: "post",
    path: "/media/folders/{id}/remove",
    summary: "Delete a folder and every folder below it; their files become Unfiled",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id }),
    body: RemoveMediaFolderBody,
    response: v.object({
      folder: MediaFolder,
      removed: v.object({ folder_ids: v.array(v.string()), folders: v.number(), media_unfiled: v.number() }),
      replayed: v.optional(v.boolean()),
    }),
    errors: [...WRITE, "media_folder_not_found", "media_folder_changed"],
  },
  {
    operationId: "moveMedia",
    repeatable: true,
    method: "post",
    path: "/media/move",
    summary: "Move 1 to 200 files into a folder, or Unfiled with folder_id null",
    scope: "media:write",
    idempotent: true,
    body: MoveMediaBody,
    response: v.object({ media: v.array(MediaItem), folder_id: v.nullable(v.string()), replayed: v.optional(v.boolean()) }),
    errors: [...WRITE, "not_found", "media_folder_not_found"],
  },
];
