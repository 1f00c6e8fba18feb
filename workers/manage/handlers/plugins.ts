import { callerModelIds } from "../../../shared/auth/caller";
import { activeRichBlocks, listContentActions, listManageViews, listPluginEntries } from "../../../shared/services/plugins/catalog";
import { outboundPolicy } from "../../../shared/net/outbound-address";
import { createLaunch, launcherOf } from "../../../shared/services/plugins/launches";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** Plugin lists and launches (scope `plugins:use`; docs/management-api.md, "Plugins"). */

/** GET /rich-blocks: the same list as the public `/v1/_rich-blocks`. */
export async function listRichBlocks(call: ManageCall): Promise<Response> {
  return json({ data: await activeRichBlocks(call.ctx.d1, call.site.id) });
}

/** GET /plugins */
export async function listPlugins(call: ManageCall): Promise<Response> {
  return json({ data: await listPluginEntries(call.ctx) });
}

/** GET /plugins/manage-views */
export async function listPluginManageViews(call: ManageCall): Promise<Response> {
  return json({ data: await listManageViews(call.ctx) });
}

/** GET /plugins/content-actions[?instance_id=…] */
export async function listPluginContentActions(call: ManageCall): Promise<Response> {
  const { instance_id } = call.query as { instance_id?: string };
  return json({ data: await listContentActions(call.ctx, { model_ids: callerModelIds(call.caller) }, instance_id) });
}

/** POST /plugins/{id}/manage-views/{view}/launch: 201 launch answer. */
export async function launchPluginManageView(call: ManageCall): Promise<Response> {
  return json(await createLaunch(call.ctx, launcherOf(call.caller), { plugin: call.params.id ?? "", kind: "manage_view", target: call.params.view ?? "" }, outboundPolicy(call.env)), 201);
}

/** POST /plugins/{id}/content-actions/{action}/entries/{instance_id}/launch: 201 launch answer. */
export async function launchPluginContentAction(call: ManageCall): Promise<Response> {
  return json(
    await createLaunch(call.ctx, launcherOf(call.caller), { plugin: call.params.id ?? "", kind: "content_action", target: call.params.action ?? "", instance_id: call.params.instance_id ?? "" }, outboundPolicy(call.env)),
    201,
  );
}
