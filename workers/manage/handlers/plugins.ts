import type { Scope } from "../../../schema/scopes";
import { activeRichBlocks, listContentActions, listManageViews, listPluginEntries } from "../../../shared/services/plugins/catalog";
import { outboundPolicy } from "../../../shared/net/outbound-address";
import { createLaunch, type Launcher } from "../../../shared/services/plugins/launches";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** Plugin lists and launches (scope `plugins:use`; docs/management-api.md, "Plugins"). */

function launcher(call: ManageCall): Launcher {
  // Under an admin session (/api/v1) the person launches, as through the admin route: there is no
  // credential to bind the delegation to, and `person:…` names no credential row, so naming it
  // would make every plugin call with the delegation "revoked".
  if (call.credential.kind === "admin_session") return { credential: null };
  const { id, scopes, model_ids } = call.credential;
  return { credential: { id, scopes: scopes as Scope[], model_ids } };
}

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
  return json({ data: await listContentActions(call.ctx, { model_ids: call.credential.model_ids }, instance_id) });
}

/** POST /plugins/{id}/manage-views/{view}/launch: 201 launch answer. */
export async function launchPluginManageView(call: ManageCall): Promise<Response> {
  return json(await createLaunch(call.ctx, launcher(call), { plugin: call.params.id ?? "", kind: "manage_view", target: call.params.view ?? "" }, outboundPolicy(call.env)), 201);
}

/** POST /plugins/{id}/content-actions/{action}/entries/{instance_id}/launch: 201 launch answer. */
export async function launchPluginContentAction(call: ManageCall): Promise<Response> {
  return json(
    await createLaunch(call.ctx, launcher(call), { plugin: call.params.id ?? "", kind: "content_action", target: call.params.action ?? "", instance_id: call.params.instance_id ?? "" }, outboundPolicy(call.env)),
    201,
  );
}
