import type * as v from "valibot";
import type { CreateSavedQueryBody, UpdateSavedQueryBody } from "../../../schema/manage-saved-queries";
import { listSavedQueries as readSavedQueries } from "../../../shared/services/saved-queries/saved-queries";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

const id = (call: ManageCall) => call.params.id ?? "";

/** GET /saved-queries */
export async function listSavedQueries(call: ManageCall): Promise<Response> {
  return json({ data: await readSavedQueries(call.ctx) });
}

export const createSavedQuery = (call: ManageCall) => runCommand(call, "createSavedQuery", call.body as v.InferOutput<typeof CreateSavedQueryBody>);
export const updateSavedQuery = (call: ManageCall) => runCommand(call, "updateSavedQuery", { query_id: id(call), ...(call.body as v.InferOutput<typeof UpdateSavedQueryBody>) });
export const deleteSavedQuery = (call: ManageCall) => runCommand(call, "deleteSavedQuery", { query_id: id(call) });
