import { CreateWebhookBody } from "../../schema/admin-bodies";
import { createWebhook, deleteWebhook, listDeadLetters, listWebhooks, retryDeadLetter } from "../../shared/events/webhooks";
import { outboundPolicy } from "../../shared/net/outbound-address";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** GET /api/webhooks: the site's webhooks, never their secrets. */
export async function listHooks(call: SiteCall): Promise<Response> {
  return json({ data: await listWebhooks(call.ctx) });
}

/** POST /api/webhooks: 201 with the signing secret, shown this once. */
export async function createHook(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, CreateWebhookBody);
  return json(await createWebhook(call.ctx, body, outboundPolicy(call.env)), 201);
}

/** DELETE /api/webhooks/{id}. */
export async function deleteHook(call: SiteCall): Promise<Response> {
  return json(await deleteWebhook(call.ctx, call.params[0] ?? ""));
}

/** GET /api/webhooks/dead-letters: deliveries that gave up. */
export async function listDead(call: SiteCall): Promise<Response> {
  return json({ data: await listDeadLetters(call.ctx) });
}

/** POST /api/webhooks/dead-letters/{id}/retry: 202, the delivery is pending again. */
export async function retryDead(call: SiteCall): Promise<Response> {
  return json(await retryDeadLetter(call.ctx, call.env, call.params[0] ?? ""), 202);
}
