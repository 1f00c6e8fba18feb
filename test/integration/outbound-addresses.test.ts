import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import { expectValue, siteObject } from "../../workers/forward";
import { ADMIN, adminCall, signIn, type AdminSession } from "../helpers/admin-api";
import { callsTo, driveQueue, messagesOf, silenceAutoQueue } from "../helpers/event-receiver";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * The outbound address policy (docs/outbound-addresses.md) through the real HTTP surface: the test
 * environment is configured like production (no OUTBOUND_ALLOW_LOOPBACK), and the local
 * development policy is the same worker given the env `npm start` gives it.
 */

silenceAutoQueue();

type Err = { error: { code: string; field?: string; reason?: string; issues?: { path: string; message: string }[] } };

/** Refused under every policy: private, loopback in disguise, link-local, CGNAT, unique-local, mapped, unspecified, local names. */
const HOSTILE = [
  "https://10.0.0.1/",
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:10.0.0.1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::10.0.0.1]/",
  "https://[fd00::1]/",
  "https://[fe80::1]/",
  "https://0.0.0.0/",
  "https://[::]/",
  "https://100.64.0.1/",
  "https://192.168.0.10/",
  "https://172.16.0.1/",
  "https://167772161/",
  "https://metadata.google.internal/",
  "https://printer.local/",
  "https://metadata/",
];

const LOCAL_DEVELOPMENT_ENV = { ...env, OUTBOUND_ALLOW_LOOPBACK: "true" };

/** An admin call answered by the worker under the local development configuration (`npm start`). */
async function adminCallInLocalDevelopment(session: AdminSession, s: SeededSite, method: string, path: string, body: unknown) {
  const request = new Request(`${ADMIN}${path}`, {
    method,
    headers: { cookie: session.cookie, "x-csrf-token": session.csrf, "x-site-id": s.site.id, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await worker.fetch(request, LOCAL_DEVELOPMENT_ENV, createExecutionContext());
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const session = await signIn(`${s.site.slug}@example.test`);
  return { s, models, session };
}

let paths = 0;
const newPath = () => `/outbound-${Date.now().toString(36)}-${(paths++).toString(36)}`;

async function publishAuthor(s: SeededSite, authorModelId: string) {
  const stub = siteObject(env, s.site.id);
  const created = await expectValue(stub.createEntry({ siteId: s.site.id, actor: s.admin, input: { model_id: authorModelId, fields: { name: "Ada" } } }));
  const published = await expectValue(stub.publish({ siteId: s.site.id, actor: s.admin, input: { instance_id: created.body.instance_id } }));
  return [...created.events, ...published.events];
}

async function deadLetters(session: AdminSession, s: SeededSite) {
  const res = await adminCall<{ data: { webhook_id: string; last_error: string | null; attempts: number }[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
  return res.body.data;
}

describe("webhook registration refuses private and local addresses", () => {
  it.each(HOSTILE)("POST /api/webhooks with %s is 400 invalid_request on url", async (url) => {
    const { s, session } = await setup();
    const res = await adminCall<Err>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url, events: ["*"] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.field).toBe("url");
    const local = await adminCallInLocalDevelopment(session, s, "POST", "/api/webhooks", { url, events: ["*"] });
    expect(local.status).toBe(400);
  });

  it("refuses loopback in the production configuration and allows it in local development", async () => {
    const { s, session } = await setup();
    for (const url of ["http://127.0.0.1:8787/x", "https://[::1]/x", "https://localhost/x", "https://localhost./x", "http://api.localhost:8787/x"]) {
      const refused = await adminCall<Err>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url, events: ["*"] } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
      expect((await adminCallInLocalDevelopment(session, s, "POST", "/api/webhooks", { url, events: ["*"] })).status, url).toBe(201);
    }
    const publicHost = await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "https://hooks.example.test/ok", events: ["*"] } });
    expect(publicHost.status).toBe(201);
  });
});

describe("plugin installation refuses private and local endpoints", () => {
  it.each(["https://10.0.0.1/plugin", "https://[fd00::1]/", "https://169.254.169.254/", "https://[::ffff:10.0.0.1]/", "https://0.0.0.0/", "http://localhost:8790/", "http://127.0.0.1:8790/"])(
    "POST /api/plugins with endpoint %s is 400 invalid_request on endpoint",
    async (endpoint) => {
      const { s, session } = await setup();
      const res = await adminCall<Err>(session, "POST", "/api/plugins", { siteId: s.site.id, body: testManifest({ endpoint }) });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.issues?.map((i) => i.path)).toContain("endpoint");
    },
  );

  it("installs the seeded example plugin's loopback endpoint only in local development", async () => {
    const { s, session } = await setup();
    const local = await adminCallInLocalDevelopment(session, s, "POST", "/api/plugins", testManifest({ endpoint: "http://127.0.0.1:8790" }));
    expect(local.status).toBe(201);
  });
});

describe("delivery checks the address again", () => {
  it("never calls a webhook whose stored URL is private or loopback: the delivery is dead at once", async () => {
    const { s, models, session } = await setup();
    const loopbackPath = newPath();
    const loopback = await adminCallInLocalDevelopment(session, s, "POST", "/api/webhooks", { url: `http://127.0.0.1:8787${loopbackPath}`, events: ["*"] });
    expect(loopback.status).toBe(201);
    // A row written before the policy existed: registration can no longer produce it.
    const privatePath = newPath();
    await env.DB.prepare("INSERT INTO webhooks (id, site_id, url, events, secret, active, created_by, created_at) VALUES (?, ?, ?, '[\"*\"]', 'whsec_x', 1, NULL, ?)")
      .bind(`whk_private${paths}`, s.site.id, `https://10.0.0.1${privatePath}`, new Date().toISOString())
      .run();
    const publicPath = newPath();
    expect((await adminCall(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: `https://hooks.example.test${publicPath}`, events: ["*"] } })).status).toBe(201);

    await driveQueue(messagesOf(s.site.id, await publishAuthor(s, models.author.id)));

    expect(await callsTo(loopbackPath)).toEqual([]);
    expect(await callsTo(privatePath)).toEqual([]);
    expect((await callsTo(publicPath)).length).toBeGreaterThan(0);
    const dead = await deadLetters(session, s);
    expect(dead.length).toBeGreaterThanOrEqual(2);
    for (const letter of dead) {
      expect(letter.attempts).toBe(0);
      expect(letter.last_error).toMatch(/^outbound address refused/);
    }
  });

  it("never sends a plugin's events to a loopback endpoint outside local development", async () => {
    const { s, models, session } = await setup();
    const base = newPath();
    const installed = await adminCallInLocalDevelopment(session, s, "POST", "/api/plugins", testManifest({ id: "loopy", endpoint: `http://127.0.0.1:8790${base}`, events: ["entry.published"] }));
    expect(installed.status).toBe(201);
    const id = (installed.body.installation as { id: string }).id;
    expect((await adminCall(session, "PUT", `/api/plugins/${id}/grant`, { siteId: s.site.id, body: { capabilities: ["content:read"], model_ids: [models.author.id] } })).status).toBe(200);
    expect((await adminCall(session, "POST", `/api/plugins/${id}/activate`, { siteId: s.site.id, body: {} })).status).toBe(200);

    await driveQueue(messagesOf(s.site.id, await publishAuthor(s, models.author.id)));

    expect(await callsTo(`${base}/events`)).toEqual([]);
    const dead = await deadLetters(session, s);
    expect(dead.find((d) => d.webhook_id === id)?.last_error).toMatch(/^outbound address refused/);
  });
});

describe("plugin launches check the address", () => {
  it("refuses to hand a launch code to a private endpoint: 409 plugin_unavailable", async () => {
    const { s, models } = await setup();
    const plugin = await installTestPlugin(s, { modelIds: [models.article.id] });
    // An installation whose endpoint predates the policy.
    await env.DB.prepare("UPDATE plugin_installations SET manifest = json_set(manifest, '$.endpoint', 'https://169.254.169.254/plugin') WHERE id = ?").bind(plugin.id).run();
    const token = await credential(s);
    const res = await manage<Err>(token, "POST", `/plugins/${plugin.id}/manage-views/dashboard/launch`, { body: {} });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("plugin_unavailable");
    const fine = await installTestPlugin(s, { manifest: testManifest({ id: "fine" }), modelIds: [models.article.id] });
    expect((await manage(token, "POST", `/plugins/${fine.id}/manage-views/dashboard/launch`, { body: {} })).status).toBe(201);
  });
});
