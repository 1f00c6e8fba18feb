import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OUTCOMES } from "../../schema/plugin-protocol";
import type { PluginCapability } from "../../schema/plugin-manifest";
import { createDb } from "../../shared/db/client";
import * as lifecycle from "../../shared/services/lifecycle";
import type { Actor } from "../../shared/services/lifecycle";
import { createLaunch } from "../../shared/services/plugin-launches";
import { createManagementCredential, revokeManagementCredential } from "../../shared/services/management-credentials";
import { settle, siteObject } from "../../workers/forward";
import { resolveDelegation } from "../../shared/auth/plugin-delegation";
import { rotateInstallationToken, transitionInstallation } from "../../shared/services/plugins";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { installTestPlugin, pluginCall, testManifest, type PluginResult, type TestInstallation } from "../helpers/plugins";
import { inSiteStorage } from "../helpers/site-storage";

const ALL: PluginCapability[] = ["content:read", "workflow:read", "workflow:publish", "workflow:unpublish"];

interface Summary {
  instance_id: string;
  model_id: string;
  current_version_id: string | null;
  published_version_id: string | null;
  workflow?: { state: string; revision: number; transitions: { to: string; kind: string }[] };
}
interface Page {
  data: Summary[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}
interface Exchanged {
  delegation_id: string;
  person: { id: string; name: string };
  launch: { kind: string; id: string; instance_id: string | null };
  capabilities: string[];
  model_ids: string[];
}

async function setup(capabilities: PluginCapability[] = ALL) {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const plugin = await installTestPlugin(s, {
    manifest: testManifest({ capabilities: ALL }),
    capabilities,
    modelIds: [models.article.id, models.author.id],
  });
  return { s, models, plugin };
}

/** A person's launch of the content action on an entry, exchanged by the plugin: the delegation id. */
async function delegationFor(s: SeededSite, plugin: TestInstallation, instanceId: string, actor: Actor = s.admin): Promise<string> {
  const launch = await createLaunch(s.ctx(actor), { credential: null }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: instanceId });
  const code = new URL(launch.url).searchParams.get("code");
  const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code } });
  expect(exchanged.status).toBe(200);
  return exchanged.body.data?.delegation_id ?? "";
}

async function draft(s: SeededSite, modelId: string, fields: Record<string, unknown>) {
  return apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields: fields as never }));
}

async function eventCount(siteId: string, name: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox_events WHERE site_id = ? AND name = ?").bind(siteId, name).first<{ n: number }>();
  return row?.n ?? 0;
}

function expectEnvelope(result: PluginResult, code: keyof typeof OUTCOMES): void {
  expect(result.body.outcome.code).toBe(code);
  expect(result.status).toBe(OUTCOMES[code].status);
  expect(result.body.outcome.retry).toBe(OUTCOMES[code].retry);
  expect(Object.keys(result.body.outcome).sort()).toEqual(["code", "message", "retry"]);
  expect(typeof result.body.outcome.message).toBe("string");
}

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

  it("reads one entry in the grant; others are content_not_found", async () => {
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
    for (const id of [cat.instance_id, foreign.instance_id, trashed.instance_id, "ent_unknown"]) {
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

describe("plugin protocol: transitions", () => {
  it("publishes through the lifecycle, then replays and refuses a reused key", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegation = await delegationFor(s, plugin, post.instance_id);
    const command = { kind: "publish", expected_current_version_id: post.current_version_id, expected_workflow_revision: 0, delegation_id: delegation };
    const before = await eventCount(s.site.id, "entry.published");
    const applied = await pluginCall<Summary>(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: command, key: "k-1" });
    expectEnvelope(applied, "transition_applied");
    expect(applied.body.data).toMatchObject({ instance_id: post.instance_id, published_version_id: post.current_version_id, workflow: { state: "published", revision: 1 } });
    expect(await eventCount(s.site.id, "entry.published")).toBe(before + 1);
    const served = await SELF.fetch(`http://${s.host}/v1/article/${post.slug ?? ""}`);
    expect(served.status).toBe(200);

    const replay = await pluginCall<Summary>(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: command, key: "k-1" });
    expectEnvelope(replay, "idempotent_replay");
    expect(replay.body.data).toEqual(applied.body.data);
    expect(await eventCount(s.site.id, "entry.published")).toBe(before + 1);

    const other = { kind: "unpublish", expected_published_version_id: post.current_version_id, expected_workflow_revision: 1, delegation_id: delegation };
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: other, key: "k-1" }), "idempotency_key_reused");
    const audit = await env.DB.prepare("SELECT actor_kind, actor_id, credential_id FROM audit_log WHERE site_id = ? AND action = 'entry.publish'").bind(s.site.id).first();
    expect(audit).toEqual({ actor_kind: "plugin", actor_id: s.adminId, credential_id: plugin.id });
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: other, key: "x".repeat(129) }), "invalid_request");
  });

  it("maps stale revisions, stale pinned versions, unavailable moves and lifecycle refusals", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegation = await delegationFor(s, plugin, post.instance_id);
    const path = `/content/${post.instance_id}/transitions`;
    const publish = (version: string | null, revision: number) => ({ kind: "publish", expected_current_version_id: version, expected_workflow_revision: revision, delegation_id: delegation });
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish(post.current_version_id, 7) }), "workflow_conflict");
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish("ver_old", 0) }), "scheduled_target_stale");
    const unpublish = { kind: "unpublish", expected_published_version_id: "ver_x", expected_workflow_revision: 0, delegation_id: delegation };
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: unpublish }), "transition_unavailable");

    const empty = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, slug: "no-title", fields: { summary: "no title" } }));
    const emptyDelegation = await delegationFor(s, plugin, empty.instance_id);
    const refused = await pluginCall(plugin.token, "POST", `/content/${empty.instance_id}/transitions`, {
      body: { kind: "publish", expected_current_version_id: empty.current_version_id, expected_workflow_revision: 0, delegation_id: emptyDelegation },
    });
    expectEnvelope(refused, "transition_refused");
    expect(refused.body.data).toMatchObject({ cause: "field_validation_failed" });
    const row = await createDb(env.DB).selectFrom("entries").select(["workflow_revision", "published_version_id"]).where("instance_id", "=", empty.instance_id).executeTakeFirst();
    expect(row).toEqual({ workflow_revision: 0, published_version_id: null });

    for (const body of [{ ...publish(post.current_version_id, 0), extra: true }, { kind: "publish", expected_workflow_revision: 0, delegation_id: delegation }, { kind: "move" }]) {
      expectEnvelope(await pluginCall(plugin.token, "POST", path, { body }), "invalid_request");
    }
  });

  it("refuses an unpublish that published content depends on", async () => {
    const { s, models, plugin } = await setup();
    const ann = await draft(s, models.author.id, { name: "Ann" });
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ann.instance_id }));
    const post = await draft(s, models.article.id, { title: "P", author: ann.instance_id });
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: post.instance_id }));
    const delegation = await delegationFor(s, plugin, ann.instance_id);
    const result = await pluginCall(plugin.token, "POST", `/content/${ann.instance_id}/transitions`, {
      body: { kind: "unpublish", expected_published_version_id: ann.current_version_id, expected_workflow_revision: 1, delegation_id: delegation },
    });
    expectEnvelope(result, "dependent_content");
  });

  it("refuses a capability not granted and content outside the grant", async () => {
    const { s, models, plugin } = await setup(["content:read", "workflow:read", "workflow:publish"]);
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegation = await delegationFor(s, plugin, post.instance_id);
    const unpublish = { kind: "unpublish", expected_published_version_id: "ver_x", expected_workflow_revision: 0, delegation_id: delegation };
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: unpublish }), "capability_refused");
    const cat = await draft(s, models.category.id, { title: "C" });
    const publishCat = { kind: "publish", expected_current_version_id: cat.current_version_id, expected_workflow_revision: 0, delegation_id: delegation };
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${cat.instance_id}/transitions`, { body: publishCat }), "content_not_found");
  });

  it("refuses when the person behind the delegation lacks or lost the authority", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const viewer = await s.person("viewer");
    const viewerDelegation = await delegationFor(s, plugin, post.instance_id, viewer);
    const body = (delegation: string) => ({ kind: "publish", expected_current_version_id: post.current_version_id, expected_workflow_revision: 0, delegation_id: delegation });
    const path = `/content/${post.instance_id}/transitions`;
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: body(viewerDelegation) }), "requester_unauthorized");

    const editor = await s.person("editor");
    const editorDelegation = await delegationFor(s, plugin, post.instance_id, editor);
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(editor.id, s.site.id).run();
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: body(editorDelegation) }), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: body("dlg_unknown") }), "requester_unauthorized");
    const stillDraft = await createDb(env.DB).selectFrom("entries").select("workflow_state").where("instance_id", "=", post.instance_id).executeTakeFirst();
    expect(stillDraft?.workflow_state).toBe("draft");
  });
});

describe("plugin protocol: rate limit per installation", () => {
  it("lets exactly 120 of 500 concurrent requests through, then 429 with Retry-After", async () => {
    const { s, models, plugin } = await setup();
    const results = await Promise.all(Array.from({ length: 500 }, () => pluginCall(plugin.token, "GET", "/context")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(380);
    const one = limited[0];
    if (!one) throw new Error("no 429");
    expectEnvelope(one, "rate_limited");
    expect(Number(one.headers.get("retry-after"))).toBeGreaterThan(0);

    // The rotated-away token and the new one share the installation's bucket.
    const rotated = await rotateInstallationToken(s.ctx(), plugin.id);
    expectEnvelope(await pluginCall(rotated.token, "GET", "/context"), "rate_limited");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "rate_limited");
    // Another installation of the same site has its own bucket.
    const other = await installTestPlugin(s, { manifest: testManifest({ id: "other-bucket" }), modelIds: [models.article.id] });
    expectEnvelope(await pluginCall(other.token, "GET", "/context"), "ok");
  }, 180_000);

  it("spends nothing for unknown tokens and keys the bucket by installation only", async () => {
    const { s, plugin } = await setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => pluginCall(`dwp_${String(i).padStart(43, "x")}`, "GET", "/context")));
    const before = await inSiteStorage(s.site.id, (storage) => storage.sql.exec("SELECT bucket, count FROM limit_windows WHERE bucket LIKE 'plugin:%'").toArray());
    expect(before).toEqual([]);
    await pluginCall(plugin.token, "GET", "/context", { headers: { "x-installation-id": "pin_other", "idempotency-key": "anything" } });
    const after = await inSiteStorage(s.site.id, (storage) => storage.sql.exec("SELECT bucket, count FROM limit_windows WHERE bucket LIKE 'plugin:%'").toArray());
    expect(after).toEqual([{ bucket: `plugin:${plugin.id}`, count: 1 }]);
    await transitionInstallation(s.ctx(), plugin.id, "disable");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/context"), "plugin_unauthorized");
  }, 60_000);
});

describe("plugin protocol: delegations hold only while their authority does", () => {
  async function outboxTotal(siteId: string): Promise<number> {
    const row = await env.DB.prepare("SELECT (SELECT COUNT(*) FROM outbox_events WHERE site_id = ?1) + (SELECT COUNT(*) FROM audit_log WHERE site_id = ?1 AND action LIKE 'entry.%') AS n").bind(siteId).first<{ n: number }>();
    return row?.n ?? 0;
  }

  it("refuses another installation's delegation, an expired one, one for another entry, and a revoked credential's", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const other = await draft(s, models.article.id, { title: "Other" });
    const second = await installTestPlugin(s, { manifest: testManifest({ id: "second" }), capabilities: ALL, modelIds: [models.article.id] });
    const path = `/content/${post.instance_id}/transitions`;
    const publish = (delegation: string) => ({ kind: "publish", expected_current_version_id: post.current_version_id, expected_workflow_revision: 0, delegation_id: delegation });
    const before = await outboxTotal(s.site.id);

    const foreign = await delegationFor(s, second, post.instance_id);
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish(foreign) }), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${foreign}`), "requester_unauthorized");

    const forOther = await delegationFor(s, plugin, other.instance_id);
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish(forOther) }), "requester_unauthorized");

    const expired = await delegationFor(s, plugin, post.instance_id);
    await env.DB.prepare("UPDATE plugin_delegations SET expires_at = ? WHERE id = ?").bind(Date.now() - 1, expired).run();
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish(expired) }), "requester_unauthorized");

    const created = await createManagementCredential(s.ctx(), { name: "launcher", scopes: ["content:read", "lifecycle:publish", "plugins:use"] });
    const launch = await createLaunch(s.ctx(), { credential: { id: created.id, scopes: ["content:read", "lifecycle:publish", "plugins:use"], model_ids: null } }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: post.instance_id });
    const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code: new URL(launch.url).searchParams.get("code") } });
    expect(exchanged.body.data?.capabilities).toEqual(ALL);
    const viaCredential = exchanged.body.data?.delegation_id ?? "";
    await revokeManagementCredential(s.ctx(), created.id);
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publish(viaCredential) }), "requester_unauthorized");

    // Refusals write nothing: no event, no audit record.
    expect(await outboxTotal(s.site.id)).toBe(before);
  });

  it("writes nothing when the grant, the role or the delegation changed between the checks and the commit", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegationId = await delegationFor(s, plugin, post.instance_id);
    const installation = await createDb(env.DB).selectFrom("plugin_installations").selectAll().where("id", "=", plugin.id).executeTakeFirstOrThrow();
    const delegate = await resolveDelegation(createDb(env.DB), installation, delegationId, Date.now());
    const run = (basis: typeof delegate.basis, checkedAt = Date.now()) =>
      settle(
        siteObject(env, s.site.id).command("pluginPublish", {
          siteId: s.site.id,
          actor: delegate.actor,
          input: { instance_id: post.instance_id, basis, checked_at: checkedAt, command: { expected_version_id: post.current_version_id ?? "", expected_workflow_revision: 0 } },
        }),
      );
    await transitionInstallation(s.ctx(), plugin.id, "disable");
    const disabled = await run(delegate.basis);
    expect(disabled.ok ? "applied" : disabled.error.code).toBe("capability_refused");
    await transitionInstallation(s.ctx(), plugin.id, "activate");
    const roleChanged = await run({ ...delegate.basis, roleRevision: delegate.basis.roleRevision - 1 });
    expect(roleChanged.ok ? "applied" : roleChanged.error.code).toBe("requester_unauthorized");
    const lateCommit = await run(delegate.basis, Date.now() + 3_600_001);
    expect(lateCommit.ok ? "applied" : lateCommit.error.code).toBe("requester_unauthorized");
    const row = await createDb(env.DB).selectFrom("entries").select(["workflow_state", "workflow_revision"]).where("instance_id", "=", post.instance_id).executeTakeFirst();
    expect(row).toEqual({ workflow_state: "draft", workflow_revision: 0 });
    const applied = await run(delegate.basis);
    expect(applied.ok).toBe(true);
  });

  it("leaves out fields the delegated person may not read, and reports dependents only by count", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello", summary: "Secret summary" });
    const viewer = await s.person("viewer");
    const titleId = models.article.fields.find((f) => f.key === "title")?.id ?? "";
    const role = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(viewer.id, s.site.id).first<{ id: string; permissions: string }>();
    const permissions = JSON.parse(role?.permissions ?? "{}") as Record<string, unknown>;
    permissions.limits = { fields: { [models.article.id]: { read: [titleId] } } };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), role?.id).run();
    const delegation = await delegationFor(s, plugin, post.instance_id, viewer);
    const narrowed = await pluginCall<{ fields: Record<string, unknown> }>(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expectEnvelope(narrowed, "ok");
    expect(narrowed.body.data?.fields).toMatchObject({ title: "Hello" });
    expect(narrowed.body.data?.fields).not.toHaveProperty("summary");
    const full = await pluginCall<{ fields: Record<string, unknown> }>(plugin.token, "GET", `/content/${post.instance_id}`);
    expect(full.body.data?.fields).toMatchObject({ title: "Hello", summary: "Secret summary" });

    const ann = await draft(s, models.author.id, { name: "Ann" });
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: ann.instance_id }));
    const article = await draft(s, models.article.id, { title: "Links", author: ann.instance_id });
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: article.instance_id }));
    const annDelegation = await delegationFor(s, plugin, ann.instance_id);
    const refused = await pluginCall(plugin.token, "POST", `/content/${ann.instance_id}/transitions`, {
      body: { kind: "unpublish", expected_published_version_id: ann.current_version_id, expected_workflow_revision: 1, delegation_id: annDelegation },
    });
    expectEnvelope(refused, "dependent_content");
    expect(refused.body.data).toEqual({ dependents_count: 1 });
    expect(JSON.stringify(refused.body)).not.toContain(article.instance_id);
  });

  it("uses a launch code once even when two exchanges race, and keeps it when the person is refused", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const launch = await createLaunch(s.ctx(), { credential: null }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: post.instance_id });
    const code = new URL(launch.url).searchParams.get("code");
    const both = await Promise.all([0, 1].map(() => pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code } })));
    expect(both.map((r) => r.body.outcome.code).sort()).toEqual(["invalid_request", "ok"]);

    const editor = await s.person("editor");
    const editorLaunch = await createLaunch(s.ctx(editor), { credential: null }, { plugin: plugin.id, kind: "manage_view", target: "dashboard" });
    const editorCode = new URL(editorLaunch.url).searchParams.get("code");
    await env.DB.prepare("UPDATE memberships SET active = 0 WHERE person_id = ? AND site_id = ?").bind(editor.id, s.site.id).run();
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: editorCode } }), "requester_unauthorized");
    const unused = await env.DB.prepare("SELECT consumed_at FROM plugin_launch_codes WHERE installation_id = ? AND delegation_id IN (SELECT id FROM plugin_delegations WHERE person_id = ?)").bind(plugin.id, editor.id).first<{ consumed_at: number | null }>();
    expect(unused?.consumed_at).toBeNull();
  });

  it("holds a GET and a chunked body to the size limit, and stops the previous token after the overlap", async () => {
    const { plugin } = await setup();
    const big = await SELF.fetch("http://plugins.example.test/api/plugin/v1/context", { headers: { authorization: `Bearer ${plugin.token}`, "content-length": "20000" } });
    expect(big.status).toBe(400);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode("x".repeat(4000)));
        controller.close();
      },
    });
    const chunked = await SELF.fetch("http://plugins.example.test/api/plugin/v1/launch/exchange", {
      method: "POST",
      headers: { authorization: `Bearer ${plugin.token}`, "content-type": "application/json" },
      body: chunks,
    });
    const chunkedBody = (await chunked.json()) as { outcome: { code: string; message: string } };
    expect(chunked.status).toBe(400);
    expect(chunkedBody.outcome.message).toContain("16384");

    // Rotation: the old token works inside the 600000 ms overlap, not after it.
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const rotating = await installTestPlugin(s, { manifest: testManifest({ id: "rotating" }), modelIds: [models.article.id] });
    const rotated = await rotateInstallationToken(s.ctx(), rotating.id);
    expectEnvelope(await pluginCall(rotating.token, "GET", "/context"), "ok");
    expectEnvelope(await pluginCall(rotated.token, "GET", "/context"), "ok");
    await env.DB.prepare("UPDATE plugin_installations SET previous_token_expires_at = ? WHERE id = ?").bind(Date.now() - 1, rotating.id).run();
    expectEnvelope(await pluginCall(rotating.token, "GET", "/context"), "plugin_unauthorized");
    expectEnvelope(await pluginCall(rotated.token, "GET", "/context"), "ok");
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
