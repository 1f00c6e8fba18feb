import type * as v from "valibot";
import type { PutRobotsRulesBody, PutSeoSettingsBody, PutSiteChromeBody } from "../../../schema/manage-site-chrome";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** PUT /settings/chrome, /settings/seo, /settings/robots (docs/site-chrome.md). */
export const putSiteChrome = (call: ManageCall) => runCommand(call, "putSiteChrome", call.body as v.InferOutput<typeof PutSiteChromeBody>);
export const putSeoSettings = (call: ManageCall) => runCommand(call, "putSeoSettings", call.body as v.InferOutput<typeof PutSeoSettingsBody>);
export const putRobotsRules = (call: ManageCall) => runCommand(call, "putRobotsRules", call.body as v.InferOutput<typeof PutRobotsRulesBody>);
