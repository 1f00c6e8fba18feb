import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../shared/auth/permissions";
import { sha256Hex } from "../../shared/crypto/digest";
import * as lifecycle from "../../shared/services/lifecycle";
import { uninstallPlugin } from "../../shared/services/plugins/installations";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { expectedSignature, freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { installTestPlugin, pluginCall, testManifest } from "../helpers/plugins";

type Err = { error: { code: string; [k: string]: unknown } };
type Op = { installation_id: string; id: string; scope: string; destructive: boolean; automation: boolean; input: string; input_schema: unknown; result: { blocks: string[] }; model_ids: string[] };
type Completed = { outcome: string; result: { blocks: { type: string; [k: string]: unknown }[] }; replayed?: boolean };

const site = (id: string, extra: Record<string, unknown> = {}) => ({ id, label: id, scope: "site", destructive: false, input_schema: { type: "object" }, capabilities: ["content:read"], ...extra });

/** An active plugin "ops" whose endpoint is the fake plugin, with site and entry operations. */
async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { endpoint, path } = freshEndpoint();
  const manifest = testManifest({
    id: "ops",
    name: "Ops",
    endpoint,
    capabilities: ["content:read", "workflow:read", "content:write", "content:delete"],
    operations: [
      site("echo", { input_schema: { type: "object", properties: { note: { type: "string", maxLength: 20 } } } }),
      { id: "echo-entry", label: "Summarize", scope: "entry", destructive: false, capabilities: ["content:read"], result: ["text", "rows", "links", "json"], input_schema: { type: "object", properties: { max_words: { type: "integer", minimum: 1, maximum: 100 } }, required: ["max_words"] } },
      { id: "echo-archive", label: "Archive", scope: "entry", destructive: true, capabilities: ["content:read", "content:delete"], input_schema: { type: "object" } },
      site("writer", { capabilities: ["content:write"] }),
      site("nightly", { automation: true }),
      site("text-only", { result: ["text"] }),
      site("refuse"),
      site("garbage"),
      site("http-link"),
      site("crash"),
      site("gateway"),
      site("slow"),
      site("wait"),
    ],
  });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id, models.note.id] });
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Hello" } }));
  const author = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.author.id, fields: { name: "Ann" } }));
  return { s, models, plugin, path, entries: { article: article.instance_id, author: author.instance_id } };
}

const invoke = <T>(token: string, plugin: string, operation: string, body: unknown = {}, key: string = newKey()) =>
  manage<T>(token, "POST", `/plugins/${plugin}/operations/${operation}/invoke`, { body, key });

describe("management API: plugin operations are listed by rule 12", () => {
  it("lists what the credential may run now, with scope, destructive, input, input_schema, result and model_ids", async () => {
    const { s, models, plugin } = await setup();
    const reader = await credential(s, ["content:read", "plugins:use"]);
    const list = await manage<{ data: Op[] }>(reader, "GET", "/plugins/operations");
    expect(list.status).toBe(200);
    const ids = list.body.data.map((op) => op.id);
    // content:write and content:delete are not delegated by content:read alone.
    expect(ids).not.toContain("writer");
    expect(ids).not.toContain("echo-archive");
    expect(ids).toContain("nightly");
    const entry = list.body.data.find((op) => op.id === "echo-entry");
    expect(entry).toEqual({
      installation_id: plugin.id,
      plugin_id: "ops",
      plugin_name: "Ops",
      id: "echo-entry",
      label: "Summarize",
      scope: "entry",
      destructive: false,
      automation: false,
      input: "required",
      input_schema: { type: "object", properties: { max_words: { type: "integer", minimum: 1, maximum: 100 } }, required: ["max_words"] },
      result: { blocks: ["text", "rows", "links", "json"] },
      model_ids: [models.article.id, models.note.id],
    });
    expect(list.body.data.find((op) => op.id === "echo")).toMatchObject({ scope: "site", input: "optional", automation: false });
    expect(list.body.data.find((op) => op.id === "nightly")).toMatchObject({ automation: true, input: "none" });

    const all = await credential(s, ["content:read", "content:write", "content:trash", "plugins:use"]);
    const allIds = (await manage<{ data: Op[] }>(all, "GET", "/plugins/operations")).body.data.map((op) => op.id);
    expect(allIds).toContain("writer");
    expect(allIds).toContain("echo-archive");

    // The credential's models narrow an entry operation's models; none left: not listed.
    const articleOnly = await credential(s, ["content:read", "plugins:use"], [models.article.id]);
    const narrowed = await manage<{ data: Op[] }>(articleOnly, "GET", "/plugins/operations");
    expect(narrowed.body.data.find((op) => op.id === "echo-entry")?.model_ids).toEqual([models.article.id]);
    const authorOnly = await credential(s, ["content:read", "plugins:use"], [models.author.id]);
    const none = await manage<{ data: Op[] }>(authorOnly, "GET", "/plugins/operations");
    expect(none.body.data.map((op) => op.id)).not.toContain("echo-entry");

    const noScope = await manage<Err>(await credential(s, ["content:read"]), "GET", "/plugins/operations");
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe("insufficient_scope");
  });

  it("a site operation needs site:plugins and a destructive one update, from the creator now", async () => {
    const { s, entries } = await setup();
    const token = await credential(s, ["content:read", "content:trash", "plugins:use"]);
    await changeAdminRole(s, () => ({ models: { "*": ALL_MODEL_OPERATIONS.filter((op) => op !== "update" && op !== "update:own") }, system: ALL_SYSTEM_PERMISSIONS.filter((p) => p !== "site:plugins") }));
    const ids = (await manage<{ data: Op[] }>(token, "GET", "/plugins/operations")).body.data.map((op) => op.id);
    expect(ids).toEqual(["echo-entry"]);
    const archive = await invoke<Err>(token, "ops", "echo-archive", { instance_id: entries.article });
    expect(archive.status).toBe(404);
    expect(archive.body.error.code).toBe("operation_unavailable");
    const siteOp = await invoke<Err>(token, "ops", "echo");
    expect(siteOp.status).toBe(404);
    expect(siteOp.body.error.code).toBe("operation_unavailable");
  });
});

describe("management API: running a plugin operation (rule 13)", () => {
  it("calls the plugin with only a signed one-time code, answers the validated blocks and audits digests", async () => {
    const { s, plugin, path, entries } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const run = await invoke<Completed>(token, plugin.id, "echo-entry", { instance_id: entries.article, input: { max_words: 12 } });
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      outcome: "completed",
      result: {
        blocks: [
          { type: "text", text: "ran echo-entry" },
          { type: "rows", columns: ["key", "value"], rows: [["instance_id", entries.article]] },
          { type: "links", links: [{ label: "Docs", url: "https://plugins.example.test/docs" }] },
          { type: "json", value: { input: { max_words: 12 } } },
        ],
      },
    });
    const [call] = await pluginCalls(`${path}/operations/echo-entry`);
    expect(call).toBeDefined();
    const sent = JSON.parse(call?.body ?? "{}") as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(["code", "code_expires_at", "input", "installation_id", "instance_id", "kind", "operation", "scope"]);
    expect(sent).toMatchObject({ kind: "operation", installation_id: plugin.id, operation: "echo-entry", scope: "entry", instance_id: entries.article, input: { max_words: 12 } });
    expect(sent.code).toMatch(/^dwl_[A-Za-z0-9_-]{43}$/);
    // No credential travels: neither the management token nor the installation token.
    expect(call?.body).not.toContain(token);
    expect(call?.body).not.toContain(plugin.token);
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.headers["x-driftwood-signature"]).toBe(await expectedSignature(plugin.eventSecret ?? "", call?.headers["x-driftwood-timestamp"] ?? "", call?.body ?? ""));

    // The code is the existing launch exchange's, bound to the operation, its entry and its capabilities.
    const exchanged = await pluginCall<{ launch: unknown; capabilities: string[]; person: { id: string } }>(plugin.token, "POST", "/launch/exchange", { body: { code: sent.code } });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.data?.launch).toEqual({ kind: "operation", id: "echo-entry", instance_id: entries.article });
    expect(exchanged.body.data?.capabilities).toEqual(["content:read"]);
    expect(exchanged.body.data?.person.id).toBe(s.adminId);
    const again = await pluginCall(plugin.token, "POST", "/launch/exchange", { body: { code: sent.code } });
    expect(again.status).toBe(400);

    const audit = await env.DB.prepare("SELECT actor_id, credential_id, target_id, details FROM audit_log WHERE site_id = ? AND action = 'plugin.operation.run'").bind(s.site.id).all<{ actor_id: string; credential_id: string; target_id: string; details: string }>();
    expect(audit.results).toHaveLength(1);
    const details = JSON.parse(audit.results[0]?.details ?? "{}") as Record<string, string>;
    expect(audit.results[0]?.target_id).toBe(plugin.id);
    expect(details.input).toBe(await sha256Hex(JSON.stringify({ max_words: 12 })));
    expect(details.result).toBe(await sha256Hex(JSON.stringify(run.body.result)));
    expect(details.outcome).toBe(await sha256Hex(JSON.stringify("completed")));
    expect(audit.results[0]?.details).not.toContain("max_words");
  });

  it("checks instance_id and input before calling the plugin (400 input_invalid with issues)", async () => {
    const { s, path, entries } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const missing = await invoke<Err>(token, "ops", "echo-entry", { input: { max_words: 3 } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe("invalid_request");
    const refusedId = await invoke<Err>(token, "ops", "echo", { instance_id: entries.article });
    expect(refusedId.status).toBe(400);
    expect(refusedId.body.error.code).toBe("invalid_request");
    const bad = await invoke<Err>(token, "ops", "echo-entry", { instance_id: entries.article, input: { max_words: 0, extra: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("input_invalid");
    expect(bad.body.error.issues).toEqual([
      { path: "max_words", code: "too_small", message: "Must be at least 1." },
      { path: "extra", code: "unknown_key", message: "Unknown key." },
    ]);
    const tooBig = await invoke<Err>(token, "ops", "echo-entry", { instance_id: entries.article, input: { max_words: 101 } });
    expect(tooBig.body.error).toMatchObject({ code: "input_invalid", issues: [{ path: "max_words", code: "too_big" }] });
    const absent = await invoke<Err>(token, "ops", "echo-entry", { instance_id: entries.article });
    expect(absent.body.error).toMatchObject({ code: "input_invalid", issues: [{ path: "max_words", code: "required" }] });
    const wrongType = await invoke<Err>(token, "ops", "echo", { input: { note: 5 } });
    expect(wrongType.body.error).toMatchObject({ code: "input_invalid", issues: [{ path: "note", code: "invalid_type" }] });
    // An entry of a model the plugin is not granted, an unknown one, a stray body key.
    const otherModel = await invoke<Err>(token, "ops", "echo-entry", { instance_id: entries.author, input: { max_words: 3 } });
    expect(otherModel.status).toBe(404);
    expect(otherModel.body.error.code).toBe("operation_unavailable");
    const unknown = await invoke<Err>(token, "ops", "echo-entry", { instance_id: "ent_nope", input: { max_words: 3 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    const stray = await invoke<Err>(token, "ops", "echo", { inputs: {} });
    expect(stray.status).toBe(400);
    expect(stray.body.error.code).toBe("invalid_request");
    expect(await pluginCalls(`${path}/operations/echo-entry`)).toEqual([]);
    expect(await pluginCalls(`${path}/operations/echo`)).toEqual([]);
  });

  it("refuses an unknown operation, a disabled, uninstalled or other site's plugin", async () => {
    const { s, plugin } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const unknown = await invoke<Err>(token, "ops", "nope");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("operation_unavailable");
    const other = await setup();
    const foreign = await invoke<Err>(token, other.plugin.id, "echo");
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    await env.DB.prepare("UPDATE plugin_installations SET state = 'disabled' WHERE id = ?").bind(plugin.id).run();
    const disabled = await invoke<Err>(token, "ops", "echo");
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe("plugin_unavailable");
    expect((await manage<{ data: Op[] }>(token, "GET", "/plugins/operations")).body.data.filter((op) => op.installation_id === plugin.id)).toEqual([]);
    await uninstallPlugin(s.ctx(), plugin.id);
    const gone = await invoke<Err>(token, "ops", "echo");
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });

  it("gives the plugin's refusal (422) and every failure its code, audited, the key freed", async () => {
    const { s } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const key = newKey();
    const refused = await invoke<Err>(token, "ops", "refuse", {}, key);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "plugin_refused", refusal: { code: "not_today", message: "Not today, thank you." } });
    // A refused run frees its key: the same key runs again (and is refused again).
    expect((await invoke<Err>(token, "ops", "refuse", {}, key)).body.error.code).toBe("plugin_refused");
    for (const [operation, status, code] of [
      ["garbage", 502, "plugin_response_invalid"],
      ["http-link", 502, "plugin_response_invalid"],
      ["crash", 502, "plugin_response_invalid"],
      ["text-only", 502, "plugin_response_invalid"],
      ["gateway", 502, "plugin_unreachable"],
    ] as const) {
      const res = await invoke<Err>(token, "ops", operation);
      expect([operation, res.status, res.body.error.code]).toEqual([operation, status, code]);
    }
    const audits = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action = 'plugin.operation.run'").bind(s.site.id).first<{ n: number }>();
    expect(audits?.n).toBe(7);
  });

  it("gives up after the 5000 ms remote call timeout (504 plugin_timeout)", async () => {
    const { s } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const started = Date.now();
    const slow = await invoke<Err>(token, "ops", "slow");
    expect(slow.status).toBe(504);
    expect(slow.body.error).toMatchObject({ code: "plugin_timeout", timeout_ms: 5000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  });
});

describe("management API: operation idempotency (rule 4)", () => {
  it("replays a completed run, refuses the key for another body, and a running one is invocation_in_progress", async () => {
    const { s, path, plugin } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const key = newKey();
    const first = await invoke<Completed>(token, "ops", "echo", { input: { note: "hi" } }, key);
    expect(first.status).toBe(200);
    const replay = await invoke<Completed>(token, "ops", "echo", { input: { note: "hi" } }, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...first.body, replayed: true });
    expect(await pluginCalls(`${path}/operations/echo`)).toHaveLength(1);
    const reused = await invoke<Err>(token, "ops", "echo", { input: { note: "other" } }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");

    const waitKey = newKey();
    const [a, b] = await Promise.all([
      invoke<Completed>(token, "ops", "wait", {}, waitKey),
      new Promise((resolve) => setTimeout(resolve, 500)).then(() => invoke<Err>(token, "ops", "wait", {}, waitKey)),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(409);
    expect(b.body.error.code).toBe("invocation_in_progress");
    expect(await pluginCalls(`${path}/operations/wait`)).toHaveLength(1);

    // A replay is checked like a new run: an operation no longer offered is 404, not replayed.
    await env.DB.prepare("UPDATE plugin_installations SET granted_capabilities = '[\"workflow:read\"]' WHERE id = ?").bind(plugin.id).run();
    const stale = await invoke<Err>(token, "ops", "echo", { input: { note: "hi" } }, key);
    expect(stale.status).toBe(404);
    expect(stale.body.error.code).toBe("operation_unavailable");
  });
});
