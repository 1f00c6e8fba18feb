import { AppError } from "../../shared/errors";
import { siteObject } from "../forward";
import type { ManageCall } from "./context";

/**
 * The Idempotency-Key of a command that **runs again** when repeated (spec 2 idempotency rule 4:
 * comment moderation and deletes — "a moderation repeated after commit answers `conflict` (a
 * delete: `not_found`) with the comment's current state"), kept without replaying it:
 *
 * - the key is claimed in the site's object like any other (rule 1), so a second request with the
 *   same key while the first runs is 409 `idempotency_in_progress`;
 * - a key used before for a **different** request is 409 `idempotency_key_reused` (rule 2), as on
 *   every other write — running again is for the same request only;
 * - the same request again runs again (its answer is never replayed);
 * - a refused or failed run frees the key (rule 1), so a corrected request may use it.
 *
 * The answer recorded with the key is empty: it only marks the key as used for this request.
 */
export async function rerunUnderKey(call: ManageCall, run: () => Promise<Response>): Promise<Response> {
  const idem = call.idempotency;
  if (!idem) return run();
  const object = siteObject(call.env, call.site.id);
  const claim = await object.claimKey(idem);
  if (claim.kind === "reused") throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
  if (claim.kind === "in_progress") {
    throw new AppError("idempotency_in_progress", "The first request with this key is still running.", claim.retryAfterSeconds === null ? undefined : { retry_after: claim.retryAfterSeconds });
  }
  // Used before for this very request: rule 4 runs it again; the key keeps its first record.
  if (claim.kind === "replay") return run();
  try {
    const response = await run();
    await object.completeKey(idem.scope, idem.key, { status: response.status, body: "" });
    return response;
  } catch (error) {
    await object.freeKey(idem.scope, idem.key);
    throw error;
  }
}
