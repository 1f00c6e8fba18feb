import type { Env } from "../env";
import { subscribes } from "./names";

/**
 * Someone who receives a site's events over HTTP. Webhooks are the only kind today; a plugin
 * installation's endpoint becomes another `kind` here (same signing and delivery path, its own
 * secret and URL), so the delivery code below never needs to know which kind it sends to.
 */
export interface Subscriber {
  kind: "webhook";
  id: string;
  site_id: string;
  url: string;
  secret: string;
  events: string[];
}

interface WebhookRow {
  id: string;
  site_id: string;
  url: string;
  secret: string;
  events: string;
}

function parseEvents(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === "string") : [];
}

/** Active subscribers of the site that take the event name. */
export async function subscribersFor(env: Env, siteId: string, name: string): Promise<Subscriber[]> {
  const rows = await env.DB.prepare("SELECT id, site_id, url, secret, events FROM webhooks WHERE site_id = ? AND active = 1 ORDER BY created_at, id")
    .bind(siteId)
    .all<WebhookRow>();
  return rows.results
    .map((r): Subscriber => ({ kind: "webhook", id: r.id, site_id: r.site_id, url: r.url, secret: r.secret, events: parseEvents(r.events) }))
    .filter((s) => subscribes(s.events, name));
}

/** One subscriber of the site by id, active or not (`null` when it is not the site's). */
export async function subscriberById(env: Env, siteId: string, id: string): Promise<(Subscriber & { active: boolean }) | null> {
  const row = await env.DB.prepare("SELECT id, site_id, url, secret, events, active FROM webhooks WHERE site_id = ? AND id = ?")
    .bind(siteId, id)
    .first<WebhookRow & { active: number }>();
  if (!row) return null;
  return { kind: "webhook", id: row.id, site_id: row.site_id, url: row.url, secret: row.secret, events: parseEvents(row.events), active: row.active === 1 };
}
