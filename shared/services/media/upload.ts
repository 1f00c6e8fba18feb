import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { mediaRepository } from "../../repositories/media-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { folderExists, folderExistsGuard } from "./folders";
import { objectFacts, requireMediaPermission, type StoredFile } from "./media-permission";
import { mediaItem, type MediaItem } from "./media-view";

/** What to do when the site already holds the same bytes (spec 2 rule 3). */
export type OnDuplicate = "ask" | "use_existing" | "copy";

/**
 * An upload whose bytes were checked and stored in R2 by the router (docs/media.md): what the bytes
 * are, where they are, and what the caller named. Plain data, so it crosses Durable Object RPC.
 */
export interface UploadMediaInput extends StoredFile {
  /** Present when the caller named alt texts (else an edited copy takes its source's). */
  alt_texts?: Record<string, string>;
  /** Present when the caller named a folder: null is Unfiled. */
  folder_id?: string | null;
  edited_from?: string;
  on_duplicate: OnDuplicate;
  /** The item's credit (a media source's attribution); else none. */
  credit?: string | null;
  /** The plugin media source the file was imported from (docs/media.md, "Media sources"): kept in the audit row. */
  imported_from?: { installation_id: string; source_id: string; item_id: string };
  /**
   * A linked external item (a media source's `reference` mode; docs/media.md, "Linked items"): the
   * file's address at the plugin, no R2 object stored (`object_key` names none; the object ledger
   * lists it as the item's file). Delivery redirects to it; it cannot be replaced.
   */
  external_url?: string;
}

export interface UploadMediaAnswer {
  media: MediaItem;
  /** Only on `use_existing` when the bytes were already held: the existing item, nothing stored. */
  reused?: true;
}

/** The permission an upload needs; asked by the router before storing bytes and again here. */
export function assertMayUpload(ctx: Pick<LifecycleContext, "actor">): void {
  requireMediaPermission(ctx, "media:upload", "Uploading media");
}

/**
 * POST /media, inside the site's object (so duplicate checks and writes are serialised): permission,
 * folder, edit source, then the duplicate rule; the new row commits in one batch with the
 * idempotency answer and audit row (commitPlan). A 201 stores the row naming the router's R2 object;
 * a reuse (200) or a refusal stores nothing, and the router deletes that object.
 */
export async function uploadMedia(ctx: LifecycleContext, input: UploadMediaInput): Promise<WritePlan<UploadMediaAnswer>> {
  assertMayUpload(ctx);
  const media = mediaRepository(ctx.db, ctx.scope);
  // A named folder must be one of the site's; the batch checks it again (removed meanwhile → refused).
  if (input.folder_id !== undefined && input.folder_id !== null && !(await folderExists(ctx, input.folder_id))) {
    throw new AppError("media_folder_not_found", "No such media folder.", { folder_id: input.folder_id });
  }
  const source = input.edited_from === undefined ? undefined : await media.findById(input.edited_from);
  if (input.edited_from !== undefined && !source) {
    throw new AppError("media_edit_source_not_found", "The file this upload was edited from does not exist.", { edited_from: input.edited_from });
  }

  const same = await media.findBySha256(input.sha256);
  const existing = same[0];
  if (existing && input.on_duplicate === "ask") {
    throw new AppError("media_duplicate", "The site already holds this file.", { existing: mediaItem(existing), copies: same.length });
  }
  if (existing && input.on_duplicate === "use_existing") {
    // Nothing is written but the answer (and its idempotency row), so a retry replays the same item.
    return {
      statements: [],
      answer: { media: mediaItem(existing), reused: true },
      events: [],
      purgeTags: [],
      audit: { action: "media.upload_reused", targetKind: "media", targetId: existing.id, details: { sha256: input.sha256 } },
      status: 200,
    };
  }

  const at = isoAt(ctx.clock.now());
  const row = {
    id: input.media_id,
    kind: input.kind,
    ...objectFacts(input),
    alt_texts: input.alt_texts !== undefined ? JSON.stringify(input.alt_texts) : (source?.alt_texts ?? "{}"),
    default_focal: null,
    crop: null,
    loading: "lazy",
    fetch_priority: "auto",
    folder_id: input.folder_id !== undefined ? input.folder_id : await inheritedFolder(ctx, source?.folder_id ?? null),
    tags: source?.tags ?? "[]",
    credit: input.credit ?? null,
    edited_from: source?.id ?? null,
    created_by: ctx.actor.id,
    external_url: input.external_url ?? null,
    revision: 0,
    created_at: at,
    updated_at: at,
  };
  return {
    // A linked item's key names no stored object, but the ledger still lists it: published items pin
    // it like any file (delivery then redirects), and removal's delete of a missing key is a no-op.
    statements: [...(row.folder_id !== null ? [folderExistsGuard(ctx, row.folder_id)] : []), media.insert(row), media.recordCurrentFile(row.id)],
    answer: { media: mediaItem({ ...row, site_id: ctx.site.id }) },
    events: [{ name: "media.uploaded", payload: { media_id: row.id, kind: row.kind, edited_from: row.edited_from } }],
    purgeTags: [],
    audit: { action: "media.upload", targetKind: "media", targetId: row.id, details: { sha256: input.sha256, kind: input.kind, edited_from: row.edited_from, ...(input.imported_from ? { imported_from: input.imported_from } : {}), ...(row.external_url !== null ? { linked: true } : {}) } },
    status: 201,
  };
}

/** An edited copy takes its source's folder while that folder exists; else Unfiled. */
async function inheritedFolder(ctx: LifecycleContext, folderId: string | null): Promise<string | null> {
  return folderId !== null && (await folderExists(ctx, folderId)) ? folderId : null;
}
