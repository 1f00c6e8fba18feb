import type { ListMediaQuery, UpdateMediaBody } from "../../../schema/manage-media-edits";
import type * as v from "valibot";
import { AppError } from "../../../shared/errors";
import { listMediaPage } from "../../../shared/repositories/media-list";
import { MEDIA_EDIT_FIELDS } from "../../../shared/services/media/edit";
import { mediaItem } from "../../../shared/services/media/media-view";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { newestFirst } from "../newest-first";
import { runCommand } from "../respond";

/** Page sizes of the management lists (entries, proposals): default 20, larger asks give 100. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/**
 * GET /media (docs/media.md): the site's whole library (spec 2 rule 3: regardless of the
 * credential's model limits), newest first in signed cursor pages; a cursor continues only the list
 * (filters) it was made for. `folder_id=unfiled` lists files in no folder.
 */
export async function listMedia(call: ManageCall): Promise<Response> {
  const q = call.query as v.InferOutput<typeof ListMediaQuery>;
  const limit = Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const pages = await newestFirst(call.ctx.d1, call.site.id, ["media", q.kind ?? null, q.folder_id ?? null, q.q ?? null], q.cursor);
  const folderId = q.folder_id === undefined ? undefined : q.folder_id === "unfiled" ? null : q.folder_id;
  const rows = await listMediaPage(
    call.ctx.db,
    call.ctx.scope,
    { ...(q.kind !== undefined ? { kind: q.kind } : {}), ...(folderId !== undefined ? { folderId } : {}), ...(q.q !== undefined ? { q: q.q } : {}) },
    pages.from,
    limit,
  );
  const next = rows[limit];
  return json({
    data: rows.slice(0, limit).map(mediaItem),
    page: { limit, has_more: next !== undefined, next_cursor: next ? await pages.cursorAt(next) : null },
  });
}

/**
 * PUT /media/{id} (docs/media.md): checked and written by the site's object (command
 * `updateMedia`) in one batch with its idempotency answer, audit row and `media.updated` event.
 */
export async function updateMedia(call: ManageCall): Promise<Response> {
  const body = call.body as UpdateMediaBody;
  // Also refused inside the object; asked here first so an empty edit needs no round trip.
  if (MEDIA_EDIT_FIELDS.every((field) => body[field] === undefined)) {
    throw new AppError("invalid_request", `Name at least one of ${MEDIA_EDIT_FIELDS.join(", ")}.`, { fields: [...MEDIA_EDIT_FIELDS] });
  }
  return runCommand(call, "updateMedia", { media_id: call.params.id ?? "", ...body });
}
