import type * as v from "valibot";
import type { CreateRoleBody, UpdateRoleBody } from "../../../schema/manage-roles";
import { listRoles as readRoles } from "../../../shared/services/people/roles";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** GET /roles */
export async function listRoles(call: ManageCall): Promise<Response> {
  return json({ data: await readRoles(call.ctx) });
}

const id = (call: ManageCall) => call.params.id ?? "";

export const createRole = (call: ManageCall) => runCommand(call, "createRole", call.body as v.InferOutput<typeof CreateRoleBody>);
export const updateRole = (call: ManageCall) => runCommand(call, "updateRole", { role_id: id(call), ...(call.body as v.InferOutput<typeof UpdateRoleBody>) });
export const removeRole = (call: ManageCall) => runCommand(call, "removeRole", { role_id: id(call) });
