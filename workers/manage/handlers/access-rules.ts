import type * as v from "valibot";
import type { PutAccessRulesBody } from "../../../schema/manage-access-rules";
import { accessRulesView } from "../../../shared/services/access-rules/access-rules";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** GET /settings/access-rules */
export async function getAccessRules(call: ManageCall): Promise<Response> {
  return json(await accessRulesView(call.ctx));
}

export const putAccessRules = (call: ManageCall) => runCommand(call, "putAccessRules", call.body as v.InferOutput<typeof PutAccessRulesBody>);
