import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, beforeEach, vi } from "vitest";
import worker from "../../workers/index";
import type { EventMessage } from "../../shared/env";

/**
 * The fake receiver of outbound deliveries (the `WEBHOOK_FETCH` binding of vitest.config.ts) and
 * a driver for the real queue consumer: tests of webhooks and plugin events call `driveQueue`
 * themselves, so every delivery attempt is explicit.
 */

/** One delivery the receiver recorded. */
export interface ReceivedCall {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The real consumer, kept before `silenceAutoQueue` replaces it for each test. */
const realQueue = worker.queue;

/** The queue also runs the consumer by itself; tests drive it explicitly instead. Call at module level. */
export function silenceAutoQueue(): void {
  beforeEach(() => {
    vi.spyOn(worker, "queue").mockImplementation(async (batch) => batch.ackAll());
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
}

function receiver(): Fetcher {
  const bound = env.WEBHOOK_FETCH;
  if (!bound) throw new Error("WEBHOOK_FETCH is not bound (vitest.config.ts)");
  return bound;
}

/** Every delivery the receiver got at `path`. */
export async function callsTo(path: string): Promise<ReceivedCall[]> {
  return (await (await receiver().fetch(`http://receiver.control/calls?path=${encodeURIComponent(path)}`)).json()) as ReceivedCall[];
}

/** Makes the receiver answer 500 at `path` (or stop failing). */
export async function setFailing(path: string, failing: boolean): Promise<void> {
  await receiver().fetch(`http://receiver.control/fail?path=${encodeURIComponent(path)}`, { method: failing ? "PUT" : "DELETE" });
}

/** Makes the receiver answer only after 8000 ms at `path` (or stop being slow). */
export async function setSlow(path: string, slow: boolean): Promise<void> {
  await receiver().fetch(`http://receiver.control/slow?path=${encodeURIComponent(path)}`, { method: slow ? "PUT" : "DELETE" });
}

let messages = 0;
/** Runs the worker's queue consumer on messages, like the queue would; reports the retry delays asked for. */
export async function driveQueue(bodies: EventMessage[]) {
  const batch = createMessageBatch<EventMessage>(
    "driftwood-events",
    bodies.map((body) => ({ id: `msg-${messages++}`, timestamp: new Date(), attempts: 1, body })),
  );
  // getQueueResult does not report delays; watch each message's retry call for them.
  const retries = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await realQueue.call(worker, batch, env);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map((args) => args[0]?.delaySeconds));
  return { ...result, delays };
}

/** Hex HMAC-SHA256, to check a delivery's signature independently of the code that signs it. */
export async function hmacHex(secret: string, text: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(text));
  return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Queue messages for events a write reported. */
export const messagesOf = (siteId: string, events: { id: string }[]): EventMessage[] => events.map((e) => ({ event_id: e.id, site_id: siteId }));
