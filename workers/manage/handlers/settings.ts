import type * as v from "valibot";
import type { UpdateSettingsBody } from "../../../schema/manage-settings";
import { settingsView } from "../../../shared/services/settings/site-settings";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** GET /settings */
export async function getSettings(call: ManageCall): Promise<Response> {
  return json(settingsView(call.site, call.site.settings_revision));
}

export const updateSettings = (call: ManageCall) => runCommand(call, "updateSettings", call.body as v.InferOutput<typeof UpdateSettingsBody>);
