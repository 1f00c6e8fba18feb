import { AppError } from "../../../shared/errors";
import { BULK_MAX_IDS, BULK_RELATE_MAX_TARGETS, type BulkAction, type BulkInput } from "../../../shared/services/bulk/actions";
import { rateForCommand, settle, siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall, ManageHandler } from "../context";
import type { BulkAnswer } from "../../../shared/services/bulk/actions";
import type { WriteAnswer } from "../../../objects/site/commands";

/**
 * The checks of the request as a whole (the cap, repeated ids), then every id in the site's
 * object (docs/bulk-actions.md). The answer is 200 with one result per id, whatever each says.
 */
function bulkHandler(action: BulkAction): ManageHandler {
  return async (call: ManageCall) => {
    const input = call.body as BulkInput;
    if (input.ids.length > BULK_MAX_IDS) {
      throw new AppError("bulk_limit_exceeded", `At most ${BULK_MAX_IDS} ids per request; this one has ${input.ids.length}. Send them in parts.`, { limit: BULK_MAX_IDS, count: input.ids.length });
    }
    const related = (input.add?.length ?? 0) + (input.remove?.length ?? 0);
    if (related > BULK_RELATE_MAX_TARGETS) {
      throw new AppError("bulk_limit_exceeded", `At most ${BULK_RELATE_MAX_TARGETS} related entries are added or removed per request; this one names ${related}.`, { limit: BULK_RELATE_MAX_TARGETS, count: related, field: "add+remove" });
    }
    const repeated = input.ids.filter((id, i) => input.ids.indexOf(id) !== i);
    if (repeated.length > 0) throw new AppError("invalid_request", "Each id may appear once per request.", { issues: [{ path: "ids", message: `Repeated: ${[...new Set(repeated)].join(", ")}` }] });
    const outcome = await settle<WriteAnswer<BulkAnswer>>(
      siteObject(call.env, call.site.id).bulk(action, {
        siteId: call.site.id,
        actor: call.actor,
        input,
        ...(call.idempotency ? { idempotency: call.idempotency } : {}),
        ...rateForCommand(call.rate),
      }),
    );
    if (!outcome.ok) throw AppError.fromFailure(outcome.error);
    const { body, replayed } = outcome.value;
    return json({ ...body, ...(replayed ? { replayed: true } : {}) }, 200);
  };
}

export const bulkPublishEntries = bulkHandler("publish");
export const bulkUnpublishEntries = bulkHandler("unpublish");
export const bulkTrashEntries = bulkHandler("trash");
export const bulkRestoreEntries = bulkHandler("restore");
export const bulkMoveEntries = bulkHandler("move");
export const bulkAssignEntries = bulkHandler("assign");
export const bulkRelateEntries = bulkHandler("relate");
