import type * as v from "valibot";
import type { PutCorsSettingsBody } from "../../../schema/manage-cors";
import { corsSettingsView } from "../../../shared/services/cors/cors-settings";
import { isLocalDevelopment } from "../../public/cors";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** GET /settings/cors */
export async function getCorsSettings(call: ManageCall): Promise<Response> {
  return json(corsSettingsView(call.site.settings.cors.origins, call.site.settings_revision, isLocalDevelopment(call.env)));
}

/** PUT /settings/cors: whether localhost origins may be stored comes from the deployment, never the body. */
export const putCorsSettings = (call: ManageCall) =>
  runCommand(call, "putCorsSettings", { ...(call.body as v.InferOutput<typeof PutCorsSettingsBody>), local_development: isLocalDevelopment(call.env) });
