import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectValue, siteObject } from "../../workers/forward";
import { MAX_DELIVERY_ATTEMPTS } from "../../shared/events/deliver";
import { pluginEventsUrl, takes } from "../../shared/events/subscribers";
import { grantInstallation, rotateInstallationToken, transitionInstallation, uninstallPlugin } from "../../shared/services/plugins/installations";
import { adminCall, signIn } from "../helpers/admin-api";
import { callsTo, driveQueue, hmacHex, messagesOf, setFailing, silenceAutoQueue } from "../helpers/event-receiver";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { installTestPlugin, testManifest } from "../helpers/plugins";


interface DeadLetter {
  id: string;
  event_name: string | null;
  webhook_id: string;
  webhook_url: string | null;
  subscriber_kind: "webhook" | "plugin";
  attempts: number;
  last_status: number | null;
}

/** A write's answer as far as these tests read it (the generic `command` loses its type over RPC). */
interface Written {
  events: { id: string; name: string }[];
}

let bases = 0;
/** A fresh plugin base path; its events arrive at `<base>/events`. */
const newBase = () => `/plugin-${Date.now().toString(36)}-${(bases++).toString(36)}`;



async function outboxCount(siteId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE site_id = ?").bind(siteId).first<{ n: number }>();
  return row?.n ?? 0;
}

let pluginIds = 0;
/** Installs an active plugin at a fresh base URL subscribed to `events`, granted `modelIds`. */
async function plugin(s: SeededSite, modelIds: string[], events: string[] = ["entry.published"], state: "active" | "disabled" = "active") {
  const base = newBase();
  const manifest = testManifest({ id: `events-${(pluginIds++).toString(36)}`, endpoint: `https://plugins.example.test${base}/`, events });
  const installed = await installTestPlugin(s, { manifest, modelIds, state });
  if (!installed.eventSecret) throw new Error("no event secret in the install answer");
  return { ...installed, eventSecret: installed.eventSecret, eventsPath: `${base}/events` };
}

async function createAndPublish(s: SeededSite, modelId: string, name = "Ada") {
  const stub = siteObject(env, s.site.id);
  const created = await expectValue(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: modelId, fields: { name } } }));
  const published = await expectValue(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: created.body.instance_id } }));
  return { created, published };
}

silenceAutoQueue();

describe("plugin event subscribers", () => {
  it("an active plugin subscribed to entry.published receives a signed delivery at <endpoint>/events", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const p = await plugin(s, [models.author.id]);
    expect(p.eventSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const { created, published } = await createAndPublish(s, models.author.id);
    const result = await driveQueue(messagesOf(s.site.id, [...created.events, ...published.events]));
    expect(result.retryMessages).toEqual([]);
    await driveQueue(messagesOf(s.site.id, published.events)); // at-least-once: nothing new

    const calls = await callsTo(p.eventsPath);
    expect(calls).toHaveLength(1); // entry.created is not in the manifest
    const call = calls[0];
    if (!call) throw new Error("no call");
    expect(call.url).toBe(`https://plugins.example.test${p.eventsPath}`);
    expect(call.headers["x-driftwood-event"]).toBe("entry.published");
    expect(call.headers["x-driftwood-delivery"]).toMatch(/^dlv_/);
    const timestamp = call.headers["x-driftwood-timestamp"] ?? "";
    expect(call.headers["x-driftwood-signature"]).toBe(`v1=${await hmacHex(p.eventSecret, `${timestamp}.${call.body}`)}`);
    const envelope = JSON.parse(call.body) as { id: string; name: string; site_id: string; data: Record<string, unknown> };
    expect(envelope).toMatchObject({ id: published.events[0]?.id, name: "entry.published", site_id: s.site.id });
    expect(envelope.data.instance_id).toBe(created.body.instance_id);
    const row = await env.DB.prepare("SELECT webhook_id, state FROM event_deliveries WHERE site_id = ? AND event_id = ?").bind(s.site.id, envelope.id).first();
    expect(row).toEqual({ webhook_id: p.id, state: "delivered" });

    // The secret is never listed.
    const session = await signIn(`${s.site.slug}@example.test`);
    const list = await adminCall(session, "GET", "/api/plugins", { siteId: s.site.id });
    expect(JSON.stringify(list.body)).not.toContain(p.eventSecret);
    expect(JSON.stringify(list.body)).not.toContain("event_secret");
  });

  it("withholds events of models not granted, from disabled plugins, and model-less events unless named", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const notGranted = await plugin(s, [models.article.id]);
    const disabled = await plugin(s, [models.author.id], ["entry.published"], "disabled");
    const both = await plugin(s, [models.author.id], ["entry.created", "entry.published", "role.created"]);
    const { created, published } = await createAndPublish(s, models.author.id);
    await driveQueue(messagesOf(s.site.id, [...created.events, ...published.events]));
    expect(await callsTo(notGranted.eventsPath)).toHaveLength(0);
    expect(await callsTo(disabled.eventsPath)).toHaveLength(0);
    expect((await callsTo(both.eventsPath)).map((c) => c.headers["x-driftwood-event"]).sort()).toEqual(["entry.created", "entry.published"]);

    // A role event has no model: a plugin naming it receives it whatever its models.
    const role = (await expectValue(
      siteObject(env, s.site.id).command("createRole", { siteId: s.site.id, actor: s.admin, input: { slug: "reviewer", name: "Reviewer", permissions: { models: {}, system: [] } } }),
    )) as Written;
    expect(role.events.map((e) => e.name)).toEqual(["role.created"]);
    await driveQueue(messagesOf(s.site.id, role.events));
    expect((await callsTo(both.eventsPath)).map((c) => c.headers["x-driftwood-event"]).sort()).toEqual(["entry.created", "entry.published", "role.created"]);
    expect(await callsTo(notGranted.eventsPath)).toHaveLength(0);
    // Manifests list names; should "*" ever reach a plugin subscriber, it never takes a model-less event.
    expect(takes({ kind: "plugin", events: ["*"], model_ids: [models.author.id] }, "role.created", { role_id: "rol_x" })).toBe(false);
    expect(takes({ kind: "plugin", events: ["role.created"], model_ids: [] }, "role.created", { role_id: "rol_x" })).toBe(true);
    expect(takes({ kind: "webhook", events: ["*"], model_ids: null }, "role.created", { role_id: "rol_x" })).toBe(true);
    expect(pluginEventsUrl("https://p.example/base/")).toBe("https://p.example/base/events");
    expect(pluginEventsUrl("http://127.0.0.1:9/plugin")).toBe("http://127.0.0.1:9/plugin/events");

    // A pending delivery whose plugin was disabled (or uninstalled) meanwhile ends dead.
    const later = await plugin(s, [models.author.id]);
    const second = await createAndPublish(s, models.author.id, "Grace");
    const failingPath = later.eventsPath;
    await setFailing(failingPath, true);
    await driveQueue(messagesOf(s.site.id, second.published.events));
    expect(await callsTo(failingPath)).toHaveLength(1);
    await transitionInstallation(s.ctx(), later.id, "disable");
    await env.DB.prepare("UPDATE event_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE site_id = ? AND state = 'pending'").bind(s.site.id).run();
    const after = await driveQueue(messagesOf(s.site.id, second.published.events));
    expect(after.retryMessages).toEqual([]);
    expect(await callsTo(failingPath)).toHaveLength(1);
    const dead = await env.DB.prepare("SELECT state, last_error FROM event_deliveries WHERE site_id = ? AND webhook_id = ?").bind(s.site.id, later.id).first();
    expect(dead).toEqual({ state: "dead", last_error: "subscriber removed" });
    await setFailing(failingPath, false);
    await uninstallPlugin(s.ctx(), later.id);
  });

  it("a pending delivery ends dead, unsent, when the grant no longer includes its model", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const p = await plugin(s, [models.author.id]);
    await setFailing(p.eventsPath, true);
    const { published } = await createAndPublish(s, models.author.id);
    await driveQueue(messagesOf(s.site.id, published.events));
    expect(await callsTo(p.eventsPath)).toHaveLength(1);
    await grantInstallation(s.ctx(), p.id, { capabilities: ["content:read"], model_ids: [models.article.id] });
    await env.DB.prepare("UPDATE event_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE site_id = ? AND state = 'pending'").bind(s.site.id).run();
    expect((await driveQueue(messagesOf(s.site.id, published.events))).retryMessages).toEqual([]);
    expect(await callsTo(p.eventsPath)).toHaveLength(1);
    const row = await env.DB.prepare("SELECT state, last_error FROM event_deliveries WHERE site_id = ? AND webhook_id = ?").bind(s.site.id, p.id).first();
    expect(row).toEqual({ state: "dead", last_error: "subscriber no longer takes this event" });
    await setFailing(p.eventsPath, false);
  });

  it("a replayed publish (same idempotency key) creates no event and no second delivery", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const p = await plugin(s, [models.author.id]);
    const stub = siteObject(env, s.site.id);
    const created = await expectValue(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: models.author.id, fields: { name: "Once" } } }));
    const request = {
      siteId: s.site.id,
      actor: s.admin,
      input: { instance_id: created.body.instance_id },
      idempotency: { scope: "test", key: `pub-${Date.now()}`, fingerprint: "fp", retentionMs: 60_000 },
    };
    const first = await expectValue(stub.publish(request));
    expect(first.replayed).toBe(false);
    const before = await outboxCount(s.site.id);
    const replay = await expectValue(stub.publish(request));
    expect(replay.replayed).toBe(true);
    expect(await outboxCount(s.site.id)).toBe(before);
    await driveQueue(messagesOf(s.site.id, [...first.events, ...replay.events]));
    expect(await callsTo(p.eventsPath)).toHaveLength(1);
  });

  it("retries a failing plugin with backoff, lists it in the admin dead letters, and a retry delivers", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const session = await signIn(`${s.site.slug}@example.test`);
    const p = await plugin(s, [models.author.id]);
    await setFailing(p.eventsPath, true);
    const { published } = await createAndPublish(s, models.author.id);
    const message = messagesOf(s.site.id, published.events);
    const delays: number[] = [];
    for (let i = 1; i <= MAX_DELIVERY_ATTEMPTS; i++) {
      const result = await driveQueue(message);
      if (i < MAX_DELIVERY_ATTEMPTS) delays.push(result.delays[0] ?? 0);
      else expect(result.retryMessages).toEqual([]);
      await env.DB.prepare("UPDATE event_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE site_id = ? AND state = 'pending'").bind(s.site.id).run();
    }
    expect(delays[0]).toBe(30);
    for (let i = 1; i < delays.length; i++) expect(delays[i] ?? 0).toBeGreaterThan(delays[i - 1] ?? 0);
    expect(await callsTo(p.eventsPath)).toHaveLength(MAX_DELIVERY_ATTEMPTS);

    const dead = await adminCall<{ data: DeadLetter[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
    expect(dead.status).toBe(200);
    expect(dead.body.data).toHaveLength(1);
    const letter = dead.body.data[0];
    if (!letter) throw new Error("no dead letter");
    expect(letter).toMatchObject({
      event_name: "entry.published",
      webhook_id: p.id,
      webhook_url: `https://plugins.example.test${p.eventsPath}`,
      subscriber_kind: "plugin",
      attempts: MAX_DELIVERY_ATTEMPTS,
      last_status: 500,
    });

    // Disabled: the retry is refused (409); active again: it delivers, signed with the rotated secret.
    await transitionInstallation(s.ctx(), p.id, "disable");
    expect((await adminCall(session, "POST", `/api/webhooks/dead-letters/${letter.id}/retry`, { siteId: s.site.id })).status).toBe(409);
    await transitionInstallation(s.ctx(), p.id, "activate");
    const rotated = await rotateInstallationToken(s.ctx(), p.id);
    expect(rotated.event_secret).toMatch(/^whsec_/);
    expect(rotated.event_secret).not.toBe(p.eventSecret);
    await setFailing(p.eventsPath, false);
    expect((await adminCall(session, "POST", `/api/webhooks/dead-letters/${letter.id}/retry`, { siteId: s.site.id })).status).toBe(202);
    expect((await driveQueue(message)).retryMessages).toEqual([]);
    const calls = await callsTo(p.eventsPath);
    expect(calls).toHaveLength(MAX_DELIVERY_ATTEMPTS + 1);
    const last = calls.at(-1);
    if (!last) throw new Error("no call");
    expect(last.headers["x-driftwood-delivery"]).toBe(letter.id);
    const ts = last.headers["x-driftwood-timestamp"] ?? "";
    expect(last.headers["x-driftwood-signature"]).toBe(`v1=${await hmacHex(rotated.event_secret, `${ts}.${last.body}`)}`);
    expect((await adminCall<{ data: DeadLetter[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id })).body.data).toEqual([]);

    // Uninstalled: its dead letters stay listed (no URL) and cannot be retried.
    await setFailing(p.eventsPath, true);
    const again = await createAndPublish(s, models.author.id, "Grace");
    const msg2 = messagesOf(s.site.id, again.published.events);
    for (let i = 1; i <= MAX_DELIVERY_ATTEMPTS; i++) {
      await driveQueue(msg2);
      await env.DB.prepare("UPDATE event_deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE site_id = ? AND state = 'pending'").bind(s.site.id).run();
    }
    await setFailing(p.eventsPath, false);
    await uninstallPlugin(s.ctx(), p.id);
    const gone = await adminCall<{ data: DeadLetter[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
    expect(gone.body.data).toHaveLength(1);
    expect(gone.body.data[0]).toMatchObject({ subscriber_kind: "plugin", webhook_id: p.id, webhook_url: null });
    expect((await adminCall(session, "POST", `/api/webhooks/dead-letters/${gone.body.data[0]?.id ?? ""}/retry`, { siteId: s.site.id })).status).toBe(404);
  });
});

describe("model events", () => {
  it("setModelFolder emits model.folder_changed, delivered to a plugin granted the model", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const p = await plugin(s, [models.author.id], ["model.folder_changed"]);
    const stub = siteObject(env, s.site.id);
    const filed = (await expectValue(stub.command("setModelFolder", { siteId: s.site.id, actor: s.admin, input: { model_id: models.author.id, folder: "People" } }))) as Written;
    expect(filed.events.map((e) => e.name)).toEqual(["model.folder_changed"]);
    const row = await env.DB.prepare("SELECT payload FROM outbox_events WHERE id = ?").bind(filed.events[0]?.id ?? "").first<{ payload: string }>();
    expect(JSON.parse(row?.payload ?? "{}")).toMatchObject({ model_id: models.author.id, slug: "author", folder: "People" });
    await driveQueue(messagesOf(s.site.id, filed.events));
    const calls = await callsTo(p.eventsPath);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]?.body ?? "{}")).toMatchObject({ name: "model.folder_changed", data: { model_id: models.author.id, slug: "author", folder: "People" } });
  });
});
