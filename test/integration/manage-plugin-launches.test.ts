import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/crypto/digest";
import * as lifecycle from "../../shared/services/lifecycle";
import { uninstallPlugin } from "../../shared/services/plugins/installations";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

type Err = { error: { code: string; [k: string]: unknown } };
type Launch = { outcome: string; url: string; expires_at: string; single_use: boolean };
type Listed<T> = { data: T[] };

/** Active "helper" (views, a model-limited action, a policy), disabled "sleepy", pending "later". */
async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const manifest = testManifest({
    content_actions: [
      { id: "review", label: "Review", path: "/actions/review" },
      { id: "translate", label: "Translate", path: "/actions/translate", model_ids: [models.article.id] },
    ],
    content_policies: [{ id: "tone", label: "Tone", mode: "validate" }],
  });
  const helper = await installTestPlugin(s, { manifest, modelIds: [models.article.id, models.note.id] });
  const sleepy = await installTestPlugin(s, { manifest: testManifest({ id: "sleepy", name: "Sleepy" }), modelIds: [models.article.id], state: "disabled" });
  await installTestPlugin(s, { manifest: testManifest({ id: "later", name: "Later" }), modelIds: [], state: "pending" });
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Hello" } }));
  const note = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.note.id, fields: { title: "Memo" } }));
  const author = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.author.id, fields: { name: "Ann" } }));
  return { s, models, helper, sleepy, entries: { article: article.instance_id, note: note.instance_id, author: author.instance_id } };
}

function expectLaunch(res: { status: number; body: Launch }, path: string): string {
  expect(res.status).toBe(201);
  expect(res.body.outcome).toBe("launch_created");
  expect(res.body.single_use).toBe(true);
  const match = /^https:\/\/plugins\.example\.test\/plugin(\/[^?]+)\?code=(dwl_[A-Za-z0-9_-]{43})$/.exec(res.body.url);
  expect(match?.[1]).toBe(path);
  const lifetime = Date.parse(res.body.expires_at) - Date.now();
  expect(lifetime).toBeGreaterThan(50_000);
  expect(lifetime).toBeLessThanOrEqual(60_000);
  return match?.[2] ?? "";
}

async function setRolePermissions(s: SeededSite, permissions: unknown): Promise<void> {
  await env.DB.prepare("UPDATE roles SET permissions = ? WHERE id = (SELECT role_id FROM memberships WHERE person_id = ? AND site_id = ?)")
    .bind(JSON.stringify(permissions), s.adminId, s.site.id)
    .run();
}

describe("management API: plugin lists", () => {
  it("lists active and disabled plugins (pending hidden) and the items of active ones; needs plugins:use", async () => {
    const { s, models, helper, sleepy } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const list = await manage<Listed<Record<string, unknown>>>(token, "GET", "/plugins");
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: helper.id,
        plugin_id: "helper",
        name: "Helper",
        version: "1.0.0",
        state: "active",
        launchable: true,
        manage_views: [{ id: "dashboard", label: "Dashboard" }],
        content_actions: [
          { id: "review", label: "Review", model_ids: [models.article.id, models.note.id] },
          { id: "translate", label: "Translate", model_ids: [models.article.id] },
        ],
        policies: [{ id: "tone", label: "Tone", kind: "content_policy", mode: "validate" }],
        mcp_tool: { omitted_because: null },
      },
      { id: sleepy.id, plugin_id: "sleepy", name: "Sleepy", version: "1.0.0", state: "disabled", launchable: false },
    ]);
    const views = await manage<Listed<unknown>>(token, "GET", "/plugins/manage-views");
    expect(views.body.data).toEqual([{ installation_id: helper.id, plugin_id: "helper", plugin_name: "Helper", id: "dashboard", label: "Dashboard" }]);
    const actions = await manage<Listed<{ id: string; installation_id: string }>>(token, "GET", "/plugins/content-actions");
    expect(actions.body.data.map((a) => [a.installation_id, a.id])).toEqual([
      [helper.id, "review"],
      [helper.id, "translate"],
    ]);
    const noScope = await manage<Err>(await credential(s, ["content:read"]), "GET", "/plugins");
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({ code: "insufficient_scope", scope: "plugins:use" });
  });

  it("instance_id keeps the actions a launch on that entry would accept", async () => {
    const { s, models, entries } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const ids = async (t: string, instance: string) => (await manage<Listed<{ id: string }>>(t, "GET", `/plugins/content-actions?instance_id=${instance}`)).body.data.map((a) => a.id);
    expect(await ids(token, entries.article)).toEqual(["review", "translate"]);
    expect(await ids(token, entries.note)).toEqual(["review"]);
    expect(await ids(token, entries.author)).toEqual([]); // model not granted
    // Outside the credential's models: the same 404 as an unknown entry (authorise first, then reveal).
    const articleOnly = await credential(s, ["content:read", "plugins:use"], [models.article.id]);
    const outside = await manage<Err>(articleOnly, "GET", `/plugins/content-actions?instance_id=${entries.note}`);
    const unknown = await manage<Err>(token, "GET", "/plugins/content-actions?instance_id=ent_nope");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual(unknown.body);
  });
});

describe("management API: plugin launches", () => {
  it("answers 201 with a one-time link, stores only the code's digest, needs no Idempotency-Key", async () => {
    const { s, helper, entries } = await setup();
    const token = await credential(s, ["content:read", "content:write", "plugins:use"]);
    const view = await manage<Launch>(token, "POST", `/plugins/${helper.id}/manage-views/dashboard/launch`, { key: null });
    const code = expectLaunch(view, "/views/dashboard");
    const row = await env.DB.prepare("SELECT c.code_digest, c.expires_at, c.consumed_at, d.credential_id, d.capabilities, d.launch_kind FROM plugin_launch_codes c JOIN plugin_delegations d ON d.id = c.delegation_id WHERE c.site_id = ?")
      .bind(s.site.id)
      .first<{ code_digest: string; expires_at: number; consumed_at: number | null; capabilities: string; launch_kind: string }>();
    expect(row?.code_digest).toBe(await sha256Hex(code));
    expect(row?.expires_at).toBe(Date.parse(view.body.expires_at));
    expect(row?.consumed_at).toBeNull();
    expect(row?.launch_kind).toBe("manage_view");
    // content:read + content:write delegate only those capabilities of the grant.
    expect(JSON.parse(row?.capabilities ?? "[]").sort()).toEqual(["content:read", "content:write", "workflow:read"]);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM plugin_launch_codes WHERE code_digest = ?").bind(code).first<{ n: number }>();
    expect(stored?.n).toBe(0);

    // By plugin id, with an empty JSON body.
    const action = await manage<Launch>(token, "POST", `/plugins/helper/content-actions/translate/entries/${entries.article}/launch`, { key: null, body: {} });
    expectLaunch(action, "/actions/translate");
    const extra = await manage<Err>(token, "POST", `/plugins/helper/manage-views/dashboard/launch`, { key: null, body: { x: 1 } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe("invalid_request");
    const noScope = await manage<Err>(await credential(s, ["content:read"]), "POST", `/plugins/helper/manage-views/dashboard/launch`, { key: null });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe("insufficient_scope");
  });

  it("refuses disabled (409), uninstalled, other site's and unknown views (404)", async () => {
    const { s, sleepy } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const disabled = await manage<Err>(token, "POST", `/plugins/${sleepy.id}/manage-views/dashboard/launch`, { key: null });
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe("installation_not_active");
    const unknownView = await manage<Err>(token, "POST", `/plugins/helper/manage-views/nope/launch`, { key: null });
    expect(unknownView.status).toBe(404);
    expect(unknownView.body.error.code).toBe("not_found");

    const other = await seedSite();
    const foreign = await installTestPlugin(other, { modelIds: [] });
    const foreignLaunch = await manage<Err>(token, "POST", `/plugins/${foreign.id}/manage-views/dashboard/launch`, { key: null });
    expect(foreignLaunch.status).toBe(404);
    expect(foreignLaunch.body.error.code).toBe("not_found");
    await uninstallPlugin(s.ctx(), sleepy.id);
    const gone = await manage<Err>(token, "POST", `/plugins/sleepy/manage-views/dashboard/launch`, { key: null });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });

  it("refuses content actions outside the grant (403), and entries outside the credential's models or the creator's reading as not found (404), re-checked at each launch", async () => {
    const { s, models, entries } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const launch = (t: string, action: string, instance: string) => manage<Err>(t, "POST", `/plugins/helper/content-actions/${action}/entries/${instance}/launch`, { key: null });
    const notGranted = await launch(token, "review", entries.author);
    expect(notGranted.status).toBe(403);
    expect(notGranted.body.error.code).toBe("capability_refused");
    const articleOnly = await credential(s, ["content:read", "plugins:use"], [models.article.id]);
    // Authorise first, then reveal: an entry the credential may not read is "not found", as GET /entries/{id} answers.
    const outside = await launch(articleOnly, "review", entries.note);
    expect(outside.status).toBe(404);
    expect(outside.body.error.code).toBe("not_found");
    expect(JSON.stringify(outside.body)).not.toContain(models.note.id);
    const wrongModel = await launch(token, "translate", entries.note);
    expect(wrongModel.status).toBe(404);

    expect((await launch(token, "review", entries.note)).status).toBe(201);
    // The creator's role loses read on notes: the next launch is refused, and the filter agrees.
    await setRolePermissions(s, { models: { [models.article.id]: ["read", "create", "update"] }, system: ["site:plugins"] });
    const refused = await launch(token, "review", entries.note);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("not_found");
    const filtered = await manage<Err>(token, "GET", `/plugins/content-actions?instance_id=${entries.note}`);
    expect(filtered.status).toBe(404);
    expect(filtered.body.error.code).toBe("not_found");
  });
});

describe("admin session: plugin launches", () => {
  it("lists and launches for the signed-in person with CSRF; no session is 401", async () => {
    const { s, helper, entries } = await setup();
    const session = await signIn(await emailOf(s.adminId));
    const siteId = s.site.id;
    const list = await adminCall<Listed<{ id: string; state: string }>>(session, "GET", "/api/plugin-launches/plugins", { siteId });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p) => [p.id, p.state])).toEqual([
      [helper.id, "active"],
      [expect.any(String), "disabled"],
    ]);
    const actions = await adminCall<Listed<{ id: string }>>(session, "GET", `/api/plugin-launches/content-actions?instance_id=${entries.note}`, { siteId });
    expect(actions.body.data.map((a) => a.id)).toEqual(["review"]);
    const launched = await adminCall<Launch>(session, "POST", `/api/plugin-launches/${helper.id}/content-actions/review/entries/${entries.note}`, { siteId });
    expectLaunch(launched, "/actions/review");
    const delegation = await env.DB.prepare("SELECT credential_id, scopes, person_id FROM plugin_delegations WHERE site_id = ?").bind(siteId).first<{ credential_id: string | null; scopes: string | null; person_id: string }>();
    expect(delegation).toEqual({ credential_id: null, scopes: null, person_id: s.adminId });
    const noCsrf = await adminCall<Err>(session, "POST", `/api/plugin-launches/${helper.id}/manage-views/dashboard`, { siteId, csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    const noSession = await adminCall<Err>(undefined, "GET", "/api/plugin-launches/manage-views", { siteId });
    expect(noSession.status).toBe(401);
  });
});

describe("management API: rich-text blocks", () => {
  it("lists the blocks of active plugins only, named <plugin id>/<name>, with content:read", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const blocks = [{ name: "callout", label: "Callout", version: 2, fields: { text: { type: "text" } } }];
    await installTestPlugin(s, { manifest: testManifest({ id: "blocks-on", rich_text_blocks: blocks }), modelIds: [article.id] });
    await installTestPlugin(s, { manifest: testManifest({ id: "blocks-off", rich_text_blocks: blocks }), modelIds: [article.id], state: "disabled" });
    const token = await credential(s, ["content:read"]);
    const listed = await manage<{ data: unknown[] }>(token, "GET", "/rich-blocks");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [{ name: "blocks-on/callout", label: "Callout", version: 2, fields: { text: { type: "text" } } }] });
  });
});

