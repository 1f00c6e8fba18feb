import { isoAt, type Clock } from "../clock";
import type { Env, EventMessage } from "../env";
import { newId } from "../ids";
import { judgeOutboundUrl, outboundPolicy } from "../net/outbound-address";
import { envelopeOf, type OutboxRow } from "./envelope";
import { signatureHeader } from "./signature";
import { subscriberById, subscribersFor, takes, type Subscriber } from "./subscribers";
import { recordDatabases } from "../db/site-databases";
import { eventTiming } from "./timing";

/** Attempts per delivery before it is `dead` (listed in the admin dead letters). */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** Remote call timeout (spec Limits). */
export const DELIVERY_TIMEOUT_MS = 5000;
/** Longest backoff between attempts; the queue accepts at most 12 h. */
const MAX_BACKOFF_SECONDS = 3600;
const MAX_ERROR_LENGTH = 500;

/** Seconds to wait after the n-th failed attempt: 30 s, 60 s, 120 s, … capped at one hour. */
export function backoffSeconds(attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, 30 * 2 ** Math.max(0, attempts - 1));
}

/** What the queue consumer does with a message after {@link processEvent}. */
export type MessageVerdict = { action: "ack" } | { action: "retry"; delaySeconds: number };

interface DeliveryRow {
  id: string;
  site_id: string;
  event_id: string;
  webhook_id: string;
  attempts: number;
  next_attempt_at: string;
  state: "pending" | "delivered" | "dead";
}

/** The outbound fetch: the `WEBHOOK_FETCH` binding when present (tests), else global `fetch`. */
function outboundFetch(env: Env): (request: Request) => Promise<Response> {
  const binding = env.WEBHOOK_FETCH;
  return binding ? (request) => binding.fetch(request) : (request) => fetch(request);
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One signed POST of the envelope; success is any 2xx answer within the timeout (also the admin's test delivery, shared/events/webhook-test.ts). */
export async function attempt(env: Env, clock: Clock, subscriber: Subscriber, deliveryId: string, name: string, body: string): Promise<AttemptResult> {
  const timestamp = Math.floor(clock.now() / 1000);
  const request = new Request(subscriber.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Driftwood-Webhooks/1",
      "x-driftwood-event": name,
      "x-driftwood-delivery": deliveryId,
      "x-driftwood-timestamp": String(timestamp),
      "x-driftwood-signature": await signatureHeader(subscriber.secret, timestamp, body),
    },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  });
  try {
    const response = await outboundFetch(env)(request);
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: null };
    return { ok: false, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const text = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError") ? `timeout after ${DELIVERY_TIMEOUT_MS} ms` : String(error);
    return { ok: false, status: null, error: text.slice(0, MAX_ERROR_LENGTH) };
  }
}

/** The outbox row a message points to, and the database holding it. */
async function findEvent(env: Env, message: EventMessage): Promise<{ event: OutboxRow & { consumed_at: string | null }; store: D1Database } | undefined> {
  for (const store of await recordDatabases(env, message.site_id)) {
    const event = await store.prepare("SELECT id, site_id, name, payload, created_at, consumed_at FROM outbox_events WHERE id = ? AND site_id = ?")
      .bind(message.event_id, message.site_id)
      .first<OutboxRow & { consumed_at: string | null }>();
    if (event) return { event, store };
  }
  return undefined;
}

/**
 * Delivers one outbox event to every subscriber of its site that takes it. Each (event,
 * subscriber) pair has a row in `event_deliveries`; an attempt first claims the row (moving
 * `next_attempt_at` forward), so a message delivered twice by the queue never sends twice at once,
 * and a retried message re-sends only what is still pending. Returns `retry` with the shortest
 * wait still pending, else `ack`.
 *
 * The event is then marked consumed (`outbox_events.consumed_at`): its delivery rows exist and
 * their first attempts were made, so from here on they, not the message, carry it. Until then the
 * site's object counts it as not taken and sends it again after RESEND_AFTER_MS
 * (objects/site/sent-events.ts) — a message lost with a killed runtime, or one whose consumer
 * stopped mid-attempt. Such a resend, or one racing a slow consumer, reaches each subscriber once:
 * one delivery row per (event, subscriber), claimed before each attempt, never sent once delivered.
 */
export async function processEvent(env: Env, clock: Clock, message: EventMessage): Promise<MessageVerdict> {
  const found = await findEvent(env, message);
  if (!found) return { action: "ack" };
  // The delivery rows live beside their event: the site's database, or the control database for a
  // directory change's event (shared/db/tables.ts, RECORD_TABLES).
  const { event, store } = found;
  const envelope = envelopeOf(event);
  const body = JSON.stringify(envelope);

  const startedAt = isoAt(clock.now());
  const subscribers = await subscribersFor(env, event.site_id, event.name, envelope.data);
  if (subscribers.length > 0) {
    await store.batch(
      subscribers.map((s) =>
        store.prepare(
          `INSERT INTO event_deliveries (id, site_id, event_id, webhook_id, attempts, last_status, last_error, next_attempt_at, state, created_at, updated_at)
           VALUES (?, ?, ?, ?, 0, NULL, NULL, ?, 'pending', ?, ?) ON CONFLICT (event_id, webhook_id) DO NOTHING`,
        ).bind(newId("dlv"), event.site_id, event.id, s.id, startedAt, startedAt, startedAt),
      ),
    );
  }
  const pending = await store.prepare("SELECT id, site_id, event_id, webhook_id, attempts, next_attempt_at, state FROM event_deliveries WHERE site_id = ? AND event_id = ? AND state = 'pending' ORDER BY created_at, id")
    .bind(event.site_id, event.id)
    .all<DeliveryRow>();

  const policy = outboundPolicy(env);
  const { claimMs } = eventTiming(env);
  let wait: number | null = null;
  const later = (seconds: number) => {
    wait = wait === null ? seconds : Math.min(wait, seconds);
  };
  for (const delivery of pending.results) {
    const now = clock.now();
    const dueIn = Date.parse(delivery.next_attempt_at) - now;
    if (dueIn > 0) {
      later(Math.max(1, Math.ceil(dueIn / 1000)));
      continue;
    }
    const subscriber = subscribers.find((s) => s.id === delivery.webhook_id) ?? (await subscriberById(env, delivery.site_id, delivery.webhook_id));
    if (!subscriber || ("active" in subscriber && !subscriber.active)) {
      await store.prepare("UPDATE event_deliveries SET state = 'dead', last_error = ?, updated_at = ? WHERE id = ? AND site_id = ? AND state = 'pending'")
        .bind("subscriber removed", isoAt(now), delivery.id, delivery.site_id)
        .run();
      continue;
    }
    if (!takes(subscriber, event.name, envelope.data)) {
      // e.g. a plugin whose grant no longer includes the event's model: it must not receive it.
      await store.prepare("UPDATE event_deliveries SET state = 'dead', last_error = ?, updated_at = ? WHERE id = ? AND site_id = ? AND state = 'pending'")
        .bind("subscriber no longer takes this event", isoAt(now), delivery.id, delivery.site_id)
        .run();
      continue;
    }
    const address = judgeOutboundUrl(subscriber.url, policy);
    if (!address.ok) {
      // Checked at registration too; this catches rows written under an older or looser policy. Never retried.
      await store.prepare("UPDATE event_deliveries SET state = 'dead', last_error = ?, updated_at = ? WHERE id = ? AND site_id = ? AND state = 'pending'")
        .bind(`outbound address refused: ${address.reason}`, isoAt(now), delivery.id, delivery.site_id)
        .run();
      continue;
    }
    const claim = await store.prepare("UPDATE event_deliveries SET next_attempt_at = ?, updated_at = ? WHERE id = ? AND site_id = ? AND state = 'pending' AND next_attempt_at = ?")
      .bind(isoAt(now + claimMs), isoAt(now), delivery.id, delivery.site_id, delivery.next_attempt_at)
      .run();
    if (claim.meta.changes !== 1) continue; // another consumer holds it and owns its retry
    const result = await attempt(env, clock, subscriber, delivery.id, event.name, body);
    const attempts = delivery.attempts + 1;
    const at = isoAt(clock.now());
    if (result.ok) {
      await store.prepare("UPDATE event_deliveries SET state = 'delivered', attempts = ?, last_status = ?, last_error = NULL, next_attempt_at = ?, updated_at = ? WHERE id = ? AND site_id = ?")
        .bind(attempts, result.status, at, at, delivery.id, delivery.site_id)
        .run();
    } else if (attempts >= MAX_DELIVERY_ATTEMPTS) {
      await store.prepare("UPDATE event_deliveries SET state = 'dead', attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND site_id = ?")
        .bind(attempts, result.status, result.error, at, at, delivery.id, delivery.site_id)
        .run();
    } else {
      const delay = backoffSeconds(attempts);
      await store.prepare("UPDATE event_deliveries SET attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND site_id = ?")
        .bind(attempts, result.status, result.error, isoAt(clock.now() + delay * 1000), at, delivery.id, delivery.site_id)
        .run();
      later(delay);
    }
  }
  if (event.consumed_at === null) {
    await store.prepare("UPDATE outbox_events SET consumed_at = ? WHERE id = ? AND site_id = ? AND consumed_at IS NULL")
      .bind(isoAt(clock.now()), event.id, event.site_id)
      .run();
  }
  return wait === null ? { action: "ack" } : { action: "retry", delaySeconds: wait };
}

/** The queue consumer: one verdict per message; an unexpected failure retries the message. */
export async function consumeEvents(env: Env, clock: Clock, batch: MessageBatch<EventMessage>): Promise<void> {
  for (const message of batch.messages) {
    try {
      const verdict = await processEvent(env, clock, message.body);
      if (verdict.action === "ack") message.ack();
      else message.retry({ delaySeconds: verdict.delaySeconds });
    } catch (error) {
      console.error(JSON.stringify({ level: "error", site_id: message.body.site_id, event_id: message.body.event_id, message: "event delivery failed", error: String(error) }));
      message.retry({ delaySeconds: backoffSeconds(message.attempts) });
    }
  }
}
