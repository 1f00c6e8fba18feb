/**
 * End to end against `wrangler dev`: the example plugin (examples/plugin/server.mjs) installed by
 * the demo admin, launched through the management API, publishing an entry through the plugin
 * protocol, and receiving the signed `entry.published` event from the EVENTS queue consumer.
 * Run: npm run test:e2e (or node --test test/e2e/plugin.test.mjs)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startPlugin } from "../../examples/plugin/server.mjs";
import { request, startDevServer } from "../../scripts/lib/dev-server.mjs";

const PORT = 8792;
const PLUGIN_PORT = 8793;
let server;
let plugin;
let demo;
let session;

const manifest = {
  id: "e2e-reviewer",
  name: "E2E reviewer",
  version: "1.0.0",
  endpoint: `http://127.0.0.1:${PLUGIN_PORT}`,
  capabilities: ["content:read", "workflow:read", "workflow:publish"],
  manage_views: [{ id: "dashboard", label: "Dashboard", path: "/views/dashboard" }],
  content_actions: [{ id: "review", label: "Review and publish", path: "/actions/review" }],
  events: ["entry.published"],
};

const json = (res) => JSON.parse(res.text);

/** An admin API call as the signed-in demo admin on the demo site (CSRF token on writes). */
const admin = (method, path, body) =>
  request(PORT, { method, host: "admin.localhost", path, body, headers: { cookie: session.cookie, "x-site-id": demo.id, ...(method === "GET" ? {} : { "x-csrf-token": session.csrf }) } });

/** A management API call with the seed's management token. */
const manage = (method, path, body, headers = {}) =>
  request(PORT, { method, host: "demo.localhost", path: `/api/manage/v1${path}`, body, headers: { authorization: `Bearer ${server.info.management_token}`, ...headers } });

before(async () => {
  server = await startDevServer({ port: PORT });
  demo = server.info.sites.find((s) => s.slug === "demo");
  const signIn = await request(PORT, { method: "POST", host: "admin.localhost", path: "/api/session", body: server.info.admin });
  assert.equal(signIn.status, 200, signIn.text);
  session = { cookie: String(signIn.headers["set-cookie"]).split(";")[0], csrf: json(signIn).csrf_token };
});

after(async () => {
  await plugin?.stop();
  server?.stop();
});

describe("example plugin", () => {
  it("the seed prints an active demo plugin with its token", async () => {
    assert.match(server.info.plugin_token, /^dwp_[A-Za-z0-9_-]{43}$/);
    assert.match(server.info.plugin_event_secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const res = await admin("GET", `/api/plugins/${server.info.plugin_installation_id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(json(res).state, "active");
    assert.equal(json(res).plugin_id, "demo-helper");
  });

  it("is installed, launched, publishes for the person and receives the signed event", { timeout: 60_000 }, async () => {
    // Install, grant and activate as the demo admin.
    const installed = await admin("POST", "/api/plugins", manifest);
    assert.equal(installed.status, 201, installed.text);
    const { installation, token, event_secret } = json(installed);
    const models = await manage("GET", "/models");
    assert.equal(models.status, 200, models.text);
    const article = json(models).data.find((m) => m.slug === "article");
    const grant = await admin("PUT", `/api/plugins/${installation.id}/grant`, { capabilities: ["content:read", "workflow:read", "workflow:publish"], model_ids: [article.id] });
    assert.equal(grant.status, 200, grant.text);
    const activated = await admin("POST", `/api/plugins/${installation.id}/activate`, {});
    assert.equal(activated.status, 200, activated.text);
    assert.equal(json(activated).state, "active");

    plugin = await startPlugin({ port: PLUGIN_PORT, baseUrl: `http://127.0.0.1:${PORT}`, token, eventSecret: event_secret });

    // A draft article through the management API: not public yet.
    const created = await manage("POST", "/entries", { model_id: article.id, slug: "published-by-a-plugin", fields: { title: "Published by a plugin" } }, { "idempotency-key": "e2e-plugin-entry-1" });
    assert.equal(created.status, 201, created.text);
    const entry = json(created);
    assert.equal((await request(PORT, { host: "demo.localhost", path: "/v1/article/published-by-a-plugin" })).status, 404);

    // Launch the content action: a one-time link to the plugin.
    const launched = await manage("POST", `/plugins/${installation.id}/content-actions/review/entries/${entry.instance_id}/launch`, {});
    assert.equal(launched.status, 201, launched.text);
    const launch = json(launched);
    assert.equal(launch.outcome, "launch_created");
    const url = new URL(launch.url);
    assert.equal(url.origin + url.pathname, `http://127.0.0.1:${PLUGIN_PORT}/actions/review`);
    assert.match(url.searchParams.get("code"), /^dwl_[A-Za-z0-9_-]{43}$/);

    // The person opens the link: the plugin exchanges the code, reads and publishes.
    const opened = await fetch(launch.url);
    const answer = await opened.json();
    assert.equal(opened.status, 200, JSON.stringify(answer));
    assert.equal(answer.published, true, JSON.stringify(answer));
    assert.equal(answer.outcome, "transition_applied");
    assert.equal(answer.instance_id, entry.instance_id);
    assert.equal(answer.site.id, demo.id);
    assert.equal(answer.after.state, "published");

    const pub = await request(PORT, { host: "demo.localhost", path: "/v1/article/published-by-a-plugin" });
    assert.equal(pub.status, 200, pub.text);
    assert.equal(json(pub).data.fields.title, "Published by a plugin");

    // The launch code is single use: opening the link again is refused by the exchange.
    const again = await fetch(launch.url);
    const refused = await again.json();
    assert.equal(again.status, 400, JSON.stringify(refused));
    assert.equal(refused.error.code, "invalid_request");

    // The EVENTS queue consumer delivers entry.published, signed with the event secret.
    const deadline = Date.now() + 20_000;
    let event;
    while (!(event = plugin.events.find((e) => e.name === "entry.published" && e.event.data.instance_id === entry.instance_id)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(event, `no entry.published event received; got ${JSON.stringify(plugin.events)}`);
    assert.equal(event.event.site_id, demo.id);
    assert.equal(event.event.data.model_id, article.id);
    assert.match(event.delivery_id, /^dlv_/);
  });

  it("serves the dashboard view after a manage-view launch", async () => {
    const launched = await manage("POST", `/plugins/e2e-reviewer/manage-views/dashboard/launch`);
    assert.equal(launched.status, 201, launched.text);
    const opened = await fetch(json(launched).url);
    const view = await opened.json();
    assert.equal(opened.status, 200, JSON.stringify(view));
    assert.equal(view.person.name, "Demo Admin");
    // Only the granted model, first page (ordered by instance id).
    assert.equal(view.models.length, 1);
    assert.equal(view.models[0].items.length, 20);
    assert.equal(view.models[0].has_more, true);
    assert.ok(view.models[0].items.every((i) => i.model_slug === "article" && typeof i.state === "string"), JSON.stringify(view));
  });

  it("refuses a delivery with a bad signature or an old timestamp", async () => {
    const body = JSON.stringify({ id: "evt_x", name: "entry.published", site_id: demo.id, occurred_at: new Date().toISOString(), data: {} });
    const now = Math.floor(Date.now() / 1000);
    const bad = await fetch(`${plugin.url}/events`, { method: "POST", body, headers: { "content-type": "application/json", "x-driftwood-timestamp": String(now), "x-driftwood-signature": `v1=${"0".repeat(64)}` } });
    assert.equal(bad.status, 401);
    const { createHmac } = await import("node:crypto");
    const old = now - 600;
    const sig = createHmac("sha256", "whsec_wrong").update(`${old}.${body}`).digest("hex");
    const stale = await fetch(`${plugin.url}/events`, { method: "POST", body, headers: { "x-driftwood-timestamp": String(old), "x-driftwood-signature": `v1=${sig}` } });
    assert.equal(stale.status, 401);
    assert.ok(!plugin.events.some((e) => e.event.id === "evt_x"));
  });
});
