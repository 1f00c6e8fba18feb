import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { createLaunch } from "../../shared/services/plugins/launches";
import { rotateInstallationToken } from "../../shared/services/plugins/installations";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";
import { ALL, delegationFor, draft, expectEnvelope, setup, type Exchanged, type Summary } from "../helpers/plugin-protocol";

/**
 * The plugin protocol reads the installation, the delegation, its person's membership, the launch
 * credential (and the context's site, the exchange's code) in one D1 batch keyed by the token's
 * digest, and parses the route before the token only to key them (workers/plugin/request-reads.ts).
 * These pin what must not move with that: the token is refused before anything the request names,
 * a rotated token in its grace keys the same rows, another site's ids find nothing, and the
 * refusals keep their order.
 */

const publishOf = (post: { current_version_id: string | null }, delegation: string) => ({
  kind: "publish",
  expected_current_version_id: post.current_version_id,
  expected_workflow_revision: 0,
  delegation_id: delegation,
});

async function workflowState(instanceId: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT workflow_state FROM entries WHERE instance_id = ?").bind(instanceId).first<{ workflow_state: string }>();
  return row?.workflow_state;
}

describe("plugin protocol: reads that ride with the token", () => {
  it("refuses the token before any shape the request has and before the ids it names", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegation = await delegationFor(s, plugin, post.instance_id);
    const path = `/content/${post.instance_id}/transitions`;
    const unknownToken = `dwp_${"A".repeat(43)}`;
    for (const token of [null, unknownToken]) {
      expectEnvelope(await pluginCall(token, "POST", path, { body: { kind: "move" } }), "plugin_unauthorized");
      expectEnvelope(await pluginCall(token, "POST", path, { rawBody: "{not json" }), "plugin_unauthorized");
      expectEnvelope(await pluginCall(token, "GET", "/no/such/route"), "plugin_unauthorized");
      expectEnvelope(await pluginCall(token, "POST", path, { body: publishOf(post, delegation) }), "plugin_unauthorized");
      expectEnvelope(await pluginCall(token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "plugin_unauthorized");
    }
    const disabled = await installTestPlugin(s, { manifest: testManifest({ id: "disabled-one" }), capabilities: ALL, modelIds: [models.article.id], state: "disabled" });
    expectEnvelope(await pluginCall(disabled.token, "POST", path, { body: { kind: "move" } }), "plugin_unauthorized");
    expectEnvelope(await pluginCall(disabled.token, "GET", "/context"), "plugin_unauthorized");
    expect(await workflowState(post.instance_id)).toBe("draft");

    // With a valid token the same shapes are the protocol's own refusals.
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: { kind: "move" } }), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "GET", "/no/such/route"), "invalid_request");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${"x".repeat(300)}`), "invalid_request");
  });

  it("keys the delegation, the exchange and the context by a rotated token within its grace, and by neither after it", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const plugin = await installTestPlugin(s, { manifest: testManifest({ capabilities: ALL }), capabilities: ALL, modelIds: [models.article.id] });
    const post = await draft(s, models.article.id, { title: "Hello", summary: "Kept" });
    const rotated = await rotateInstallationToken(s.ctx(), plugin.id);

    const launch = await createLaunch(s.ctx(), { credential: null }, { plugin: plugin.id, kind: "content_action", target: "review", instance_id: post.instance_id });
    const exchanged = await pluginCall<Exchanged>(plugin.token, "POST", "/launch/exchange", { body: { code: new URL(launch.url).searchParams.get("code") } });
    expectEnvelope(exchanged, "ok");
    expect(exchanged.body.data).toMatchObject({ person: { id: s.adminId }, launch: { instance_id: post.instance_id }, capabilities: ALL, model_ids: [models.article.id] });
    const delegation = exchanged.body.data?.delegation_id ?? "";

    const context = await pluginCall<{ installation_id: string; site: { id: string } }>(plugin.token, "GET", "/context");
    expectEnvelope(context, "ok");
    expect(context.body.data).toMatchObject({ installation_id: plugin.id, site: { id: s.site.id } });
    const read = await pluginCall<{ fields: Record<string, unknown> }>(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`);
    expectEnvelope(read, "ok");
    expect(read.body.data?.fields).toMatchObject({ title: "Hello", summary: "Kept" });
    expectEnvelope(await pluginCall(rotated.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "ok");

    await env.DB.prepare("UPDATE plugin_installations SET previous_token_expires_at = ? WHERE id = ?").bind(Date.now() - 1, plugin.id).run();
    const path = `/content/${post.instance_id}/transitions`;
    expectEnvelope(await pluginCall(plugin.token, "POST", path, { body: publishOf(post, delegation) }), "plugin_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "plugin_unauthorized");
    expect(await workflowState(post.instance_id)).toBe("draft");
    expectEnvelope(await pluginCall<Summary>(rotated.token, "POST", path, { body: publishOf(post, delegation) }), "transition_applied");
    expect(await workflowState(post.instance_id)).toBe("published");
  });

  it("finds nothing of another site: its delegations, its entries, its launch codes", async () => {
    const { s, models, plugin } = await setup();
    const mine = await draft(s, models.article.id, { title: "Mine" });
    const mineDelegation = await delegationFor(s, plugin, mine.instance_id);
    const other = await setup();
    const theirs = await draft(other.s, other.models.article.id, { title: "Theirs" });
    const theirDelegation = await delegationFor(other.s, other.plugin, theirs.instance_id);

    // Their delegation with my token: refused where mine is not.
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${mine.instance_id}?delegation_id=${theirDelegation}`), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${mine.instance_id}/transitions`, { body: publishOf(mine, theirDelegation) }), "requester_unauthorized");
    expect(await workflowState(mine.instance_id)).toBe("draft");
    // Their entry with my token and my delegation: it does not exist for me.
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${theirs.instance_id}`), "content_not_found");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${theirs.instance_id}?delegation_id=${mineDelegation}`), "content_not_found");
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${theirs.instance_id}/transitions`, { body: publishOf(theirs, mineDelegation) }), "content_not_found");
    expect(await workflowState(theirs.instance_id)).toBe("draft");
    // Their launch code with my token: unknown, and still theirs to exchange.
    const launch = await createLaunch(other.s.ctx(), { credential: null }, { plugin: other.plugin.id, kind: "manage_view", target: "dashboard" });
    const code = new URL(launch.url).searchParams.get("code");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code } }), "invalid_request");
    expectEnvelope(await pluginCall(other.plugin.token, "POST", "/launch/exchange", { body: { code } }), "ok");
  });

  it("keeps the order of refusals: capability → entry → delegation → the person's read", async () => {
    const { s, models, plugin } = await setup(["content:read", "workflow:read", "workflow:publish"]);
    const post = await draft(s, models.article.id, { title: "Hello" });
    const delegation = await delegationFor(s, plugin, post.instance_id);
    const unknownDelegation = "dlg_unknown";
    const unpublish = { kind: "unpublish", expected_published_version_id: "ver_x", expected_workflow_revision: 0, delegation_id: unknownDelegation };
    // Capability before the entry and the delegation.
    expectEnvelope(await pluginCall(plugin.token, "POST", "/content/ent_unknown/transitions", { body: unpublish }), "capability_refused");
    // The entry before the delegation: unknown, in another model, in the Trash.
    expectEnvelope(await pluginCall(plugin.token, "POST", "/content/ent_unknown/transitions", { body: publishOf(post, unknownDelegation) }), "content_not_found");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/ent_unknown?delegation_id=${unknownDelegation}`), "content_not_found");
    const cat = await draft(s, models.category.id, { title: "C" });
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${cat.instance_id}?delegation_id=${unknownDelegation}`), "capability_refused");
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${cat.instance_id}/transitions`, { body: publishOf(cat, unknownDelegation) }), "capability_refused");
    const trashed = await draft(s, models.article.id, { title: "Gone" });
    const trashedDelegation = await delegationFor(s, plugin, trashed.instance_id);
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: trashed.instance_id }));
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${trashed.instance_id}?delegation_id=${trashedDelegation}`), "content_not_found");
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${trashed.instance_id}/transitions`, { body: publishOf(trashed, trashedDelegation) }), "content_not_found");
    // Then the delegation.
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${unknownDelegation}`), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "ok");
  });

  it("refuses a deactivated person's delegation on every use, and leaves their launch code unused", async () => {
    const { s, models, plugin } = await setup();
    const post = await draft(s, models.article.id, { title: "Hello" });
    const editor = await s.person("editor");
    const delegation = await delegationFor(s, plugin, post.instance_id, editor);
    const launch = await createLaunch(s.ctx(editor), { credential: null }, { plugin: plugin.id, kind: "manage_view", target: "dashboard" });
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "ok");

    await env.DB.prepare("UPDATE persons SET active = 0 WHERE id = ?").bind(editor.id).run();
    expectEnvelope(await pluginCall(plugin.token, "GET", `/content/${post.instance_id}?delegation_id=${delegation}`), "requester_unauthorized");
    expectEnvelope(await pluginCall(plugin.token, "POST", `/content/${post.instance_id}/transitions`, { body: publishOf(post, delegation) }), "requester_unauthorized");
    const code = new URL(launch.url).searchParams.get("code");
    expectEnvelope(await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code } }), "requester_unauthorized");
    const unused = await env.DB.prepare("SELECT consumed_at FROM plugin_launch_codes WHERE delegation_id IN (SELECT id FROM plugin_delegations WHERE person_id = ? AND launch_kind = 'manage_view')").bind(editor.id).first<{ consumed_at: number | null }>();
    expect(unused?.consumed_at).toBeNull();
    expect(await workflowState(post.instance_id)).toBe("draft");
  });
});
