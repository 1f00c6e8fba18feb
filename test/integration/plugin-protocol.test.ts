import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { createLaunch } from "../../shared/services/plugins/launches";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";
import { ALL, delegationFor, draft, expectEnvelope, setup, type Exchanged, type Page } from "../helpers/plugin-protocol";

describe("plugin protocol: authentication and context", () => {
  it("answers the context with exactly the spec's keys", async () => {
    const { s, models, plugin } = await setup();
    const result = await pluginCall<Record<string, unknown>>(plugin.token, "GET", "/context");
    expectEnvelope(result, "ok");
    expect(result.body.data).toEqual({
      installation_id: plugin.id,
      site: { id: s.site.id, name: s.site.name, default_lang: "en" },
      protocol_version: 1,
      capabilities: ALL,
      model_ids: [models.article.id, models.author.id],
    });
    expect((await pluginCall(plugin.token, "GET", "/context?x=1")).body.outcome.code).toBe("invalid_request");
  });

  it("refuses missing, malformed, unknown, pending, disabled and revoked tokens with one 401", async () => {
    const { s, models, plugin } = await setup();
    const pending = await installTestPlugin(s, { manifest: testManifest({ id: "pending-one" }), modelIds: [models.article.id], state: "pending" });
    const disabled = await installTestPlugin(s, { manifest: testManifest({ id: "disabled-one" }), modelIds: [models.article.id], state: "disabled" });
    const revoked = await installTestPlugin(s, { manifest: testManifest({ id: "revoked-one" }), modelIds: [models.article.id], state: "revoked" });
    const answers = await Promise.all([
      pluginCall(null, "GET", "/context"),
      pluginCall("dwp_short", "GET", "/context"),
      pluginCall(`dwp_${"A".repeat(43)}`, "GET", "/context"),
      pluginCall(pending.token, "GET", "/context"),
      pluginCall(disabled.token, "GET", "/context"),
      pluginCall(revoked.token, "GET", "/context"),
    ]);
    for (const answer of answers) {
      expectEnvelope(answer, "plugin_unauthorized");
      expect(answer.body).toEqual(answers[0]?.body);
    }
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "ok");
  });

  it("refuses a request over 16384 bytes before parsing it", async () => {
    const { plugin } = await setup();
    const huge = await pluginCall(plugin.token, "POST", "/launch/exchange", { rawBody: `{"code":"${"x".repeat(16384)}` });
    expectEnvelope(huge, "invalid_request");
    expect(huge.body.outcome.message).toContain("16384");
    // At the limit it is parsed (and refused for its content, not its size).
    const body = JSON.stringify({ code: "x".repeat(16384 - 11) });
    expect(new TextEncoder().encode(body).byteLength).toBe(16384);
    const atLimit = await pluginCall(plugin.token, "POST", "/launch/exchange", { rawBody: body });
    expectEnvelope(atLimit, "invalid_request");
    expect(atLimit.body.outcome.message).not.toContain("16384");
  });
});

describe("plugin protocol: content reads", () => {
  it("lists a granted model's content as pages of summaries with workflow", async () => {
    const { s, models, plugin } = await setup();
    const ids: string[] = [];
    for (const title of ["A", "B", "C"]) ids.push((await draft(s, models.article.id, { title })).instance_id);
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ids[0] ?? "" }));
    const first = await pluginCall<Page>(plugin.token, "GET", `/content?model_id=${models.article.id}&limit=2`);
    expectEnvelope(first, "ok");
    expect(first.body.data?.data).toHaveLength(2);
    expect(first.body.data?.page).toMatchObject({ limit: 2, has_more: true });
    const item = first.body.data?.data[0];
    expect(Object.keys(item ?? {}).sort()).toEqual(
      ["current_version_id", "instance_id", "label", "lang", "model_id", "model_slug", "primary_instance_id", "published_version_id", "slug", "translation_group_id", "workflow"].sort(),
    );
    const second = await pluginCall<Page>(plugin.token, "GET", `/content?model_id=${models.article.id}&limit=2&after=${first.body.data?.page.next_cursor ?? ""}`);
    expect(second.body.data?.data).toHaveLength(1);
    expect(second.body.data?.page).toEqual({ limit: 2, has_more: false, next_cursor: null });
    const all = [...(first.body.data?.data ?? []), ...(second.body.data?.data ?? [])].map((x) => x.instance_id).sort();
    expect(all).toEqual([...ids].sort());

    const published = await pluginCall<Page>(plugin.token, "GET", `/content?model_id=${models.article.id}&published=true`);
    expect(published.body.data?.data.map((x) => x.instance_id)).toEqual([ids[0]]);
    expect(published.body.data?.data[0]?.workflow).toEqual({ state: "published", revision: 1, transitions: [{ to: "unpublished", kind: "unpublish" }] });
    const drafts = await pluginCall<Page>(plugin.token, "GET", `/content?model_id=${models.article.id}&published=false`);
    expect(drafts.body.data?.data).toHaveLength(2);
    expect(drafts.body.data?.page.limit).toBe(20);
  });

  it("refuses every query that is not protocol v1", async () => {
    const { models, plugin } = await setup();
    const bad = [
      "/content",
      "/content?model_id=",
      `/content?model_id=${models.article.id}&limit=0`,
      `/content?model_id=${models.article.id}&limit=51`,
      `/content?model_id=${models.article.id}&limit=1000`,
      `/content?model_id=${models.article.id}&limit=ten`,
      `/content?model_id=${models.article.id}&published=yes`,
      `/content?model_id=${models.article.id}&sort=title`,
      `/content?model_id=${models.article.id}&model_id=${models.author.id}`,
    ];
    for (const path of bad) expectEnvelope(await pluginCall(plugin.token, "GET", path), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content?model_id=${models.article.id}&limit=050`), "ok");
  });

  it("refuses a model or capability not granted, and hides workflow without workflow:read", async () => {
    const { s, models, plugin } = await setup(["content:read"]);
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content?model_id=${models.category.id}`), "capability_refused");
    await draft(s, models.article.id, { title: "A" });
    const page = await pluginCall<Page>(plugin.token, "GET", `/content?model_id=${models.article.id}`);
    expect(page.body.data?.data[0]).not.toHaveProperty("workflow");
    const noRead = await installTestPlugin(s, { manifest: testManifest({ id: "no-read" }), capabilities: ["workflow:read"], modelIds: [models.article.id] });
    expectEnvelope(await pluginCall(noRead.token, "GET", `/content?model_id=${models.article.id}`), "capability_refused");
  });

  it("reads one entry in the grant; an entry of a model not granted is capability_refused; others are content_not_found", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello", internal_note: "secret" });
    const read = await pluginCall<Record<string, unknown>>(plugin.token, "GET", `/content/${post.instance_id}`);
    expectEnvelope(read, "ok");
    expect(read.body.data).toMatchObject({ instance_id: post.instance_id, fields: { title: "Hello", internal_note: "secret" } });

    const cat = await draft(s, models.category.id, { title: "Not granted" });
    const other = await seedSite();
    const otherModels = await blogModels(other.ctx());
    const foreign = await draft(other, otherModels.article.id, { title: "Other site" });
    const trashed = await draft(s, models.article.id, { title: "Trashed" });
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: trashed.instance_id }));
    // Spec 1: "A capability or model the installation was not granted: 403 capability_refused".
    const notGranted = await pluginCall(plugin.token, "GET", `/content/${cat.instance_id}`);
    expectEnvelope(notGranted, "capability_refused");
    expect(JSON.stringify(notGranted.body)).not.toContain("Not granted");
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: cat.instance_id }));
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${cat.instance_id}`), "capability_refused");
    for (const id of [foreign.instance_id, trashed.instance_id, "ent_unknown"]) {
      expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${id}`), "content_not_found");
    }
  });

  it("limits an entry read with a delegation to what the person may read", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const viewer = await s.person("viewer");
    const delegation = await delegationFor(s, plugin, post.instance_id, viewer);
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "ok");
    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(viewer.id).run();
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=dlg_unknown`), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=`), "invalid_request");
  });

  it("answers temporary_failure (retry) when a dependency fails, changing nothing", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    await env.DB.prepare("UPDATE versions SET fields = 'not json' WHERE id = ?").bind(post.current_version_id).run();
    const result = await pluginCall(plugin.token, "GET", `/content/${post.instance_id}`);
    expectEnvelope(result, "temporary_failure");
    expect(result.body.outcome.retry).toBe(true);
  });
});

describe("plugin protocol: launch exchange", () => {
  it("exchanges a code once for the person's delegation, never a credential", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const launch = await createLaunch(s.ctx(), { credential: null }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: post.instance_id });
    const code = new URL(launch.url).searchParams.get("code") ?? "";
    expect(code).toMatch(/^dwl_[A-Za-z0-9_-]{43}$/);
    const first = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code } });
    expectEnvelope(first, "ok");
    expect(first.body.data).toMatchObject({
      person: { id: s.adminId },
      launch: { kind: "content_action", id: "review", instance_id: post.instance_id },
      capabilities: ALL,
      model_ids: [models.article.id, models.author.id],
    });
    expect(JSON.stringify(first.body)).not.toMatch(/dwm_|dws_|ses_/);
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code } }), "invalid_request");
  });

  it("refuses an expired code, another installation's code, and malformed bodies", async () => {
    const { s, models, plugin } = await setup();
    const other = await installTestPlugin(s, { manifest: testManifest({ id: "other-plugin" }), modelIds: [models.article.id] });
    const codeOf = async () => new URL((await createLaunch(s.ctx(), { credential: null }, { plugin: plugin.id, kind: "manage_view", target: "dashboard" })).url).searchParams.get("code") ?? "";
    const expired = await codeOf();
    await env.DB.prepare("UPDATE plugin_launch_codes SET expires_at = ? WHERE installation_id = ?").bind(Date.now() - 1, plugin.id).run();
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: expired } }), "invalid_request");
    const stolen = await codeOf();
    expectEnvelope(await pluginCall(other.token, "POST", "/launch/exchange", { body: { code: stolen } }), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: stolen } }), "ok");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: "dwl_short" } }), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: await codeOf(), extra: 1 } }), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { rawBody: "{" }), "invalid_request");
  });
});


describe("plugin launches: rules 10 and 11", () => {
  it("refuses a view launch by someone who reads none of the granted models, and scopes that delegate nothing", async () => {
    const { s, models, plugin } = await setup();
    const noteOnly = await installTestPlugin(s, { manifest: testManifest({ id: "notes-only" }), capabilities: ALL, modelIds: [models.note.id] });
    const viewer = await s.person("viewer");
    const role = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(viewer.id, s.site.id).first<{ id: string; permissions: string }>();
    const narrowed = { ...(JSON.parse(role?.permissions ?? "{}") as Record<string, unknown>), models: { [models.article.id]: ["read"] } };
    const actor = { ...viewer, permissions: narrowed as typeof viewer.permissions };
    const refused = await createLaunch(s.ctx(actor), { credential: null }, { plugin: noteOnly.id, kind: "manage_view", target: "dashboard" }).catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe("capability_refused");
    await expect(createLaunch(s.ctx(actor), { credential: null }, { plugin: plugin.id, kind: "manage_view", target: "dashboard" })).resolves.toMatchObject({ outcome: "launch_created" });

    const onlyWrite = await installTestPlugin(s, { manifest: testManifest({ id: "writer" }), capabilities: ["content:write"], modelIds: [models.article.id] });
    const nothing = await createLaunch(s.ctx(), { credential: { id: "mcr_x", scopes: ["content:read", "plugins:use"], model_ids: null } }, { plugin: onlyWrite.id, kind: "manage_view", target: "dashboard" }).catch((e: unknown) => e);
    expect((nothing as { code?: string }).code).toBe("capability_refused");
  });
});
