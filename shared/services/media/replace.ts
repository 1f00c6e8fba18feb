import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { mediaReplaceStatement } from "../../repositories/media-list";
import { mediaRepository, type MediaRow } from "../../repositories/media-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import type { MediaKind } from "./formats";
import { objectFacts, requireMediaPermission, type StoredFile } from "./media-permission";
import { mediaItem, type MediaItem } from "./media-view";
import { objectIdOf } from "./object-keys";

/**
 * A replacement file checked and stored in R2 by the router (docs/media.md, "Replace"): the item,
 * the new object and what its bytes are. Plain data, so it crosses Durable Object RPC.
 */
export interface ReplaceMediaInput extends StoredFile {
  expected_revision?: number;
}

export interface ReplaceMediaAnswer {
  media: MediaItem;
  /** The file sent is the item's current bytes: nothing changed (no revision, no event). */
  unchanged?: true;
}

/** The permission a replace needs; asked by the router before storing bytes and again here. */
export function assertMayReplace(ctx: Pick<LifecycleContext, "actor">): void {
  requireMediaPermission(ctx, "media:update", "Replacing media");
}

/**
 * What the router and the object both check about the item before a replace: of this site (else
 * `not_found`), not a linked external item (else `media_linked`), at the expected revision (else `media_changed`), of the file's kind (else
 * `media_kind_mismatch`). The kind is checked only once the bytes are known.
 */
export function assertReplaceable(row: MediaRow | undefined, expectedRevision: number | undefined, kind?: MediaKind): MediaRow {
  if (!row) throw new AppError("not_found", "No such media item.");
  // Spec 2 rule 6: linked external media cannot be replaced (nor given originals: its file is the plugin's).
  if (row.external_url) throw new AppError("media_linked", "This item is linked from a plugin's media source; its file cannot be replaced. Import the file by copy to manage it here.", { external_url: row.external_url });
  if (expectedRevision !== undefined && expectedRevision !== row.revision) {
    throw new AppError("media_changed", "The media item changed since you read it.", { current_revision: row.revision });
  }
  if (kind !== undefined && kind !== row.kind) {
    throw new AppError("media_kind_mismatch", `A ${row.kind} can only be replaced by a file of the same kind.`, { kind: row.kind, found: kind });
  }
  return row;
}

/**
 * POST /media/{id}/replace, inside the site's object: permission `media:update`, the item, the
 * revision, the kind; the item's own current bytes are a no-op (200, `unchanged: true`, only the
 * idempotency answer and an audit row). Otherwise the row points at the new object with the new
 * file name, type, length, SHA-256 and dimensions, `revision` + 1; alt texts, framing, folder,
 * tags, credit and id are kept. Row, `media.replaced` event, audit `media.replace` and the
 * idempotency answer commit in one batch (commitPlan). The old object is never deleted here.
 */
export async function replaceMedia(ctx: LifecycleContext, input: ReplaceMediaInput): Promise<WritePlan<ReplaceMediaAnswer>> {
  assertMayReplace(ctx);
  const row = assertReplaceable(await mediaRepository(ctx.db, ctx.scope).findById(input.media_id), input.expected_revision, input.kind);

  if (input.sha256 === row.sha256) {
    return {
      statements: [],
      answer: { media: mediaItem(row), unchanged: true },
      events: [],
      purgeTags: [],
      audit: { action: "media.replace_unchanged", targetKind: "media", targetId: row.id, details: { sha256: row.sha256, revision: row.revision } },
      status: 200,
    };
  }

  const next: MediaRow = {
    ...row,
    ...objectFacts(input),
    revision: row.revision + 1,
    updated_at: isoAt(ctx.clock.now()),
  };
  const previousObjectId = objectIdOf(row.object_key);
  const objectId = objectIdOf(next.object_key);
  return {
    statements: [mediaReplaceStatement(ctx.db, ctx.scope, row.revision, next), mediaRepository(ctx.db, ctx.scope).recordCurrentFile(row.id)],
    answer: { media: mediaItem(next) },
    events: [{ name: "media.replaced", payload: { media_id: row.id, kind: row.kind, revision: next.revision, object_id: objectId, previous_object_id: previousObjectId } }],
    // The superseded file may be cached (public library): drop the item's stored copies; pinned ones are fetched again.
    purgeTags: [cacheTag.media(row.id)],
    audit: {
      action: "media.replace",
      targetKind: "media",
      targetId: row.id,
      details: { sha256: next.sha256, previous_sha256: row.sha256, object_id: objectId, previous_object_id: previousObjectId, revision: next.revision },
    },
    status: 200,
  };
}
