import { readRecoveryDraft, type KeepRecoveryInput } from "../../../shared/services/recovery/recovery-drafts";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandHandler } from "../respond";

/** GET /entries/{id}/recovery-draft: the caller's person's own draft only (docs/recovery-drafts.md). */
export async function getRecoveryDraft(call: ManageCall): Promise<Response> {
  return json(await readRecoveryDraft(call.ctx, call.params.id ?? ""));
}

export const keepRecoveryDraft = commandHandler("keepRecoveryDraft", (call) => ({ ...(call.body as Omit<KeepRecoveryInput, "instance_id">), instance_id: call.params.id ?? "" }));
export const deleteRecoveryDraft = commandHandler("dropRecoveryDraft", (call) => ({ instance_id: call.params.id ?? "" }));
