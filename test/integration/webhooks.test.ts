import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectValue, settle, siteObject } from "../../workers/forward";
import { MAX_DELIVERY_ATTEMPTS } from "../../shared/events/deliver";
import { adminCall, signIn, type AdminSession } from "../helpers/admin-api";
import { callsTo, driveQueue, hmacHex, messagesOf, setFailing, setSlow, silenceAutoQueue } from "../helpers/event-receiver";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";


interface Created {
  id: string;
  url: string;
  events: string[];
  secret: string;
}

interface DeadLetter {
  id: string;
  event_id: string;
  event_name: string | null;
  webhook_id: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  dead_at: string;
}

let paths = 0;
const newPath = () => `/hook-${Date.now().toString(36)}-${(paths++).toString(36)}`;


async function subscribe(session: AdminSession, s: SeededSite, path: string, events: string[] = ["*"]): Promise<Created> {
  const res = await adminCall<Created>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: `https://hooks.example.test${path}`, events } });
  if (res.status !== 201) throw new Error(`subscribe failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, session };
}

/** Creates and publishes an author through the site's object; answers both writes' events. */
async function createAndPublish(s: SeededSite, authorModelId: string, name = "Ada") {
  const stub = siteObject(env, s.site.id);
  const created = await expectValue(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: authorModelId, fields: { name } } }));
  const published = await expectValue(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: created.body.instance_id } }));
  return { created, published };
}


async function outboxCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}

silenceAutoQueue();

describe("webhook subscriptions (admin)", () => {
  it("creates with the secret shown once, lists without it, checks url and events, deletes", async () => {
    const { s, session } = await setup();
    const created = await subscribe(session, s, newPath(), ["entry.published"]);
    expect(created.id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await adminCall<{ data: Record<string, unknown>[] }>(session, "GET", "/api/webhooks", { siteId: s.site.id });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]?.id).toBe(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    expect(list.body.data[0]).not.toHaveProperty("secret");

    const plainHttp = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "http://example.com/x", events: ["*"] } });
    expect(plainHttp.status).toBe(400);
    // Loopback only under the local development policy; the tests run with the production one (docs/outbound-addresses.md).
    const local = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "http://127.0.0.1:8787/x", events: ["*"] } });
    expect(local.status).toBe(400);
    const unknown = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "https://a.test/x", events: ["entry.nope"] } });
    expect(unknown.status).toBe(400);
    const noCsrf = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, csrf: null, body: { url: "https://a.test/x", events: ["*"] } });
    expect(noCsrf.status).toBe(403);

    const editor = await s.person("editor");
    const editorRow = await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(editor.id).first<{ email: string }>();
    const editorSession = await signIn(editorRow?.email ?? "", "pw");
    const refused = await adminCall<{ error: { code: string } }>(editorSession, "GET", "/api/webhooks", { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");

    expect((await adminCall(session, "DELETE", `/api/webhooks/${created.id}`, { siteId: s.site.id })).status).toBe(200);
    expect((await adminCall(session, "DELETE", `/api/webhooks/${created.id}`, { siteId: s.site.id })).status).toBe(404);
    const after = await adminCall<{ data: { id: string }[] }>(session, "GET", "/api/webhooks", { siteId: s.site.id });
    expect(after.body.data.map((w) => w.id)).not.toContain(created.id);
  });
});

describe("event delivery", () => {
  it("a publish through the site's object is delivered once, signed", async () => {
    const { s, models, session } = await setup();
    const path = newPath();
    const hook = await subscribe(session, s, path, ["entry.published"]);
    const { created, published } = await createAndPublish(s, models.author.id);
    expect(published.events.map((e) => e.name)).toEqual(["entry.published"]);

    const result = await driveQueue(messagesOf(s.site.id, [...created.events, ...published.events]));
    expect(result.retryMessages).toEqual([]);
    // Driving the same messages again (the queue delivers at least once) sends nothing new.
    await driveQueue(messagesOf(s.site.id, published.events));

    const calls = await callsTo(path);
    expect(calls).toHaveLength(1);
    const call = calls[0];
    if (!call) throw new Error("no call");
    expect(call.headers["x-driftwood-event"]).toBe("entry.published");
    expect(call.headers["x-driftwood-delivery"]).toMatch(/^dlv_/);
    expect(call.headers["content-type"]).toBe("application/json");
    const timestamp = call.headers["x-driftwood-timestamp"] ?? "";
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(call.headers["x-driftwood-signature"]).toBe(`v1=${await hmacHex(hook.secret, `${timestamp}.${call.body}`)}`);
    const envelope = JSON.parse(call.body) as { id: string; name: string; site_id: string; occurred_at: string; data: Record<string, unknown> };
    expect(envelope.id).toBe(published.events[0]?.id);
    expect(envelope.name).toBe("entry.published");
    expect(envelope.site_id).toBe(s.site.id);
    expect(typeof envelope.occurred_at).toBe("string");
    expect(envelope.data.instance_id).toBe(created.body.instance_id);
    expect(envelope.data).not.toHaveProperty("site_id");
  });

  it("respects the event filter", async () => {
    const { s, models, session } = await setup();
    const onlyCreated = newPath();
    const everything = newPath();
    await subscribe(session, s, onlyCreated, ["entry.created"]);
    await subscribe(session, s, everything, ["*"]);
    const { created, published } = await createAndPublish(s, models.author.id);
    await driveQueue(messagesOf(s.site.id, [...created.events, ...published.events]));
    expect((await callsTo(onlyCreated)).map((c) => c.headers["x-driftwood-event"])).toEqual(["entry.created"]);
    expect((await callsTo(everything)).map((c) => c.headers["x-driftwood-event"]).sort()).toEqual(["entry.created", "entry.published"]);
  });

  it("gives up on a receiver after 5000 ms and retries it later (spec: remote call timeout)", async () => {
    const { s, models, session } = await setup();
    const path = newPath();
    await setSlow(path, true);
    await subscribe(session, s, path, ["entry.published"]);
    const { published } = await createAndPublish(s, models.author.id);
    const result = await driveQueue(messagesOf(s.site.id, published.events));
    expect(result.retryMessages).toHaveLength(1);
    expect(await callsTo(path)).toHaveLength(1);
    const row = await env.DB.prepare("SELECT state, attempts, last_status, last_error FROM event_deliveries WHERE site_id = ?").bind(s.site.id).first();
    expect(row).toEqual({ state: "pending", attempts: 1, last_status: null, last_error: "timeout after 5000 ms" });
    await setSlow(path, false);
  });

  it("retries a failing receiver with growing backoff, then lists it dead; a retry delivers", async () => {
    const { s, models, session } = await setup();
    const path = newPath();
    await setFailing(path, true);
    await subscribe(session, s, path, ["entry.published"]);
    const { published } = await createAndPublish(s, models.author.id);
    const message = messagesOf(s.site.id, published.events);
    const delays: number[] = [];
    for (let i = 1; i <= MAX_DELIVERY_ATTEMPTS; i++) {
      const result = await driveQueue(message);
      if (i < MAX_DELIVERY_ATTEMPTS) {
        expect(result.retryMessages).toHaveLength(1);
        delays.push(result.delays[0] ?? 0);
      } else {
        expect(result.retryMessages).toEqual([]);
        expect(result.explicitAcks).toHaveLength(1);
      }
      // A message arriving before its backoff elapsed sends nothing and waits again.
      if (i === 1) {
        const early = await driveQueue(message);
        expect(early.retryMessages).toHaveLength(1);
        expect((await callsTo(path)).length).toBe(1);
      }
      // Let the backoff elapse.
      await env.DB.prepare("UPDATE event_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE site_id = ? AND state = 'pending'").bind(s.site.id).run();
    }
    expect(delays[0]).toBe(30);
    for (let i = 1; i < delays.length; i++) expect(delays[i] ?? 0).toBeGreaterThan(delays[i - 1] ?? 0);
    expect(await callsTo(path)).toHaveLength(MAX_DELIVERY_ATTEMPTS);

    const dead = await adminCall<{ data: DeadLetter[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
    expect(dead.status).toBe(200);
    expect(dead.body.data).toHaveLength(1);
    const letter = dead.body.data[0];
    if (!letter) throw new Error("no dead letter");
    expect(letter.event_name).toBe("entry.published");
    expect(letter.attempts).toBe(MAX_DELIVERY_ATTEMPTS);
    expect(letter.last_status).toBe(500);
    expect(letter.last_error).toBe("HTTP 500");

    await setFailing(path, false);
    const retried = await adminCall(session, "POST", `/api/webhooks/dead-letters/${letter.id}/retry`, { siteId: s.site.id });
    expect(retried.status).toBe(202);
    const again = await driveQueue(message);
    expect(again.retryMessages).toEqual([]);
    const calls = await callsTo(path);
    expect(calls).toHaveLength(MAX_DELIVERY_ATTEMPTS + 1);
    expect(calls.at(-1)?.headers["x-driftwood-delivery"]).toBe(letter.id);
    const afterRetry = await adminCall<{ data: DeadLetter[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
    expect(afterRetry.body.data).toEqual([]);
    expect((await adminCall(session, "POST", `/api/webhooks/dead-letters/${letter.id}/retry`, { siteId: s.site.id })).status).toBe(404);
  });

  it("keeps sites apart: site B's webhook never receives site A's events", async () => {
    const a = await setup();
    const b = await setup();
    const pathA = newPath();
    const pathB = newPath();
    await subscribe(a.session, a.s, pathA);
    await subscribe(b.session, b.s, pathB);
    const { created, published } = await createAndPublish(a.s, a.models.author.id);
    const events = [...created.events, ...published.events];
    await driveQueue(messagesOf(a.s.site.id, events));
    // A message naming A's event under B's site loads nothing (the outbox read is site-scoped).
    const forged = await driveQueue(messagesOf(b.s.site.id, events));
    expect(forged.retryMessages).toEqual([]);
    expect(await callsTo(pathA)).toHaveLength(2);
    expect(await callsTo(pathB)).toHaveLength(0);
    // Nor does site B's dead-letter retry reach A's deliveries.
    const letterOfA = await env.DB.prepare("SELECT id FROM event_deliveries WHERE site_id = ? LIMIT 1").bind(a.s.site.id).first<{ id: string }>();
    expect((await adminCall(b.session, "POST", `/api/webhooks/dead-letters/${letterOfA?.id ?? ""}/retry`, { siteId: b.s.site.id })).status).toBe(404);
  });

  it("a refused write and an idempotent replay add no outbox event", async () => {
    const { s, models } = await setup();
    const stub = siteObject(env, s.site.id);
    const before = await outboxCount(s.site.id);
    const refused = await settle(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: "ent_missing" } }));
    expect(refused.ok).toBe(false);
    expect(await outboxCount(s.site.id)).toBe(before);

    const request = {
      siteId: s.site.id,
      actor: s.admin,
      input: { model_id: models.author.id, fields: { name: "Once" } },
      idempotency: { scope: "test", key: `k-${Date.now()}`, fingerprint: "fp", retentionMs: 60_000 },
    };
    const first = await expectValue(stub.createEntry(request));
    expect(first.replayed).toBe(false);
    expect(await outboxCount(s.site.id)).toBe(before + 1);
    const replay = await expectValue(stub.createEntry(request));
    expect(replay.replayed).toBe(true);
    expect(await outboxCount(s.site.id)).toBe(before + 1);
  });
});
