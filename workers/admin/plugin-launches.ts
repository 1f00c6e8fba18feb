import type * as v from "valibot";
import { callerModelIds } from "../../shared/auth/caller";
import { Empty as NoQuery, InstanceQuery } from "../../schema/admin-bodies";
import { outboundPolicy } from "../../shared/net/outbound-address";
import { listContentActions, listManageViews, listPluginEntries } from "../../shared/services/plugins/catalog";
import { createLaunch, launcherOf, type LaunchRequest } from "../../shared/services/plugins/launches";
import { parse } from "../../shared/services/validation/parse";
import { ADMIN_BODY_MAX_BYTES, parseJsonText, readCappedText } from "../http/json-body";
import { json } from "../http/respond";
import { sessionCaller, type SiteCall } from "./auth";

/**
 * Admin routes of plugin launches (docs/plugins.md, "Launches and delegations"): the same lists
 * and launches as the management API's `plugins:use` routes, for the signed-in person on the site
 * of X-Site-Id. The person asks in their own session (`sessionCaller`), as under `/api/v1`: their
 * launch delegates every scope and names no credential (`launcherOf`), and the lists are not
 * narrowed to a credential's models.
 */

function query<S extends v.GenericSchema>(call: SiteCall, schema: S): v.InferOutput<S> {
  const params = new URL(call.request.url).searchParams;
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return parse(schema, out);
}

/** A launch takes no body: none, or the JSON object `{}`. */
async function noBody(request: Request): Promise<void> {
  const text = await readCappedText(request, ADMIN_BODY_MAX_BYTES);
  if (text.trim().length === 0) return;
  parse(NoQuery, parseJsonText(request, text));
}

async function launch(call: SiteCall, request: LaunchRequest): Promise<Response> {
  query(call, NoQuery);
  await noBody(call.request);
  return json(await createLaunch(call.ctx, launcherOf(sessionCaller(call)), request, outboundPolicy(call.env)), 201);
}

/** GET /api/plugin-launches/plugins: the spec 2 plugin list entries. */
export async function listLaunchablePlugins(call: SiteCall): Promise<Response> {
  query(call, NoQuery);
  return json({ data: await listPluginEntries(call.ctx) });
}

/** GET /api/plugin-launches/manage-views */
export async function listLaunchManageViews(call: SiteCall): Promise<Response> {
  query(call, NoQuery);
  return json({ data: await listManageViews(call.ctx) });
}

/** GET /api/plugin-launches/content-actions[?instance_id=…] */
export async function listLaunchContentActions(call: SiteCall): Promise<Response> {
  const { instance_id } = query(call, InstanceQuery);
  return json({ data: await listContentActions(call.ctx, { model_ids: callerModelIds(sessionCaller(call)) }, instance_id) });
}

/** POST /api/plugin-launches/{id}/manage-views/{view}: 201 launch answer. */
export async function launchManageView(call: SiteCall): Promise<Response> {
  return launch(call, { plugin: call.params[0] ?? "", kind: "manage_view", target: call.params[1] ?? "" });
}

/** POST /api/plugin-launches/{id}/content-actions/{action}/entries/{instance_id}: 201 launch answer. */
export async function launchContentAction(call: SiteCall): Promise<Response> {
  return launch(call, { plugin: call.params[0] ?? "", kind: "content_action", target: call.params[1] ?? "", instance_id: call.params[2] ?? "" });
}
