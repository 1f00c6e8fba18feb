import type { Env } from "../env";
import { subscribes } from "./names";
import { siteScopedDatabase } from "../db/site-databases";

/**
 * Someone who receives a site's events over HTTP: a webhook (`whk_…`) or an active plugin
 * installation (`pin_…`) whose manifest lists `events`. Both share the delivery path (signing,
 * claims, backoff, dead letters); only {@link takes} differs, so the delivery code never needs to
 * know which kind it sends to.
 */
export interface Subscriber {
  kind: "webhook" | "plugin";
  id: string;
  site_id: string;
  url: string;
  secret: string;
  events: string[];
  /** Plugins only: the installation's granted models (events about other models are withheld). */
  model_ids: string[] | null;
}

interface WebhookRow {
  id: string;
  site_id: string;
  url: string;
  secret: string;
  events: string;
}

interface PluginRow {
  id: string;
  site_id: string;
  manifest: string;
  granted_model_ids: string;
  event_secret: string | null;
  state: string;
}

function parseStrings(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((e): e is string => typeof e === "string") : [];
}

/** `POST <endpoint>/events`: the manifest's endpoint without trailing slashes, then `/events`. */
export function pluginEventsUrl(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/events`;
  return url.toString();
}

const webhookSubscriber = (r: WebhookRow): Subscriber => ({ kind: "webhook", id: r.id, site_id: r.site_id, url: r.url, secret: r.secret, events: parseStrings(r.events), model_ids: null });

/** A plugin installation as a subscriber, or null when it has no event secret or endpoint. */
function pluginSubscriber(r: PluginRow): Subscriber | null {
  if (r.event_secret === null) return null;
  const manifest = JSON.parse(r.manifest) as { endpoint?: unknown; events?: unknown };
  if (typeof manifest.endpoint !== "string") return null;
  const events = Array.isArray(manifest.events) ? manifest.events.filter((e): e is string => typeof e === "string") : [];
  return { kind: "plugin", id: r.id, site_id: r.site_id, url: pluginEventsUrl(manifest.endpoint), secret: r.event_secret, events, model_ids: parseStrings(r.granted_model_ids) };
}

/** The payload's `model_id` when it names one (a non-empty string), else null. */
function modelOf(data: Readonly<Record<string, unknown>>): string | null {
  const id = data.model_id;
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * Whether a subscriber takes an event. Webhooks: the name is listed, or `*`. Plugins (docs/events.md,
 * "Plugin subscribers"): an event about a model (payload `model_id`) only when that model is
 * granted to the installation, by name or `*`; an event about no model (`role.*`, `site.*`, a
 * proposal for a new model) only when the manifest lists its name explicitly — `*` is not enough.
 */
export function takes(subscriber: Pick<Subscriber, "kind" | "events" | "model_ids">, name: string, data: Readonly<Record<string, unknown>>): boolean {
  if (subscriber.kind === "webhook") return subscribes(subscriber.events, name);
  const modelId = modelOf(data);
  if (modelId === null) return subscriber.events.includes(name);
  return subscribes(subscriber.events, name) && (subscriber.model_ids ?? []).includes(modelId);
}

/** Active subscribers of the site that take the event (name and payload `data`). */
export async function subscribersFor(env: Env, siteId: string, name: string, data: Readonly<Record<string, unknown>>): Promise<Subscriber[]> {
  // Webhooks are content, installations directory: one handle reads each where it lives.
  const d1 = await siteScopedDatabase(env, siteId);
  const [hooks, plugins] = await d1.batch([
    d1.prepare("SELECT id, site_id, url, secret, events FROM webhooks WHERE site_id = ? AND active = 1 ORDER BY created_at, id").bind(siteId),
    d1.prepare(
      "SELECT id, site_id, manifest, granted_model_ids, event_secret, state FROM plugin_installations WHERE site_id = ? AND state = 'active' AND event_secret IS NOT NULL ORDER BY created_at, id",
    ).bind(siteId),
  ]);
  const webhooks = ((hooks?.results ?? []) as WebhookRow[]).map(webhookSubscriber);
  const installations = ((plugins?.results ?? []) as PluginRow[]).flatMap((r) => pluginSubscriber(r) ?? []);
  return [...webhooks, ...installations].filter((s) => takes(s, name, data));
}

/**
 * One subscriber of the site by id, active or not (`null` when it is not the site's, or is a
 * plugin that was uninstalled). A plugin counts as active only in state `active` with a secret.
 */
export async function subscriberById(env: Env, siteId: string, id: string): Promise<(Subscriber & { active: boolean }) | null> {
  const d1 = await siteScopedDatabase(env, siteId);
  if (id.startsWith("pin_")) {
    const row = await d1.prepare("SELECT id, site_id, manifest, granted_model_ids, event_secret, state FROM plugin_installations WHERE site_id = ? AND id = ?")
      .bind(siteId, id)
      .first<PluginRow>();
    const subscriber = row ? pluginSubscriber(row) : null;
    if (!row || !subscriber) return null;
    return { ...subscriber, active: row.state === "active" };
  }
  const row = await d1.prepare("SELECT id, site_id, url, secret, events, active FROM webhooks WHERE site_id = ? AND id = ?")
    .bind(siteId, id)
    .first<WebhookRow & { active: number }>();
  if (!row) return null;
  return { ...webhookSubscriber(row), active: row.active === 1 };
}
