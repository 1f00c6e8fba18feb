import type * as v from "valibot";
import type { PutRobotsRulesBody, PutSeoSettingsBody, PutSiteChromeBody } from "../../../schema/manage-site-chrome";
import { storedChrome, storedRobots, storedSeo } from "../../../shared/services/site-chrome/chrome-settings";
import { json } from "../../http/respond";
import { hasSitemap } from "../../public/sitemap";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/**
 * GET /settings/chrome, /settings/seo, /settings/robots (docs/site-chrome.md): the stored value as
 * the PUT takes it, with the settings' revision to send back as `expected_revision`. Read from the
 * site the call already loaded, so the revision and the value are one snapshot.
 */
export const getSiteChrome = async (call: ManageCall) => json({ chrome: storedChrome(call.site.settings.chrome), revision: call.site.settings_revision });
export const getSeoSettings = async (call: ManageCall) => json({ seo: storedSeo(call.site.settings.seo), revision: call.site.settings_revision });
/** The rules served (the default when none are stored) and the sitemap line robots.txt adds. */
export const getRobotsRules = async (call: ManageCall) =>
  json({ robots: storedRobots(call.site.settings.robots), revision: call.site.settings_revision, sitemap_path: (await hasSitemap(call.ctx.d1, call.site)) ? "/sitemap.xml" : null });

/** PUT /settings/chrome, /settings/seo, /settings/robots (docs/site-chrome.md). */
export const putSiteChrome = (call: ManageCall) => runCommand(call, "putSiteChrome", call.body as v.InferOutput<typeof PutSiteChromeBody>);
export const putSeoSettings = (call: ManageCall) => runCommand(call, "putSeoSettings", call.body as v.InferOutput<typeof PutSeoSettingsBody>);
export const putRobotsRules = (call: ManageCall) => runCommand(call, "putRobotsRules", call.body as v.InferOutput<typeof PutRobotsRulesBody>);
