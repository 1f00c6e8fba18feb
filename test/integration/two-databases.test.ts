import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { CONTROL_TABLES, RECORD_TABLES, SITE_TABLES } from "../../shared/db/tables";
import { ANCHOR_CONDITION } from "../../shared/db/site-anchor";
import type { SiteDatabaseBinding } from "../../shared/db/site-databases";
import type { EntryView } from "../../shared/services/lifecycle";
import { adminCall, ADMIN, roleId, signIn, type AdminSession } from "../helpers/admin-api";
import { callsTo, driveQueue, silenceAutoQueue } from "../helpers/event-receiver";
import { addModel, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { delegationFor } from "../helpers/plugin-protocol";
import type { PluginCapability } from "../../schema/plugin-manifest";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, pluginCall, testManifest, type TestInstallation } from "../helpers/plugins";
import { publicGet, type ListBody } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/**
 * More than one database (issue #14 item 5, docs/scale.md): one site on `DB`, one on `DB_2`, each
 * driven through every surface; then the rows are read straight from the bindings.
 */

type Err = { error: { code: string } };
type Models = Awaited<ReturnType<typeof blogModels>>;

interface Driven {
  s: SeededSite;
  models: Models;
  token: string;
  session: AdminSession;
  plugin: TestInstallation;
  article: EntryView;
  hookPath: string;
  siteToken: string;
}

let hooks = 0;

/** A site on `database` with search on, a management credential, an admin session and an installed plugin. */
async function siteOn(database: SiteDatabaseBinding) {
  const s = await seedSite({ database, settings: { search: { enabled: true } } });
  const models = await blogModels(s.ctx());
  // The site row is directory: its search settings are written in the control database.
  await env.DB.prepare("UPDATE sites SET settings = json_set(settings, '$.search.models', json(?)) WHERE id = ?")
    .bind(JSON.stringify([models.article.id, models.author.id]), s.site.id)
    .run();
  const token = await credential(s);
  const session = await signIn(`${s.site.slug}@example.test`);
  // A model only the plugin's grant names, removed at the end (a write on both databases).
  const scratch = await addModel(s.ctx(), { slug: "scratch", name: "Scratch", fields: [{ key: "title", label: "Title", type: "text", required: true }] });
  const capabilities: PluginCapability[] = ["content:read", "workflow:read", "workflow:publish"];
  const plugin = await installTestPlugin(s, { manifest: testManifest({ capabilities, events: ["entry.published"] }), capabilities, modelIds: [models.article.id, scratch.id] });
  return { s, models, token, session, plugin, scratch };
}

/** Every surface once, on one site: management writes, admin routes, public reads, plugin reads, events. */
async function drive(database: SiteDatabaseBinding, word: string): Promise<Driven> {
  const { s, models, token, session, plugin, scratch } = await siteOn(database);

  // Admin (session): the session lists the site; a webhook (content) and a site token (directory).
  const me = await adminCall<{ sites: { id: string }[] }>(session, "GET", "/api/session");
  expect(me.status).toBe(200);
  expect(me.body.sites.map((x) => x.id)).toContain(s.site.id);
  const hookPath = `/two-db-${database}-${hooks++}`;
  const hook = await adminCall<{ id: string }>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: `https://hooks.example.test${hookPath}`, events: ["entry.published"] } });
  expect(hook.status).toBe(201);
  const created = await adminCall<{ token: string }>(session, "POST", "/api/site-tokens", { siteId: s.site.id, body: { name: "reader", model_ids: [models.note.id] } });
  expect(created.status).toBe(201);
  const invited = await adminCall(session, "POST", "/api/invitations", { siteId: s.site.id, body: { email: `new-${database}-${hooks}@example.test`, role_id: await roleId(s.site.id, "editor") } });
  expect(invited.status).toBe(201);
  const client = await workerFetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie: session.cookie, "x-site-id": s.site.id } });
  expect(client.status).toBe(200);
  expect(await client.text()).toContain("article");

  // Management API: create, save, publish (through the site's object).
  const made = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, slug: "hello-world", fields: { title: `Hello ${word}` } } });
  expect(made.status).toBe(201);
  const saved = await manage<EntryView>(token, "PUT", `/entries/${made.body.instance_id}`, { body: { expected_version_id: made.body.current_version_id, fields: { title: `Hello ${word}`, summary: `About ${word}` } } });
  expect(saved.status).toBe(200);
  const published = await manage<EntryView>(token, "POST", `/entries/${made.body.instance_id}/publish`, { body: {} });
  expect(published.status).toBe(200);
  const read = await manage<EntryView>(token, "GET", `/entries/${made.body.instance_id}`);
  expect(read.body.published_version_id).toBe(saved.body.current_version_id);
  const listed = await manage<{ data: EntryView[] }>(token, "GET", "/entries");
  expect(listed.body.data.map((e) => e.instance_id)).toEqual([made.body.instance_id]);
  // The admin UI's path to the same API (session + X-Site-Id on the admin host).
  const viaSession = await adminCall<{ data: EntryView[] }>(session, "GET", "/api/v1/entries", { siteId: s.site.id });
  expect(viaSession.status).toBe(200);
  expect(viaSession.body.data.map((e) => e.instance_id)).toEqual([made.body.instance_id]);
  // A private note, published, for the site token.
  const note = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.note.id, slug: "memo", fields: { title: `Memo ${word}` } } });
  expect((await manage(token, "POST", `/entries/${note.body.instance_id}/publish`, { body: {} })).status).toBe(200);

  // Public API by Host: item, list, search; the private note only with the site token.
  const item = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/article/hello-world");
  expect(item.status).toBe(200);
  expect(item.body.data.fields.title).toBe(`Hello ${word}`);
  const list = await publicGet<ListBody>(s.host, "/v1/article");
  expect(list.body.data.map((d) => d.fields.summary)).toEqual([`About ${word}`]);
  const found = await publicGet<{ data: { item: { slug: string; fields: Record<string, unknown> } }[] }>(s.host, `/v1/_search?q=${word}`);
  expect(found.status).toBe(200);
  expect(found.body.data.map((d) => d.item.fields.title)).toEqual([`Hello ${word}`]);
  expect((await publicGet(s.host, "/v1/note/memo")).status).toBe(404);
  const memo = await publicGet<{ data: { fields: Record<string, unknown> } }>(s.host, "/v1/note/memo", { authorization: `Bearer ${created.body.token}` });
  expect(memo.status).toBe(200);
  expect(memo.body.data.fields.title).toBe(`Memo ${word}`);

  // Plugin protocol: the installed plugin reads the content it was granted.
  const context = await pluginCall<{ site: { id: string } }>(plugin.token, "GET", "/context");
  expect(context.body.data?.site.id).toBe(s.site.id);
  const page = await pluginCall<{ data: { instance_id: string }[] }>(plugin.token, "GET", `/content?model_id=${models.article.id}`);
  expect(page.status).toBe(200);
  expect(page.body.data?.data.map((d) => d.instance_id)).toEqual([made.body.instance_id]);
  const one = await pluginCall<{ instance_id: string }>(plugin.token, "GET", `/content/${made.body.instance_id}`);
  expect(one.body.outcome.code).toBe("ok");
  // … and publishes for a person who launched it (launch code and delegation: directory; the
  // transition's guards on them run in the control database, the publication in the site's).
  const second = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, slug: "second", fields: { title: `Second ${word}` } } });
  const delegation = await delegationFor(s, plugin, second.body.instance_id);
  const transition = await pluginCall(plugin.token, "POST", `/content/${second.body.instance_id}/transitions`, {
    key: `t-${word}`,
    body: { kind: "publish", expected_current_version_id: second.body.current_version_id, expected_workflow_revision: 0, delegation_id: delegation },
  });
  expect(transition.body.outcome.code).toBe("transition_applied");
  expect((await publicGet(s.host, "/v1/article/second")).status).toBe(200);

  // Events: the publication's outbox row → the real queue consumer → a signed delivery.
  const events = await (await bindingOf(database)).prepare("SELECT id FROM outbox_events WHERE site_id = ? AND name = 'entry.published' ORDER BY created_at").bind(s.site.id).all<{ id: string }>();
  expect(events.results).toHaveLength(3);
  await driveQueue(events.results.map((e) => ({ event_id: e.id, site_id: s.site.id })));
  const calls = await callsTo(hookPath);
  expect(calls).toHaveLength(3);
  expect(calls.map((c) => JSON.parse(c.body).data.instance_id)).toContain(made.body.instance_id);

  const dead = await adminCall<{ data: unknown[] }>(session, "GET", "/api/webhooks/dead-letters", { siteId: s.site.id });
  expect(dead.status).toBe(200);
  expect(dead.body.data).toEqual([]);

  // Removing a model writes both databases: the model (site) and the plugin grants naming it (control).
  const removed = await manage(token, "POST", `/models/${scratch.id}/remove`, { body: { expected_revision: scratch.revision, confirm: scratch.id } });
  expect(removed.status).toBe(200);
  const grant = await env.DB.prepare("SELECT granted_model_ids FROM plugin_installations WHERE id = ?").bind(plugin.id).first<{ granted_model_ids: string }>();
  expect(JSON.parse(grant?.granted_model_ids ?? "null")).toEqual([models.article.id]);
  expect(await (await bindingOf(database)).prepare("SELECT id FROM models WHERE id = ?").bind(scratch.id).first()).toBeNull();

  return { s, models, token, session, plugin, article: made.body, hookPath, siteToken: created.body.token };
}

function bindingOf(database: SiteDatabaseBinding): D1Database {
  return database === "DB" ? env.DB : env.DB_2;
}

async function countIn(db: D1Database, table: string, siteId?: string): Promise<number> {
  const sql = siteId === undefined ? `SELECT COUNT(*) AS n FROM ${table}` : `SELECT COUNT(*) AS n FROM ${table} WHERE site_id = ?`;
  const statement = siteId === undefined ? db.prepare(sql) : db.prepare(sql).bind(siteId);
  return (await statement.first<{ n: number }>())?.n ?? -1;
}

silenceAutoQueue();

describe("two sites on two databases", () => {
  it("serves each through every surface, keeps them apart, and keeps site 2's content in DB_2 only", async () => {
    const one = await drive("DB", "lighthouse");
    const two = await drive("DB_2", "seagrass");

    // Isolation: the same slug on both sites answers each Host's own item.
    const a = await publicGet<{ data: { fields: Record<string, unknown> } }>(one.s.host, "/v1/article/hello-world");
    expect(a.body.data.fields.title).toBe("Hello lighthouse");
    expect((await publicGet<{ data: unknown[] }>(one.s.host, "/v1/_search?q=seagrass")).body.data).toEqual([]);
    expect((await publicGet<{ data: unknown[] }>(two.s.host, "/v1/_search?q=lighthouse")).body.data).toEqual([]);
    // A site token of one site reads nothing private on the other.
    expect((await publicGet(two.s.host, "/v1/note/memo", { authorization: `Bearer ${one.siteToken}` })).status).toBe(404);
    // A credential of one site cannot name the other's entry; the listing holds only its own.
    for (const [mine, theirs] of [[one, two], [two, one]] as const) {
      expect((await manage<Err>(mine.token, "GET", `/entries/${theirs.article.instance_id}`)).status).toBe(404);
      const saved = await manage<Err>(mine.token, "PUT", `/entries/${theirs.article.instance_id}`, { body: { expected_version_id: theirs.article.current_version_id, fields: { title: "Hijack" } } });
      expect(saved.status).toBe(404);
      const other = await pluginCall(mine.plugin.token, "GET", `/content/${theirs.article.instance_id}`);
      expect(other.body.outcome.code).toBe("content_not_found");
      const asOther = await adminCall<Err>(mine.session, "GET", "/api/webhooks", { siteId: theirs.s.site.id });
      expect(asOther.status).toBe(403);
    }
    expect((await publicGet<{ data: { fields: Record<string, unknown> } }>(two.s.host, "/v1/article/hello-world")).body.data.fields.title).toBe("Hello seagrass");

    // Straight from the bindings: site 2's content is in DB_2 and nowhere in DB; site 1's never in DB_2.
    const expectedInTwo = ["models", "entries", "versions", "published_items", "search_documents", "webhooks"];
    for (const table of SITE_TABLES) {
      expect(await countIn(env.DB, table, two.s.site.id), `${table} of site 2 in DB`).toBe(0);
      expect(await countIn(env.DB_2, table, one.s.site.id), `${table} of site 1 in DB_2`).toBe(0);
      if (expectedInTwo.includes(table)) expect(await countIn(env.DB_2, table, two.s.site.id), `${table} of site 2 in DB_2`).toBeGreaterThan(0);
    }
    // Content writes' records (audit, outbox, idempotency answers, deliveries) ride with the content in DB_2.
    for (const table of RECORD_TABLES) {
      expect(await countIn(env.DB_2, table, two.s.site.id), `${table} of site 2 in DB_2`).toBeGreaterThan(0);
      expect(await countIn(env.DB_2, table, one.s.site.id)).toBe(0);
    }
    const contentAudit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE site_id = ? AND target_kind IN ('entry', 'model')").bind(two.s.site.id).first<{ n: number }>();
    expect(contentAudit?.n).toBe(0);
    // DB_2 holds no directory rows at all: sites, hosts, persons, credentials, plugins live in DB.
    // (`sites` there holds only the foreign-key anchors of the sites it serves: slug = id, nothing else.)
    for (const table of CONTROL_TABLES) {
      if (table === "invitations" && !(await tableExists(env.DB_2, table))) continue;
      if (table === "sites") continue;
      expect(await countIn(env.DB_2, table), `${table} in DB_2`).toBe(0);
    }
    const directorySites = await env.DB_2.prepare(`SELECT COUNT(*) AS n FROM sites WHERE NOT (${ANCHOR_CONDITION})`).first<{ n: number }>();
    expect(directorySites?.n).toBe(0);
    const anchor = await env.DB_2.prepare("SELECT slug, name, settings FROM sites WHERE id = ?").bind(two.s.site.id).first();
    expect(anchor).toEqual({ slug: two.s.site.id, name: "", settings: "{}" });
    expect(await env.DB_2.prepare("SELECT id FROM sites WHERE id = ?").bind(one.s.site.id).first()).toBeNull();
    expect(await countIn(env.DB, "site_databases", two.s.site.id)).toBe(1);
    expect(await countIn(env.DB, "plugin_installations", two.s.site.id)).toBe(1);
    expect(await countIn(env.DB, "invitations", two.s.site.id)).toBe(1);
  });

  it("refuses a site mapped to a binding this deployment does not have: a 500, never a fallback to DB", async () => {
    const s = await seedSite();
    await blogModels(s.ctx());
    await env.DB.prepare("INSERT INTO site_databases (site_id, binding, created_at) VALUES (?, 'DB_9', ?)").bind(s.site.id, new Date().toISOString()).run();
    const item = await workerFetch(`http://${s.host}/v1/article`);
    expect(item.status).toBe(500);
    expect(((await item.json()) as Err).error.code).toBe("internal");
    // The credential is directory (found in DB); the site's content handle is what fails.
    const token = await credential(s);
    const entries = await manage<Err>(token, "GET", "/entries");
    expect(entries.status).toBe(500);
    expect(entries.body.error.code).toBe("internal");
  });

  it("refuses to provision a site on an unknown database", async () => {
    await expect(seedSite({ database: "DB_9" as SiteDatabaseBinding })).rejects.toMatchObject({ code: "unknown_database" });
  });
});

async function tableExists(db: D1Database, table: string): Promise<boolean> {
  return (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table).first()) !== null;
}
