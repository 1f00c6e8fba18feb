import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../shared/clock";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import * as lifecycle from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { updateSettings, type SettingsView } from "../../shared/services/settings/site-settings";
import { grantMembership, provisionPerson } from "../../shared/services/sites/provision";
import { apply, blogModels, fixturePasswordHash, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet, type ListBody } from "../helpers/public-api";

type Err = { error: { code: string; issues?: { path: string; message: string }[]; [k: string]: unknown } };

async function stored(s: SeededSite): Promise<{ settings: string; settings_revision: number }> {
  const row = await env.DB.prepare("SELECT settings, settings_revision FROM sites WHERE id = ?").bind(s.site.id).first<{ settings: string; settings_revision: number }>();
  if (!row) throw new Error("no site");
  return row;
}

describe("management API: settings", () => {
  it("reads and changes named settings, bumps the revision, refuses stale writes, replays", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const read = await manage<SettingsView>(token, "GET", "/settings");
    expect(read.status).toBe(200);
    expect(read.body.revision).toBe(0);
    expect(read.body.settings).toMatchObject({ locale_fallback_enabled: true, retention: { trash_days: 30 }, review: { required: false }, validation_mode: "default" });

    const key = newKey();
    const body = { retention: { trash_days: 14 }, review: { required: true }, validation_mode: "strict", embed_origins: ["https://app.example.com", "https://cms.example.org:8443"], expected_revision: 0 };
    const put = await manage<SettingsView>(token, "PUT", "/settings", { key, body });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ revision: 1, search_reindexed: false, settings: { retention: { trash_days: 14 }, review: { required: true }, validation_mode: "strict", locale_fallback_enabled: true } });
    const replay = await manage<SettingsView & { replayed?: boolean }>(token, "PUT", "/settings", { key, body });
    expect(replay.body).toEqual({ ...put.body, replayed: true });
    expect((await stored(s)).settings_revision).toBe(1);
    const stale = await manage<Err>(token, "PUT", "/settings", { body: { review: { required: false }, expected_revision: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "settings_changed", current_revision: 1 });
    expect((await manage<SettingsView>(token, "GET", "/settings")).body).toMatchObject({ revision: 1, settings: { review: { required: true } } });
    const ev = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'site.settings_updated'").bind(s.site.id).first<{ n: number }>();
    expect(ev?.n).toBe(1);
    const audit = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'site.settings_update'").bind(s.site.id).first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it("validates closed bodies, bounds, embed origins and site languages, writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const before = await stored(s);
    const bad: unknown[] = [
      { retention: { trash_days: 0 } },
      { retention: { trash_days: 31 } },
      { validation_mode: "loose" },
      { unknown: 1 },
      { review: { required: true, extra: 1 } },
      { embed_origins: Array.from({ length: 21 }, (_, i) => `https://a${i}.example.com`) },
      { search: { weights: { title: 11 } } },
    ];
    for (const b of bad) expect((await manage<Err>(token, "PUT", "/settings", { body: b })).status, JSON.stringify(b)).toBe(400);
    const origins = await manage<Err>(token, "PUT", "/settings", { body: { embed_origins: ["https://ok.example.com", "http://plain.example.com", "https://x.example.com/path", "https://y.example.com/", "not a url"] } });
    expect(origins.status).toBe(400);
    expect(origins.body.error.issues?.map((i) => i.path)).toEqual(["embed_origins[1]", "embed_origins[2]", "embed_origins[3]", "embed_origins[4]"]);
    const langs = await manage<Err>(token, "PUT", "/settings", { body: { locale_fallback: ["de"] } });
    expect(langs.body.error.issues?.[0]?.path).toBe("locale_fallback[0]");
    expect(await stored(s)).toEqual(before);
  });

  it("search settings need the creator's site:infra, public site models and known field keys; weights rebuild the index", async () => {
    const s = await seedSite();
    const { article, note } = await blogModels(s.ctx());
    const token = await credential(s);
    const badSearch = await manage<Err>(token, "PUT", "/settings", { body: { search: { models: [note.id, "mdl_nope"], weights: { nofield: 2 }, hidden_languages: ["de"] } } });
    expect(badSearch.status).toBe(400);
    expect(badSearch.body.error.issues?.map((i) => i.path)).toEqual(["search.models[0]", "search.models[1]", 'search.weights["nofield"]', "search.hidden_languages[0]"]);

    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Searchable words", summary: "Zebra crossing" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const ok = await manage<SettingsView>(token, "PUT", "/settings", { body: { search: { enabled: true, models: [article.id], weights: { [`${article.id}.summary`]: 7 } } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ search_reindexed: true, settings: { search: { enabled: true, models: [article.id], mode: "words", weights: { [`${article.id}.summary`]: 7 } } } });
    const found = await publicGet<ListBody>(s.host, "/v1/_search?q=zebra");
    expect(found.status).toBe(200);
    expect(found.body.data.length).toBe(1);
    const doc = await env.DB.prepare("SELECT w7 FROM search_documents WHERE site_id = ? AND instance_id = ?").bind(s.site.id, e.instance_id).first<{ w7: string }>();
    expect(doc?.w7).toContain("Zebra");

    // A person whose role has site:settings but not site:infra.
    const db = createDb(env.DB);
    const at = new Date().toISOString();
    const role = await manage<{ id: string }>(token, "POST", "/roles", { body: { slug: "settings", name: "Settings", permissions: { models: { [article.id]: ["read"] }, system: ["site:settings"] } } });
    const p = await provisionPerson(db, { email: `${role.body.id}@example.test`, name: "S", password: "pw" }, at, fixturePasswordHash("pw"));
    await commit(env.DB, [...p.statements, grantMembership(db, s.site.id, p.personId, role.body.id, at)]);
    const actor = { kind: "person" as const, id: p.personId, permissions: { models: { [article.id]: ["read" as const] }, system: ["site:settings" as const] } };
    const narrow = (await createManagementCredential({ ...s.ctx(actor), clock: systemClock }, { name: "settings", scopes: ["content:read", "settings:write"] })).token;
    const before = await stored(s);
    const refused = await manage<Err>(narrow, "PUT", "/settings", { body: { search: { enabled: false } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect(await stored(s)).toEqual(before);
    expect((await manage<SettingsView>(narrow, "PUT", "/settings", { body: { review: { required: true } } })).status).toBe(200);
  });

  it("purges the site tag and every model's list tag when locale policy or search changes, nothing otherwise", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const plan = await updateSettings(s.ctx(), { locale_fallback: ["en"] });
    expect(plan.purgeTags).toEqual(expect.arrayContaining([`s:${s.site.id}`, `l:${article.id}`, `l:${author.id}`]));
    expect((await updateSettings(s.ctx(), { search: { mode: "stems" } })).purgeTags).toContain(`l:${article.id}`);
    expect((await updateSettings(s.ctx(), { review: { required: true } })).purgeTags).toEqual([]);
    expect((await updateSettings(s.ctx(), { embed_origins: ["https://a.example.com"] })).purgeTags).toEqual([`s:${s.site.id}`]);
  });

  it("a locale policy change is seen by the public API at once", async () => {
    const s = await seedSite({ languages: ["en", "fr"] });
    const { article } = await blogModels(s.ctx());
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, slug: "hello", fields: { title: "Hello" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: e.instance_id }));
    const token = await credential(s);
    const on = await publicGet<ListBody>(s.host, `/v1/article?locale=fr`);
    expect(on.body.data.map((d) => [d.slug, d.locale])).toEqual([["hello", "en"]]);
    expect((await manage(token, "PUT", "/settings", { body: { locale_fallback_enabled: false } })).status).toBe(200);
    const off = await publicGet<ListBody>(s.host, `/v1/article?locale=fr`);
    expect(off.body.data).toEqual([]);
    expect((await publicGet(s.host, "/v1/article/hello?locale=fr")).status).toBe(404);
    expect((await manage(token, "PUT", "/settings", { body: { locale_fallback_enabled: true, locale_fallback: ["en"] } })).status).toBe(200);
    expect((await publicGet<ListBody>(s.host, `/v1/article?locale=fr`)).body.data.map((d) => d.locale)).toEqual(["en"]);
  });
});
