import { ManualOrderBody } from "../../schema/admin-bodies";
import { expectValue, siteObject } from "../forward";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** PUT /api/models/{id}/manual-order: the order `order=manual` lists serve (all languages). */
export async function putManualOrder(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, ManualOrderBody);
  const answer = await expectValue(
    siteObject(call.env, call.ctx.site.id).setManualOrder({ siteId: call.ctx.site.id, actor: call.ctx.actor, input: { model_id: call.params[0] ?? "", items: body.items } }),
  );
  return json({ model_id: answer.body.id, manual_order: answer.body.manual_order, cache: answer.purge });
}
