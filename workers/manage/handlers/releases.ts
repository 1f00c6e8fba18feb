import { decide } from "../../../shared/auth/permissions";
import type { ReleaseRow } from "../../../shared/db/database";
import { loadRelease, releaseChanges, releaseView, type CreateReleaseInput, type UpdateReleaseInput } from "../../../shared/services/releases/releases";
import { previewRelease as preview } from "../../../shared/services/releases/preview";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { decodePairCursor, encodePairCursor } from "../pair-cursor";
import { commandHandler } from "../respond";


/** GET /releases: newest first, keyset pages on (created_at, id); a release naming a language the role cannot read is left out. */
export async function listReleases(call: ManageCall): Promise<Response> {
  const q = call.query as { state?: ReleaseRow["state"]; cursor?: string; limit?: string };
  const limit = Number(q.limit ?? 20);
  let query = call.ctx.db.selectFrom("releases").selectAll().where("site_id", "=", call.site.id);
  if (q.state !== undefined) query = query.where("state", "=", q.state);
  if (q.cursor !== undefined) {
    const [at, id] = decodePairCursor(q.cursor);
    query = query.where((eb) => eb.or([eb("created_at", "<", at), eb.and([eb("created_at", "=", at), eb("id", "<=", id)])]));
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit + 1).execute();
  const next = rows[limit];
  const sees = (row: ReleaseRow) => releaseChanges(row).every((c) => decide(call.actor.permissions, { operation: "read", modelId: c.model_id, lang: c.lang }).allowed);
  return json({ data: rows.slice(0, limit).filter(sees).map(releaseView), page: { limit, has_more: next !== undefined, next_cursor: next ? encodePairCursor(next.created_at, next.id) : null } });
}

/** GET /releases/{id}. */
export async function getRelease(call: ManageCall): Promise<Response> {
  return json(releaseView(await loadRelease(call.ctx, call.params.id ?? "")));
}

/** POST /releases/{id}/preview: read in the worker, writes nothing (docs/releases.md, "Preview"). */
export async function previewRelease(call: ManageCall): Promise<Response> {
  return json(await preview(call.ctx, { release_id: call.params.id ?? "", ...(call.body as { minutes?: number }) }));
}

// Bodies were parsed with the route's closed schema (schema/manage-releases.ts).
export const createRelease = commandHandler("createRelease", (call) => call.body as CreateReleaseInput);
export const updateRelease = commandHandler("updateRelease", (call) => ({ ...(call.body as Omit<UpdateReleaseInput, "release_id">), release_id: call.params.id ?? "" }));
export const publishRelease = commandHandler("publishRelease", (call) => ({ ...(call.body as { expected_revision?: number }), release_id: call.params.id ?? "" }));
export const deleteRelease = commandHandler("deleteRelease", (call) => ({ release_id: call.params.id ?? "" }));
