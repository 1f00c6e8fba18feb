import { checkRestore } from "../../../shared/services/lifecycle/restore-check";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** GET /entries/{id}/restore-check: read in the worker, writes nothing (docs/trash-retention.md). */
export async function checkEntryRestore(call: ManageCall): Promise<Response> {
  const q = call.query as { language_only?: "true" | "false" };
  return json(await checkRestore(call.ctx, { instance_id: call.params.id ?? "", language_only: q.language_only === "true" }));
}
