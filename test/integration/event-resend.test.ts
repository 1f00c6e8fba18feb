import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RESEND_AFTER_MS } from "../../objects/site/sent-events";
import { systemClock } from "../../shared/clock";
import type { EventMessage } from "../../shared/env";
import { expectValue, siteObject } from "../../workers/forward";
import worker from "../../workers/index";
import { adminCall, signIn } from "../helpers/admin-api";
import { callsTo, driveQueue } from "../helpers/event-receiver";
import { blogModels, seedSite } from "../helpers/fixtures";

/**
 * Events survive a crash (issue 22, item 16; docs/events.md, "After a crash"). A message handed to
 * the queue dies with a local runtime killed before consuming it, so a row marked handed over is
 * not done: it is done when the consumer marks it consumed. The site object's alarm stays armed
 * while rows are handed over, and sends again those no consumer took within RESEND_AFTER_MS; the
 * consumer's one delivery row per (event, subscriber), claimed before each attempt, keeps a resend
 * — or one racing a slow consumer — to one call at the receiver.
 */

type OutboxRow = { id: string; enqueued_at: string | null; consumed_at: string | null };

const row = (id: string) => env.DB.prepare("SELECT id, enqueued_at, consumed_at FROM outbox_events WHERE id = ?").bind(id).first<OutboxRow>();

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const eventIdsAt = async (path: string) => (await callsTo(path)).map((c) => (JSON.parse(c.body) as { id: string }).id);

let paths = 0;
const newPath = () => `/resend-${Date.now().toString(36)}-${(paths++).toString(36)}`;

/** A seeded site with a webhook taking `entry.created` at a fresh path of the fake receiver. */
async function siteWithHook() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const session = await signIn(`${s.site.slug}@example.test`);
  const path = newPath();
  const hook = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: `https://hooks.example.test${path}`, events: ["entry.created"] } });
  expect(hook.status).toBe(201);
  const stub = siteObject(env, s.site.id);
  const create = async (name: string) =>
    (await expectValue(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: models.author.id, fields: { name } } }))).events[0]?.id ?? "";
  return { s, stub, path, create };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a row handed to the queue but never consumed", () => {
  it("keeps the alarm armed for the bound, is sent again by it after the bound and reaches the receiver once; a consumed row is not sent again", async () => {
    const { stub, path, create } = await siteWithHook();

    // The queue takes the first write's message and loses it, as a killed local runtime does.
    const lost: EventMessage[] = [];
    const queue = vi.spyOn(worker, "queue").mockImplementation(async (batch) => {
      lost.push(...batch.messages.map((m) => m.body));
      batch.ackAll();
    });
    const lostId = await create("Lost with the queue");
    await until("the queue to take the message", async () => lost.map((m) => m.event_id), (ids) => ids.includes(lostId));
    queue.mockRestore();

    // A second write is consumed normally.
    const takenId = await create("Consumed");
    await until("the consumer to mark the second event consumed", () => row(takenId), (r) => r?.consumed_at != null);
    expect(await eventIdsAt(path)).toEqual([takenId]);

    // The alarm marks both handed over, and stays armed to look for unconsumed rows within the bound.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const marked = await row(lostId);
    expect(marked?.enqueued_at).not.toBeNull();
    expect(marked?.consumed_at).toBeNull();
    const alarm = await runInDurableObject(stub, (_o, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm ?? Infinity).toBeLessThanOrEqual(Date.now() + RESEND_AFTER_MS);

    // Before the bound, the alarm sends nothing again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await row(lostId))?.enqueued_at).toBe(marked?.enqueued_at);

    // After the bound: the lost row is sent again and consumed; the consumed one is not sent again.
    const later = Date.now() + RESEND_AFTER_MS + 1_000;
    vi.spyOn(systemClock, "now").mockImplementation(() => later);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const resent = await row(lostId);
    expect(resent?.enqueued_at).toBe(new Date(later).toISOString());
    await until("the resent event to be consumed", () => row(lostId), (r) => r?.consumed_at != null);
    expect((await eventIdsAt(path)).sort()).toEqual([lostId, takenId].sort());
    // Nothing left unconsumed: no further resend, whatever the alarm does next.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await eventIdsAt(path)).sort()).toEqual([lostId, takenId].sort());
  });
});

describe("the consumer's dedupe by event id", () => {
  it("sends a duplicate message of an event, racing or after the first, to the receiver once", async () => {
    const { s, path, create } = await siteWithHook();
    // Its own message is lost, so only the duplicates driven below reach the consumer.
    vi.spyOn(worker, "queue").mockImplementation(async (batch) => batch.ackAll());
    const id = await create("Sent three times");
    const message = { event_id: id, site_id: s.site.id };
    // A resend racing a consumer still working on the first message, then one arriving after.
    // (A copy that finds the delivery claimed asks for a retry; that retry finds it delivered.)
    await Promise.all([driveQueue([message]), driveQueue([message]), driveQueue([message])]);
    await driveQueue([message]);
    expect(await eventIdsAt(path)).toEqual([id]);
    expect((await row(id))?.consumed_at).not.toBeNull();
  });
});
