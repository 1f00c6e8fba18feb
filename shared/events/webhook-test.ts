import { hasSystemPermission } from "../auth/permissions";
import { isoAt, type Clock } from "../clock";
import type { Env } from "../env";
import { AppError } from "../errors";
import { newId } from "../ids";
import { judgeOutboundUrl, outboundPolicy } from "../net/outbound-address";
import { commitPlan } from "../services/lifecycle/commit-plan";
import type { LifecycleContext } from "../services/lifecycle/context";
import { attempt, type AttemptResult } from "./deliver";

/**
 * A webhook's test delivery and its recent deliveries (issue #30 item 5, docs/admin-ui-settings.md).
 *
 * The test is a ping, sent now and answered with how it went, like GitHub's "Redeliver"/"ping":
 * one signed POST of a `webhook.test` envelope through the same `attempt` as real deliveries (same
 * headers, signature, timeout and outbound address policy), never queued or retried, and recorded
 * in the audit log (`webhook.test`), not among the deliveries (it is no event of the site).
 */

export interface TestDeliveryView {
  webhook_id: string;
  delivery_id: string;
  ok: boolean;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface DeliveryView {
  id: string;
  event_id: string;
  event_name: string | null;
  state: "pending" | "delivered" | "dead";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export const RECENT_DELIVERIES = 20;

function requireInfra(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:infra")) {
    throw new AppError("missing_permission", 'Missing permission "site:infra".', { permission: "site:infra" });
  }
}

async function activeHook(ctx: LifecycleContext, id: string) {
  const hook = await ctx.db
    .selectFrom("webhooks")
    .select(["id", "url", "secret", "events"])
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", id)
    .where("active", "=", 1)
    .executeTakeFirst();
  if (!hook) throw new AppError("not_found", "No such webhook.");
  return hook;
}

/** POST /api/webhooks/{id}/test: one signed `webhook.test` delivery now; the answer says how it went. */
export async function testWebhook(ctx: LifecycleContext, env: Env, clock: Clock, id: string): Promise<TestDeliveryView> {
  requireInfra(ctx);
  const hook = await activeHook(ctx, id);
  const deliveryId = newId("dlv");
  const started = Date.now();
  let result: AttemptResult;
  const verdict = judgeOutboundUrl(hook.url, outboundPolicy(env));
  if (!verdict.ok) {
    // The policy may be stricter than when the webhook was made: never call it then (as deliver.ts).
    result = { ok: false, status: null, error: `url is refused: ${verdict.reason}` };
  } else {
    const envelope = { id: newId("evt"), name: "webhook.test", site_id: ctx.site.id, occurred_at: isoAt(clock.now()), data: { webhook_id: hook.id } };
    result = await attempt(env, clock, { kind: "webhook", id: hook.id, site_id: ctx.site.id, url: verdict.url.toString(), secret: hook.secret, events: [], model_ids: null }, deliveryId, "webhook.test", JSON.stringify(envelope));
  }
  const answer: TestDeliveryView = { webhook_id: hook.id, delivery_id: deliveryId, ok: result.ok, status: result.status, error: result.error, duration_ms: Date.now() - started };
  await commitPlan(ctx, { statements: [], answer, events: [], purgeTags: [], audit: { action: "webhook.test", targetKind: "webhook", targetId: hook.id, details: { ok: result.ok, status: result.status } } });
  return answer;
}

/** GET /api/webhooks/{id}/deliveries: the newest deliveries of events to the webhook. */
export async function listWebhookDeliveries(ctx: LifecycleContext, id: string): Promise<DeliveryView[]> {
  requireInfra(ctx);
  await activeHook(ctx, id);
  const rows = await ctx.d1
    .prepare(
      `SELECT d.id, d.event_id, e.name AS event_name, d.state, d.attempts, d.last_status, d.last_error, d.created_at, d.updated_at
       FROM event_deliveries d LEFT JOIN outbox_events e ON e.id = d.event_id AND e.site_id = d.site_id
       WHERE d.site_id = ? AND d.webhook_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ?`,
    )
    .bind(ctx.site.id, id, RECENT_DELIVERIES)
    .all<DeliveryView>();
  return rows.results;
}
