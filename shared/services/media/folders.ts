import { requireMediaPermission } from "./media-permission";
import { isoAt } from "../../clock";
import { guard } from "../../db/batch";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { mediaFolderRepository } from "../../repositories/media-folder-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { FolderTree, folderKey, folderName, MEDIA_FOLDER_LIMITS, type MediaFolderView } from "./folder-tree";

/** Folders and moves need media:update (spec 2, Scopes), asked inside the write. */
export function assertMayManageFolders(ctx: Pick<LifecycleContext, "actor">): void {
  requireMediaPermission(ctx, "media:update", "Managing media folders");
}

async function loadTree(ctx: LifecycleContext): Promise<FolderTree> {
  const repo = mediaFolderRepository(ctx.db, ctx.scope);
  const [rows, counts] = await Promise.all([repo.all(), repo.mediaCounts()]);
  return new FolderTree(rows, counts);
}

function validName(sent: string): { name: string; name_key: string } {
  const named = folderName(sent);
  if (!named) {
    throw new AppError("invalid_request", `A folder name is 1 to ${MEDIA_FOLDER_LIMITS.name_max} characters (trimmed), well-formed, without control, bidirectional control or other invisible format characters.`, { field: "name" });
  }
  return named;
}

function notFound(id: string): AppError {
  return new AppError("media_folder_not_found", "No such media folder.", { folder_id: id });
}

/** The existing sibling with this name (any case, any Unicode normalisation form), other than `self`. */
function sibling(tree: FolderTree, parentId: string | null, nameKey: string, self?: string): MediaFolderView | undefined {
  const found = tree.children(parentId).find((f) => folderKey(f) === nameKey && f.id !== self);
  return found ? tree.view(found.id) : undefined;
}

function assertUnique(tree: FolderTree, parentId: string | null, nameKey: string, self?: string): void {
  const existing = sibling(tree, parentId, nameKey, self);
  if (existing) throw new AppError("media_folder_exists", "A folder with this name (in any case or Unicode form) already exists there.", { folder: existing });
}

/** In the batch: the folder is still at the revision this plan read (else nothing is written). */
function revisionGuard(ctx: LifecycleContext, id: string, revision: number) {
  return guard(ctx.db, "media_folder_changed", "EXISTS (SELECT 1 FROM media_folders WHERE site_id = ? AND id = ? AND revision = ?)", [ctx.site.id, id, revision]);
}

/** In the batch: the folder exists (an upload or move into a folder removed meanwhile is refused). */
export function folderExistsGuard(ctx: LifecycleContext, id: string) {
  return guard(ctx.db, "media_folder_not_found", "EXISTS (SELECT 1 FROM media_folders WHERE site_id = ? AND id = ?)", [ctx.site.id, id]);
}

/** Whether the site has this folder (read inside the write). */
export async function folderExists(ctx: LifecycleContext, id: string): Promise<boolean> {
  return (await mediaFolderRepository(ctx.db, ctx.scope).findById(id)) !== undefined;
}

export interface CreateFolderInput {
  name: string;
  parent_id?: string | null;
}

/** POST /media/folders → 201 `{ folder }`. */
export async function createFolder(ctx: LifecycleContext, input: CreateFolderInput): Promise<WritePlan<{ folder: MediaFolderView }>> {
  assertMayManageFolders(ctx);
  const named = validName(input.name);
  const tree = await loadTree(ctx);
  const parentId = input.parent_id ?? null;
  if (parentId !== null && !tree.byId.has(parentId)) throw notFound(parentId);
  assertUnique(tree, parentId, named.name_key);
  const depth = parentId === null ? 1 : tree.depth(parentId) + 1;
  if (depth > MEDIA_FOLDER_LIMITS.max_depth) {
    throw new AppError("media_folder_too_deep", `Folders nest at most ${MEDIA_FOLDER_LIMITS.max_depth} levels.`, { max_depth: MEDIA_FOLDER_LIMITS.max_depth, depth });
  }
  if (tree.rows.length >= MEDIA_FOLDER_LIMITS.max_folders) {
    throw new AppError("media_folder_limit", `A site has at most ${MEDIA_FOLDER_LIMITS.max_folders} media folders.`, { max_folders: MEDIA_FOLDER_LIMITS.max_folders });
  }
  const at = isoAt(ctx.clock.now());
  const row = { id: newId("mfd"), parent_id: parentId, ...named, revision: 0, created_at: at, updated_at: at };
  const repo = mediaFolderRepository(ctx.db, ctx.scope);
  const after = new FolderTree([...tree.rows, { ...row, site_id: ctx.site.id }], tree.mediaCounts);
  return {
    statements: [...(parentId !== null ? [folderExistsGuard(ctx, parentId)] : []), repo.insert(row)],
    answer: { folder: after.view(row.id) },
    events: [{ name: "media.folder.created", payload: { folder_id: row.id, parent_id: parentId } }],
    purgeTags: [],
    audit: { action: "media.folder.create", targetKind: "media_folder", targetId: row.id, details: { name: row.name, parent_id: parentId } },
    status: 201,
  };
}

export interface UpdateFolderInput {
  folder_id: string;
  expected_revision: number;
  name?: string;
  parent_id?: string | null;
}

/** PUT /media/folders/{id}: rename and/or move (logical; files and addresses stay) → 200 `{ folder }`. */
export async function updateFolder(ctx: LifecycleContext, input: UpdateFolderInput): Promise<WritePlan<{ folder: MediaFolderView }>> {
  assertMayManageFolders(ctx);
  if (input.name === undefined && input.parent_id === undefined) {
    throw new AppError("invalid_request", "Name a new name, a new parent_id, or both.", { fields: ["name", "parent_id"] });
  }
  const named = input.name === undefined ? undefined : validName(input.name);
  const tree = await loadTree(ctx);
  const row = tree.byId.get(input.folder_id);
  if (!row) throw notFound(input.folder_id);
  if (row.revision !== input.expected_revision) {
    throw new AppError("media_folder_changed", "The folder changed since you read it.", { folder: tree.view(row.id) });
  }
  const parentId = input.parent_id === undefined ? row.parent_id : input.parent_id;
  if (parentId !== null && !tree.byId.has(parentId)) throw notFound(parentId);
  if (parentId !== row.parent_id && parentId !== null) {
    if (tree.subtree(row.id).some((f) => f.id === parentId)) {
      throw new AppError("media_folder_cycle", "A folder cannot move under itself or a folder below it.", { folder_id: row.id, parent_id: parentId });
    }
  }
  const depth = (parentId === null ? 0 : tree.depth(parentId)) + tree.height(row.id);
  if (parentId !== row.parent_id && depth > MEDIA_FOLDER_LIMITS.max_depth) {
    throw new AppError("media_folder_too_deep", `Folders nest at most ${MEDIA_FOLDER_LIMITS.max_depth} levels; the moved folder and those below it would reach ${depth}.`, { max_depth: MEDIA_FOLDER_LIMITS.max_depth, depth });
  }
  // A row stored before keys were NFC and case folded gets its key now (its name is kept).
  const next = named ?? { name: row.name, name_key: folderKey(row) };
  assertUnique(tree, parentId, next.name_key, row.id);
  const at = isoAt(ctx.clock.now());
  const updated = { ...row, ...next, parent_id: parentId, revision: row.revision + 1, updated_at: at };
  const after = new FolderTree(tree.rows.map((r) => (r.id === row.id ? updated : r)), tree.mediaCounts);
  const repo = mediaFolderRepository(ctx.db, ctx.scope);
  return {
    statements: [
      revisionGuard(ctx, row.id, row.revision),
      ...(parentId !== null ? [folderExistsGuard(ctx, parentId)] : []),
      repo.update(row.id, row.revision, { ...next, parent_id: parentId, updated_at: at }),
    ],
    answer: { folder: after.view(row.id) },
    events: [{ name: "media.folder.updated", payload: { folder_id: row.id, parent_id: parentId, moved: parentId !== row.parent_id, renamed: next.name !== row.name } }],
    purgeTags: [],
    audit: { action: "media.folder.update", targetKind: "media_folder", targetId: row.id, details: { name: next.name, parent_id: parentId } },
  };
}

export interface RemoveFolderInput {
  folder_id: string;
  expected_revision: number;
  /** The folder's `subtree_folder_count` as the caller saw it (the folder itself included). */
  expected_folders: number;
  /** The folder's `subtree_media_count` as the caller saw it. */
  expected_media: number;
}

export interface RemoveFolderAnswer {
  /** The removed folder as it was just before. */
  folder: MediaFolderView;
  removed: { folder_ids: string[]; folders: number; media_unfiled: number };
}

/**
 * POST /media/folders/{id}/remove: deletes the folder and every folder below it, no file; their
 * files become Unfiled in the same batch (spec 2 rule 4). Refused with media_folder_changed when the
 * revision or either count differs from what the caller saw.
 */
export async function removeFolder(ctx: LifecycleContext, input: RemoveFolderInput): Promise<WritePlan<RemoveFolderAnswer>> {
  assertMayManageFolders(ctx);
  const tree = await loadTree(ctx);
  const row = tree.byId.get(input.folder_id);
  if (!row) throw notFound(input.folder_id);
  const view = tree.view(row.id);
  if (view.revision !== input.expected_revision || view.subtree_folder_count !== input.expected_folders || view.subtree_media_count !== input.expected_media) {
    throw new AppError("media_folder_changed", "The folder or what it holds changed since you read it.", { folder: view });
  }
  const at = isoAt(ctx.clock.now());
  const repo = mediaFolderRepository(ctx.db, ctx.scope);
  const ids = tree.subtree(row.id).map((f) => f.id);
  return {
    // Guarded on the revision; the DO serialises folder and media writes, so the counts read here hold.
    statements: [revisionGuard(ctx, row.id, row.revision), repo.unfileSubtree(row.id, at), repo.removeSubtree(row.id)],
    answer: { folder: view, removed: { folder_ids: ids, folders: ids.length, media_unfiled: view.subtree_media_count } },
    events: [{ name: "media.folder.removed", payload: { folder_id: row.id, folders: ids.length, media_unfiled: view.subtree_media_count } }],
    purgeTags: [],
    audit: { action: "media.folder.remove", targetKind: "media_folder", targetId: row.id, details: { folders: ids.length, media_unfiled: view.subtree_media_count } },
  };
}
