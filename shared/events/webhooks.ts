import { hasSystemPermission } from "../auth/permissions";
import { isoAt } from "../clock";
import { newSecret } from "../crypto/digest";
import type { Env } from "../env";
import { AppError } from "../errors";
import { newId } from "../ids";
import { judgeOutboundUrl, PUBLIC_ONLY, type OutboundPolicy } from "../net/outbound-address";
import { commitPlan } from "../services/lifecycle/commit-plan";
import type { LifecycleContext } from "../services/lifecycle/context";
import { EVENT_NAMES } from "./names";
import { pluginEventsUrl } from "./subscribers";
import { chunk } from "../db/chunks";

/**
 * Site webhooks (docs/events.md): managing them needs `site:infra`. The `whsec_` signing secret is
 * returned once by {@link createWebhook} and stored as given — signing needs the secret itself.
 */

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  created_by: string | null;
  created_at: string;
}

export interface CreatedWebhook extends WebhookView {
  secret: string;
}

export interface DeadLetterView {
  id: string;
  event_id: string;
  event_name: string | null;
  /** The subscriber: a webhook (`whk_…`) or a plugin installation (`pin_…`). */
  webhook_id: string;
  /** The webhook's URL or the plugin's events URL (`<endpoint>/events`); null once it is gone. */
  webhook_url: string | null;
  subscriber_kind: "webhook" | "plugin";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  dead_at: string;
}

function requireInfra(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:infra")) {
    throw new AppError("missing_permission", 'Missing permission "site:infra".', { permission: "site:infra" });
  }
}

/**
 * The URL a webhook may be registered with: the outbound address policy
 * (docs/outbound-addresses.md) — https to a public host, loopback only in local development.
 * Checked again before every delivery, so a row that predates a stricter policy is never called.
 */
export function checkWebhookUrl(text: string, policy: OutboundPolicy): string {
  const verdict = judgeOutboundUrl(text, policy);
  if (!verdict.ok) throw new AppError("invalid_request", `url is refused: ${verdict.reason}.`, { field: "url", reason: verdict.reason });
  return verdict.url.toString();
}

/** `["*"]` alone, or known event names (repeats dropped). */
export function checkEventNames(events: readonly string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.includes("*")) {
    if (unique.length !== 1) throw new AppError("invalid_request", 'events is either ["*"] or a list of names.', { field: "events" });
    return ["*"];
  }
  const known = new Set<string>(EVENT_NAMES);
  const unknown = unique.filter((e) => !known.has(e));
  if (unknown.length > 0) throw new AppError("invalid_request", "Unknown event names.", { field: "events", unknown });
  return unique;
}

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  created_by: string | null;
  created_at: string;
}

const toView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  created_by: row.created_by,
  created_at: row.created_at,
});

/** Subscribes a URL to events of the site; the answer holds the secret, shown this once. */
export async function createWebhook(ctx: LifecycleContext, input: { url: string; events: readonly string[] }, policy: OutboundPolicy = PUBLIC_ONLY): Promise<CreatedWebhook> {
  requireInfra(ctx);
  const url = checkWebhookUrl(input.url, policy);
  const events = checkEventNames(input.events);
  const id = newId("whk");
  const secret = newSecret("whsec_");
  const createdAt = isoAt(ctx.clock.now());
  const statement = ctx.db
    .insertInto("webhooks")
    .values({ id, site_id: ctx.site.id, url, events: JSON.stringify(events), secret, active: 1, created_by: ctx.actor.id, created_at: createdAt })
    .compile();
  const answer: CreatedWebhook = { id, url, events, created_by: ctx.actor.id, created_at: createdAt, secret };
  await commitPlan(ctx, {
    statements: [statement],
    answer,
    events: [],
    purgeTags: [],
    audit: { action: "webhook.create", targetKind: "webhook", targetId: id, details: { url, events } },
  });
  return answer;
}

/** The site's active webhooks, newest first, never their secrets. */
export async function listWebhooks(ctx: LifecycleContext): Promise<WebhookView[]> {
  requireInfra(ctx);
  const rows = await ctx.db
    .selectFrom("webhooks")
    .select(["id", "url", "events", "created_by", "created_at"])
    .where("site_id", "=", ctx.site.id)
    .where("active", "=", 1)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toView);
}

/** Deletes (deactivates) a webhook of the site; pending deliveries to it end as dead. Unknown: 404. */
export async function deleteWebhook(ctx: LifecycleContext, id: string): Promise<{ id: string; deleted: true }> {
  requireInfra(ctx);
  const row = await ctx.db
    .selectFrom("webhooks")
    .select(["id"])
    .where("site_id", "=", ctx.site.id)
    .where("id", "=", id)
    .where("active", "=", 1)
    .executeTakeFirst();
  if (!row) throw new AppError("not_found", "No such webhook.");
  const statement = ctx.db.updateTable("webhooks").set({ active: 0 }).where("site_id", "=", ctx.site.id).where("id", "=", id).compile();
  const answer = { id, deleted: true as const };
  await commitPlan(ctx, { statements: [statement], answer, events: [], purgeTags: [], audit: { action: "webhook.delete", targetKind: "webhook", targetId: id } });
  return answer;
}

/** A dead delivery as read: the view, with the row's last update in place of `dead_at`. */
type DeadRow = Omit<DeadLetterView, "dead_at" | "subscriber_kind"> & { updated_at: string; plugin_endpoint: string | null };

// Deliveries and webhooks are content; plugin installations are directory (shared/db/tables.ts), so
// a plugin's endpoint is a second read (withPluginEndpoints) rather than a join.
const DEAD_SQL = `SELECT d.id, d.event_id, e.name AS event_name, d.webhook_id, w.url AS webhook_url,
  d.attempts, d.last_status, d.last_error, d.created_at, d.updated_at
  FROM event_deliveries d
  LEFT JOIN outbox_events e ON e.id = d.event_id AND e.site_id = d.site_id
  LEFT JOIN webhooks w ON w.id = d.webhook_id AND w.site_id = d.site_id
  WHERE d.site_id = ? AND d.state = 'dead'`;

/** The endpoints of the plugins among dead deliveries, read from the installations (null when uninstalled). */
async function withPluginEndpoints(ctx: LifecycleContext, rows: Omit<DeadRow, "plugin_endpoint">[]): Promise<DeadRow[]> {
  const ids = [...new Set(rows.map((r) => r.webhook_id).filter(isPluginId))];
  const endpoints = new Map<string, string | null>();
  for (const part of chunk(ids, 90)) {
    const found = await ctx.d1
      .prepare(`SELECT id, json_extract(manifest, '$.endpoint') AS endpoint FROM plugin_installations WHERE site_id = ? AND id IN (${part.map(() => "?").join(", ")})`)
      .bind(ctx.site.id, ...part)
      .all<{ id: string; endpoint: string | null }>();
    for (const r of found.results) endpoints.set(r.id, r.endpoint);
  }
  return rows.map((r) => ({ ...r, plugin_endpoint: endpoints.get(r.webhook_id) ?? null }));
}

const isPluginId = (id: string) => id.startsWith("pin_");

const deadView = (r: DeadRow): DeadLetterView => ({
  id: r.id,
  event_id: r.event_id,
  event_name: r.event_name,
  webhook_id: r.webhook_id,
  webhook_url: isPluginId(r.webhook_id) ? (r.plugin_endpoint === null ? null : pluginEventsUrl(r.plugin_endpoint)) : r.webhook_url,
  subscriber_kind: isPluginId(r.webhook_id) ? "plugin" : "webhook",
  attempts: r.attempts,
  last_status: r.last_status,
  last_error: r.last_error,
  created_at: r.created_at,
  dead_at: r.updated_at,
});

/** Deliveries of the site that gave up (newest first, at most 100). */
export async function listDeadLetters(ctx: LifecycleContext): Promise<DeadLetterView[]> {
  requireInfra(ctx);
  const rows = await ctx.d1.prepare(`${DEAD_SQL} ORDER BY d.updated_at DESC, d.id DESC LIMIT 100`).bind(ctx.site.id).all<Omit<DeadRow, "plugin_endpoint">>();
  return (await withPluginEndpoints(ctx, rows.results)).map(deadView);
}

/**
 * Sends a dead delivery again: back to `pending` with a fresh set of attempts, and its event on
 * the queue (other subscribers of the event are not sent to again: they are delivered or dead).
 * Not a dead delivery of this site, or its webhook was deleted or its plugin uninstalled: 404; a
 * plugin installation that is not `active` (or has no event secret): 409 installation_not_active.
 */
export async function retryDeadLetter(ctx: LifecycleContext, env: Env, id: string): Promise<{ id: string; state: "pending" }> {
  requireInfra(ctx);
  const row = await ctx.d1.prepare(`${DEAD_SQL} AND d.id = ?`).bind(ctx.site.id, id).first<Omit<DeadRow, "plugin_endpoint">>();
  if (!row) throw new AppError("not_found", "No such dead letter.");
  if (isPluginId(row.webhook_id)) {
    const plugin = await ctx.db
      .selectFrom("plugin_installations")
      .select(["id", "state", "event_secret"])
      .where("site_id", "=", ctx.site.id)
      .where("id", "=", row.webhook_id)
      .executeTakeFirst();
    if (!plugin) throw new AppError("not_found", "The plugin of this dead letter was uninstalled.");
    if (plugin.state !== "active" || plugin.event_secret === null) {
      throw new AppError("installation_not_active", "The plugin of this dead letter is not active.", { state: plugin.state });
    }
  } else {
    const hook = await ctx.db.selectFrom("webhooks").select(["id"]).where("site_id", "=", ctx.site.id).where("id", "=", row.webhook_id).where("active", "=", 1).executeTakeFirst();
    if (!hook) throw new AppError("not_found", "The webhook of this dead letter was deleted.");
  }
  const at = isoAt(ctx.clock.now());
  const reset = await ctx.d1
    .prepare("UPDATE event_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ? AND site_id = ? AND state = 'dead'")
    .bind(at, at, id, ctx.site.id)
    .run();
  if (reset.meta.changes !== 1) throw new AppError("not_found", "No such dead letter.");
  await env.EVENTS.send({ event_id: row.event_id, site_id: ctx.site.id });
  return { id, state: "pending" };
}
