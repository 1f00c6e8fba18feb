import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../shared/auth/permissions";
import * as lifecycle from "../../shared/services/lifecycle";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { changeAdminRole } from "../helpers/manage-api";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * The entry editor's Plugin actions (issue #26; docs/admin-ui-plugin-actions.md) rely on the
 * management API under the session (`/api/v1`, workers/admin/manage-bridge.ts): the operations the
 * person may run on an entry of a model now, and a run made as that person — not as a credential.
 */

type Op = { id: string; scope: string; destructive: boolean; automation: boolean; model_ids: string[] };
type Err = { error: { code: string } };

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({
    id: "editor-ops",
    name: "Editor ops",
    endpoint,
    capabilities: ["content:read", "content:delete"],
    operations: [
      { id: "echo-entry", label: "Summarize", scope: "entry", destructive: false, capabilities: ["content:read"], input_schema: { type: "object", properties: { max_words: { type: "integer", minimum: 1, maximum: 100 } } } },
      { id: "echo-archive", label: "Archive", scope: "entry", destructive: true, capabilities: ["content:read", "content:delete"], input_schema: { type: "object" } },
      { id: "nightly", label: "Nightly", scope: "site", destructive: false, automation: true, capabilities: ["content:read"], input_schema: { type: "object" } },
    ],
  });
  // Granted on articles only: the editor of an author offers nothing.
  const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id] });
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "One two three" } }));
  const session = await signIn(await emailOf(s.adminId));
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => adminCall<T>(session, method, `/api/v1${path}`, { siteId: s.site.id, ...(body === undefined ? {} : { body }), headers });
  return { s, models, plugin, path, article: article.instance_id, call };
}

const entryOps = (ops: Op[], modelId: string) => ops.filter((op) => op.scope === "entry" && !op.automation && op.model_ids.includes(modelId)).map((op) => op.id);

describe("admin session: the entry editor's plugin actions", () => {
  it("lists the entry operations the person may run on a model's entries; a destructive one needs update", async () => {
    const { s, models, call } = await setup();
    const listed = await call<{ data: Op[] }>("GET", "/plugins/operations");
    expect(listed.status).toBe(200);
    expect(entryOps(listed.body.data, models.article.id)).toEqual(["echo-entry", "echo-archive"]);
    expect(entryOps(listed.body.data, models.author.id)).toEqual([]);
    // A role without update: the destructive operation leaves the editor's list and is refused if asked.
    await changeAdminRole(s, () => ({ models: { "*": ALL_MODEL_OPERATIONS.filter((op) => op !== "update" && op !== "update:own") }, system: ALL_SYSTEM_PERMISSIONS }));
    const narrowed = await call<{ data: Op[] }>("GET", "/plugins/operations");
    expect(entryOps(narrowed.body.data, models.article.id)).toEqual(["echo-entry"]);
  });

  it("runs an entry operation as the person (the delegation and the audit name no credential), with the session's CSRF token", async () => {
    const { s, plugin, path, article, call } = await setup();
    const invokePath = `/api/v1/plugins/editor-ops/operations/echo-entry/invoke`;
    const session = await signIn(await emailOf(s.adminId));
    const noCsrf = await adminCall<Err>(session, "POST", invokePath, { siteId: s.site.id, csrf: null, body: { instance_id: article }, headers: { "idempotency-key": "editor-ops-1" } });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe("csrf_failed");
    expect(await pluginCalls(`${path}/operations/echo-entry`)).toHaveLength(0);

    const ran = await call<{ outcome: string; result: { blocks: { type: string }[] } }>("POST", "/plugins/editor-ops/operations/echo-entry/invoke", { instance_id: article, input: { max_words: 3 } }, { "idempotency-key": "editor-ops-2" });
    expect(ran.status).toBe(200);
    expect(ran.body.outcome).toBe("completed");
    expect(ran.body.result.blocks.map((b) => b.type)).toEqual(["text", "rows", "links", "json"]);
    const audit = await env.DB.prepare("SELECT actor_id, credential_id FROM audit_log WHERE site_id = ? AND action = 'plugin.operation.run' AND target_id = ?").bind(s.site.id, plugin.id).all<{ actor_id: string; credential_id: string | null }>();
    expect(audit.results).toEqual([{ actor_id: s.adminId, credential_id: null }]);

    // The editor's form is checked by the service, in words: 400 input_invalid before the plugin is called.
    const before = (await pluginCalls(`${path}/operations/echo-entry`)).length;
    const invalid = await call<Err & { error: { issues: { path: string }[] } }>("POST", "/plugins/editor-ops/operations/echo-entry/invoke", { instance_id: article, input: { max_words: 500 } }, { "idempotency-key": "editor-ops-3" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("input_invalid");
    expect(invalid.body.error.issues.length).toBeGreaterThan(0);
    expect(await pluginCalls(`${path}/operations/echo-entry`)).toHaveLength(before);
  });
});
