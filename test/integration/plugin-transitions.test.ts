import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../shared/db/client";
import * as lifecycle from "../../shared/services/lifecycle";
import { createLaunch } from "../../shared/services/plugins/launches";
import { createManagementCredential, revokeManagementCredential } from "../../shared/services/credentials/management-credentials";
import { settle, siteObject } from "../../workers/forward";
import { resolveDelegation } from "../../shared/auth/plugin-delegation";
import { rotateInstallationToken, transitionInstallation } from "../../shared/services/plugins/installations";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";
import { ALL, delegationFor, draft, eventCount, expectEnvelope, setup, type Exchanged, type Summary } from "../helpers/plugin-protocol";
import { workerFetch } from "../helpers/worker";

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
    const served = await workerFetch(`http://${s.host}/v1/article/${post.slug ?? ""}`);
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
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${cat.instance_id}/transitions`, { body: publishCat }), "capability_refused");
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

  it("refuses with requester_unauthorized, as a read does, when the person may no longer read the entry's language", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const editor = await s.person("editor");
    const delegation = await delegationFor(s, plugin, post.instance_id, editor);
    const role = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(editor.id, s.site.id).first<{ id: string; permissions: string }>();
    const permissions = JSON.parse(role?.permissions ?? "{}") as Record<string, unknown>;
    permissions.limits = { languages: { read: ["fr"] } };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), role?.id).run();
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "requester_unauthorized");
    const body = { kind: "publish", expected_current_version_id: post.current_version_id, expected_workflow_revision: 0, delegation_id: delegation };
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body }), "requester_unauthorized");
  });
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
    const delegate = await resolveDelegation(env.DB, installation, delegationId, Date.now());
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
    const big = await workerFetch("http://plugins.example.test/api/plugin/v1/context", { headers: { authorization: `Bearer ${plugin.token}`, "content-length": "20000" } });
    expect(big.status).toBe(400);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode("x".repeat(4000)));
        controller.close();
      },
    });
    const chunked = await workerFetch("http://plugins.example.test/api/plugin/v1/launch/exchange", {
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
