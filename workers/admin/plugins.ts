import { GrantBody } from "../../schema/admin-bodies";
import {
  getInstallation,
  grantInstallation,
  installPlugin,
  listInstallations,
  rotateInstallationToken,
  transitionInstallation,
  uninstallPlugin,
  type InstallationAction,
} from "../../shared/services/plugins/installations";
import { AppError } from "../../shared/errors";
import { outboundPolicy } from "../../shared/net/outbound-address";
import { MAX_MANIFEST_BYTES } from "../../schema/plugin-manifest";
import { readCappedText } from "../http/json-body";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** Admin routes of plugin installations (docs/plugins.md); the services check `site:plugins`. */

/** A manifest over its cap stops being read: 400 manifest_too_large (spec: plugin manifest size). */
const manifestTooLarge = (max: number) => new AppError("manifest_too_large", `The manifest is larger than ${max} bytes.`, { max });

/** GET /api/plugins: the site's installations, never a token or a digest. */
export async function listPlugins(call: SiteCall): Promise<Response> {
  return json({ data: await listInstallations(call.ctx) });
}

/** GET /api/plugins/{id} */
export async function getPlugin(call: SiteCall): Promise<Response> {
  return json(await getInstallation(call.ctx, call.params[0] ?? ""));
}

/**
 * POST /api/plugins: the body is the manifest itself (application/json, at most 32768 bytes,
 * checked on the raw bytes). 201 `{ installation, token, event_secret }`; both secrets are shown this once.
 */
export async function installPluginRoute(call: SiteCall): Promise<Response> {
  const type = (call.request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new AppError("invalid_request", "Send the manifest as application/json.");
  const manifest = await readCappedText(call.request, MAX_MANIFEST_BYTES, manifestTooLarge);
  return json(await installPlugin(call.ctx, manifest, outboundPolicy(call.env)), 201);
}

/** PUT /api/plugins/{id}/grant `{ capabilities, model_ids }`: replaces the grant. */
export async function grantPlugin(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, GrantBody);
  return json(await grantInstallation(call.ctx, call.params[0] ?? "", body));
}

function transition(action: InstallationAction) {
  return async (call: SiteCall): Promise<Response> => json(await transitionInstallation(call.ctx, call.params[0] ?? "", action));
}

/** POST /api/plugins/{id}/activate, /disable, /revoke */
export const activatePlugin = transition("activate");
export const disablePlugin = transition("disable");
export const revokePlugin = transition("revoke");

/** DELETE /api/plugins/{id}: uninstall (the row is deleted). */
export async function uninstallPluginRoute(call: SiteCall): Promise<Response> {
  return json(await uninstallPlugin(call.ctx, call.params[0] ?? ""));
}

/** POST /api/plugins/{id}/rotate-token: 200 `{ installation, token, event_secret }`, both new, shown once. */
export async function rotatePluginToken(call: SiteCall): Promise<Response> {
  return json(await rotateInstallationToken(call.ctx, call.params[0] ?? ""));
}
