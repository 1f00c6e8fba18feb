import { AppError } from "../../../shared/errors";
import { decide } from "../../../shared/auth/permissions";
import { entryRepository } from "../../../shared/repositories/entry-repository";
import { modelRepository } from "../../../shared/repositories/model-repository";
import { readRelatedFrom, RELATED_FROM_DEFAULT_LIMIT, RELATED_FROM_MAX_LIMIT } from "../../../shared/services/relations/related-from";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** GET /entries/{id}/related-from: who links to this item now (current drafts), paged. */
export async function listEntryRelatedFrom(call: ManageCall): Promise<Response> {
  const entry = await entryRepository(call.ctx.db, call.ctx.scope).find(call.params.id ?? "");
  const model = entry ? await modelRepository(call.ctx.db, call.ctx.scope).findById(entry.model_id) : undefined;
  if (!entry || !model || !decide(call.actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed) {
    throw new AppError("not_found", "No such entry.");
  }
  const q = call.query as { field?: string; model_id?: string; cursor?: string; limit?: string };
  const limit = Math.min(Number(q.limit ?? RELATED_FROM_DEFAULT_LIMIT), RELATED_FROM_MAX_LIMIT);
  return json(
    await readRelatedFrom(call.ctx, {
      target: entry,
      limit,
      ...(q.field !== undefined ? { field: q.field } : {}),
      ...(q.model_id !== undefined ? { model_id: q.model_id } : {}),
      ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
    }),
  );
}
