import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, signIn, type AdminSession } from "../helpers/admin-api";
import { callsTo, driveQueue, hmacHex, messagesOf, setFailing, silenceAutoQueue } from "../helpers/event-receiver";
import { blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { manage } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * The site administration screens' own routes (issue #30 items 3–6, schema/admin-siteadmin.ts,
 * docs/admin-ui-settings.md): the site's languages through settings, the audit log and its
 * filters, a webhook's test delivery and recent deliveries.
 */

type Err = { error: { code: string; issues?: { path: string; message: string }[] } };
type SettingsBody = { settings: { languages: string[]; default_language: string; locale_fallback: string[]; search: { hidden_languages: string[] } }; revision: number };
type AuditPage = { data: { id: string; at: string; surface: string; person_id: string | null; person_name: string | null; credential_id: string | null; action: string; target_kind: string | null; target_id: string | null }[]; next_cursor: string | null };

silenceAutoQueue();

async function setup(): Promise<{ s: SeededSite; session: AdminSession }> {
  const s = await seedSite();
  return { s, session: await signIn(`${s.site.slug}@example.test`) };
}

const settingsPut = (session: AdminSession, s: SeededSite, body: unknown) =>
  adminCall<SettingsBody & Err>(session, "PUT", "/api/v1/settings", { siteId: s.site.id, body, headers: { "idempotency-key": `siteadmin-${crypto.randomUUID()}` } });

describe("settings: the site's languages", () => {
  it("adds a language, orders the fallback, refuses removing the default or a language with entries, drops a removed one from the fallback", async () => {
    const { s, session } = await setup();
    const added = await settingsPut(session, s, { languages: ["en", "fr", "de"], locale_fallback: ["de", "fr", "en"] });
    expect(added.status).toBe(200);
    expect(added.body.settings).toMatchObject({ languages: ["en", "fr", "de"], default_language: "en", locale_fallback: ["de", "fr", "en"] });
    const row = await env.DB.prepare("SELECT languages FROM sites WHERE id = ?").bind(s.site.id).first<{ languages: string }>();
    expect(JSON.parse(row?.languages ?? "[]")).toEqual(["en", "fr", "de"]);
    // The new language is usable at once: an entry written in it.
    const models = await blogModels(s.ctx());
    const entry = await adminCall<{ instance_id: string } & Err>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: models.category.id, lang: "de", fields: { title: "Bücher" } }, headers: { "idempotency-key": `siteadmin-${crypto.randomUUID()}` } });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);

    const noDefault = await settingsPut(session, s, { languages: ["fr", "de"] });
    expect(noDefault.status).toBe(400);
    expect(noDefault.body.error.issues?.map((i) => i.message).join(" ")).toContain('"en" is the site\'s default language');
    const used = await settingsPut(session, s, { languages: ["en", "fr"] });
    expect(used.status).toBe(400);
    expect(used.body.error.issues?.[0]?.message).toContain('"de" still has entries');
    const twice = await settingsPut(session, s, { languages: ["en", "fr", "fr"] });
    expect(twice.status).toBe(400);

    // fr has no entry: it leaves, and leaves the fallback order with it; nothing else was written by the refusals.
    const removed = await settingsPut(session, s, { languages: ["en", "de"], expected_revision: added.body.revision });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.settings).toMatchObject({ languages: ["en", "de"], locale_fallback: ["de", "en"] });
    expect(removed.body.revision).toBe(added.body.revision + 1);
  });
});

describe("audit log", () => {
  it("says who did what through which surface, filtered by credential, person, action, entry and surface, in pages", async () => {
    const { s, session } = await setup();
    const created = await adminCall<{ id: string; token: string }>(session, "POST", "/api/management-credentials", { siteId: s.site.id, body: { name: "Deploy script", scopes: ["content:read", "settings:write"] } });
    expect(created.status).toBe(201);
    const write = await manage(created.body.token, "PUT", "/settings", { body: { validation_mode: "strict" } });
    expect(write.status, JSON.stringify(write.body)).toBe(200);
    await settingsPut(session, s, { review: { required: true } });

    const byCredential = await adminCall<AuditPage>(session, "GET", `/api/audit-log?credential=${created.body.id}`, { siteId: s.site.id });
    expect(byCredential.status).toBe(200);
    // What the credential did, and what was done to it.
    expect(byCredential.body.data.map((r) => [r.action, r.surface, r.credential_id])).toEqual([
      ["site.settings_update", "credential", created.body.id],
      ["management_credential.create", "admin", null],
    ]);
    expect(byCredential.body.data[0]?.person_id).toBe(session.body.person.id);
    expect(byCredential.body.data[0]?.person_name).toBe(session.body.person.name);

    const admin = await adminCall<AuditPage>(session, "GET", "/api/audit-log?surface=admin", { siteId: s.site.id });
    expect(admin.body.data.map((r) => r.action)).toEqual(["site.settings_update", "management_credential.create"]);
    expect(admin.body.data.every((r) => r.surface === "admin" && r.credential_id === null)).toBe(true);
    const family = await adminCall<AuditPage>(session, "GET", "/api/audit-log?action=management_credential.", { siteId: s.site.id });
    expect(family.body.data.map((r) => r.target_id)).toEqual([created.body.id]);
    const person = await adminCall<AuditPage>(session, "GET", `/api/audit-log?person=${session.body.person.id}&action=site.settings_update`, { siteId: s.site.id });
    expect(person.body.data).toHaveLength(2);
    const entry = await adminCall<AuditPage>(session, "GET", "/api/audit-log?entry=ent_none", { siteId: s.site.id });
    expect(entry.body.data).toEqual([]);

    // Pages: newest first, the cursor continues strictly after the last row shown.
    const first = await adminCall<AuditPage>(session, "GET", "/api/audit-log?limit=2", { siteId: s.site.id });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).not.toBeNull();
    const second = await adminCall<AuditPage>(session, "GET", `/api/audit-log?limit=2&before=${encodeURIComponent(first.body.next_cursor ?? "")}`, { siteId: s.site.id });
    expect(second.body.data.map((r) => r.id)).toEqual([admin.body.data[1]?.id]);
    expect(second.body.next_cursor).toBeNull();

    const bad = await adminCall<Err>(session, "GET", "/api/audit-log?before=nonsense", { siteId: s.site.id });
    expect(bad.status).toBe(400);
    const badSurface = await adminCall<Err>(session, "GET", "/api/audit-log?surface=mail", { siteId: s.site.id });
    expect(badSurface.status).toBe(400);
    const editor = await s.person("editor");
    const editorRow = await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(editor.id).first<{ email: string }>();
    const refused = await adminCall<Err>(await signIn(editorRow?.email ?? "", "pw"), "GET", "/api/audit-log", { siteId: s.site.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
  });
});

describe("webhooks: test delivery and recent deliveries", () => {
  it("sends a signed webhook.test now and says how it went; lists the webhook's deliveries", async () => {
    const { s, session } = await setup();
    const path = `/siteadmin-${crypto.randomUUID()}`;
    const hook = await adminCall<{ id: string; secret: string }>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: `https://hooks.example.test${path}`, events: ["entry.created"] } });
    expect(hook.status).toBe(201);

    const ok = await adminCall<{ ok: boolean; status: number | null; error: string | null; delivery_id: string }>(session, "POST", `/api/webhooks/${hook.body.id}/test`, { siteId: s.site.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, status: 204, error: null });
    const calls = await callsTo(path);
    expect(calls).toHaveLength(1);
    const call = calls[0];
    expect(call?.headers["x-driftwood-event"]).toBe("webhook.test");
    expect(call?.headers["x-driftwood-delivery"]).toBe(ok.body.delivery_id);
    expect(JSON.parse(call?.body ?? "{}")).toMatchObject({ name: "webhook.test", site_id: s.site.id, data: { webhook_id: hook.body.id } });
    const signed = await hmacHex(hook.body.secret, `${call?.headers["x-driftwood-timestamp"]}.${call?.body}`);
    expect(call?.headers["x-driftwood-signature"]).toContain(signed);

    await setFailing(path, true);
    const failing = await adminCall<{ ok: boolean; status: number | null; error: string | null }>(session, "POST", `/api/webhooks/${hook.body.id}/test`, { siteId: s.site.id });
    expect(failing.body).toMatchObject({ ok: false, status: 500, error: "HTTP 500" });
    await setFailing(path, false);
    // A test is no event of the site: it is audited, never listed among the deliveries.
    const audited = await adminCall<AuditPage>(session, "GET", "/api/audit-log?action=webhook.test", { siteId: s.site.id });
    expect(audited.body.data.map((r) => r.target_id)).toEqual([hook.body.id, hook.body.id]);

    const models = await blogModels(s.ctx());
    const entry = await adminCall<{ instance_id: string }>(session, "POST", "/api/v1/entries", { siteId: s.site.id, body: { model_id: models.author.id, fields: { name: "Ada" } }, headers: { "idempotency-key": `siteadmin-${crypto.randomUUID()}` } });
    expect(entry.status).toBe(201);
    const event = await env.DB.prepare("SELECT id FROM outbox_events WHERE site_id = ? AND name = 'entry.created'").bind(s.site.id).first<{ id: string }>();
    await driveQueue(messagesOf(s.site.id, [{ id: event?.id ?? "" }]));
    const deliveries = await adminCall<{ data: { event_name: string; state: string; attempts: number; last_status: number | null }[] }>(session, "GET", `/api/webhooks/${hook.body.id}/deliveries`, { siteId: s.site.id });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([expect.objectContaining({ event_name: "entry.created", state: "delivered", attempts: 1, last_status: 204 })]);

    expect((await adminCall(session, "POST", "/api/webhooks/whk_nope/test", { siteId: s.site.id })).status).toBe(404);
    expect((await adminCall(session, "GET", "/api/webhooks/whk_nope/deliveries", { siteId: s.site.id })).status).toBe(404);
    const other = await setup();
    expect((await adminCall(other.session, "POST", `/api/webhooks/${hook.body.id}/test`, { siteId: other.s.site.id })).status).toBe(404);
  });
});

describe("plugins: a manifest read from its address", () => {
  /** Makes the fake plugin host answer `body` with `status` at `path` (vitest.config.ts, fakePlugin). */
  const answerAt = async (path: string, status: number, body: unknown) => {
    const bound = env.PLUGIN_FETCH;
    if (!bound) throw new Error("PLUGIN_FETCH is not bound");
    await bound.fetch(`http://plugin.control/answer?path=${encodeURIComponent(path)}`, { method: "PUT", body: JSON.stringify({ status, body }) });
  };
  const fetchAt = (session: AdminSession, s: SeededSite, url: string) =>
    adminCall<{ manifest: { id: string; version: string }; installed: { installation_id: string; version: string; added_capabilities: string[]; removed_capabilities: string[] } | null } & Err>(session, "POST", "/api/plugin-manifests/fetch", { siteId: s.site.id, body: { url } });

  it("reads and checks it, says what it adds and drops against the installed plugin, writes nothing, refuses what an install would", async () => {
    const { s, session } = await setup();
    const base = `/siteadmin-${crypto.randomUUID()}`;
    await answerAt(`${base}/new.json`, 200, testManifest({ id: "fresh", name: "Fresh" }));
    const fresh = await fetchAt(session, s, `https://plugins.example.test${base}/new.json`);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body).toMatchObject({ manifest: { id: "fresh", version: "1.0.0" }, installed: null });

    const installed = await installTestPlugin(s, { modelIds: [] });
    const next = testManifest({ version: "2.0.0", capabilities: ["content:read", "workflow:read", "workflow:publish", "workflow:unpublish", "content:write", "media:read"] });
    await answerAt(`${base}/update.json`, 200, next);
    const update = await fetchAt(session, s, `https://plugins.example.test${base}/update.json`);
    expect(update.body.installed).toEqual({ installation_id: installed.id, version: "1.0.0", added_capabilities: ["media:read"], removed_capabilities: ["content:propose"], granted_capabilities: expect.any(Array) });
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM plugin_installations WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);

    await answerAt(`${base}/big.json`, 200, testManifest({ description: "x".repeat(40_000) }));
    const big = await fetchAt(session, s, `https://plugins.example.test${base}/big.json`);
    expect([big.status, big.body.error.code]).toEqual([400, "manifest_too_large"]);
    await answerAt(`${base}/bad.json`, 200, { id: "no shape" });
    const bad = await fetchAt(session, s, `https://plugins.example.test${base}/bad.json`);
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
    await answerAt(`${base}/gone.json`, 404, { error: "gone" });
    const gone = await fetchAt(session, s, `https://plugins.example.test${base}/gone.json`);
    expect([gone.status, gone.body.error.code]).toEqual([502, "plugin_response_invalid"]);
    // The outbound address policy: loopback only in local development (the tests run the production one).
    const local = await fetchAt(session, s, "http://127.0.0.1:8787/manifest.json");
    expect([local.status, local.body.error.code]).toEqual([400, "invalid_request"]);
  });
});
