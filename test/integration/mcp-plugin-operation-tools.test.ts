import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool, listTools, toolResult } from "../helpers/mcp";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * Operation tools of the remote MCP server (spec 2, "Command line and MCP"; docs/mcp.md, "Plugin
 * tools"): `plugin_<plugin id>_op_<id>` for each operation the credential may run now, never an
 * automation one; `destructiveHint` always explicit; a call runs the operation as HTTP does.
 */

type Listed = { data: { plugin_id: string; mcp_tool?: { omitted_because: string | null } }[] };
type Completed = { outcome: string; result: { blocks: { type: string }[] }; replayed?: boolean };

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const { endpoint, path } = freshEndpoint();
  const op = (id: string, extra: Record<string, unknown> = {}) => ({ id, label: id, scope: "site", destructive: false, input_schema: { type: "object" }, capabilities: ["content:read"], ...extra });
  const manifest = testManifest({
    id: "opsy",
    name: "Opsy",
    endpoint,
    manage_views: [],
    content_actions: [],
    capabilities: ["content:read", "content:delete"],
    operations: [
      op("echo", { input_schema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] } }),
      op("echo-entry", { scope: "entry" }),
      op("echo-wipe", { scope: "entry", destructive: true, capabilities: ["content:read", "content:delete"] }),
      op("nightly", { automation: true }),
      op(`x${"y".repeat(60)}`),
    ],
  });
  const plugin = await installTestPlugin(s, { manifest, modelIds: [models.article.id] });
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Hello" } }));
  return { s, plugin, path, article: article.instance_id };
}

describe("remote MCP: plugin operation tools", () => {
  it("lists the operations the credential may run as tools with explicit destructiveHint; automation and too long names are none", async () => {
    const { s } = await setup();
    const reader = await credential(s, ["content:read", "plugins:use"]);
    const tools = (await listTools(s.host, reader)).filter((t) => t.name.startsWith("plugin_opsy_"));
    // content:read does not delegate content:delete: the destructive one is not offered.
    expect(tools.map((t) => t.name)).toEqual(["plugin_opsy_op_echo", "plugin_opsy_op_echo_entry"]);
    const [echo, entry] = tools;
    expect(echo?.annotations).toMatchObject({ destructiveHint: false, readOnlyHint: false, idempotentHint: false, openWorldHint: true });
    expect(echo?.inputSchema).toMatchObject({
      type: "object",
      properties: { input: { type: "object", properties: { note: { type: "string" } }, required: ["note"] }, idempotency_key: { type: "string" } },
      required: ["input"],
      additionalProperties: false,
    });
    expect(entry?.inputSchema).toMatchObject({ properties: { instance_id: { type: "string" } }, required: ["instance_id"] });
    expect(Object.keys((entry?.inputSchema as { properties: object }).properties)).toEqual(["instance_id", "idempotency_key"]);

    // A destructive operation needs update on the model: content:write gives it to the credential.
    const trasher = await credential(s, ["content:read", "content:write", "content:trash", "plugins:use"]);
    const wipe = (await listTools(s.host, trasher)).find((t) => t.name === "plugin_opsy_op_echo_wipe");
    expect(wipe?.annotations).toMatchObject({ destructiveHint: true });

    const list = await manage<Listed>(reader, "GET", "/plugins");
    expect(list.body.data.find((p) => p.plugin_id === "opsy")?.mcp_tool?.omitted_because).toBe(`op x${"y".repeat(60)}: name_too_long (plugin_opsy_op_x${"y".repeat(60)})`);
  });

  it("a call runs the operation as HTTP does (key, replay, refusals); a tool no longer offered is an Unknown tool", async () => {
    const { s, plugin, path, article } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const first = await toolResult<Completed>(s.host, token, "plugin_opsy_op_echo", { input: { note: "hi" }, idempotency_key: "mcp-op-1" });
    expect(first.structuredContent.status).toBe(200);
    expect(first.structuredContent.idempotency_key).toBe("mcp-op-1");
    expect(first.structuredContent.body.outcome).toBe("completed");
    const replay = await toolResult<Completed>(s.host, token, "plugin_opsy_op_echo", { input: { note: "hi" }, idempotency_key: "mcp-op-1" });
    expect(replay.structuredContent.body.replayed).toBe(true);
    expect(await pluginCalls(`${path}/operations/echo`)).toHaveLength(1);
    const invalid = await toolResult<{ error: { code: string } }>(s.host, token, "plugin_opsy_op_echo", { input: { note: 5 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ status: 400, body: { error: { code: "input_invalid" } } });
    const onEntry = await toolResult<Completed>(s.host, token, "plugin_opsy_op_echo_entry", { instance_id: article });
    expect(onEntry.structuredContent.status).toBe(200);
    const stray = await toolResult<{ error: { code: string } }>(s.host, token, "plugin_opsy_op_echo", { input: { note: "x" }, extra: 1 });
    expect(stray.structuredContent).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    const automation = await callTool(s.host, token, "plugin_opsy_op_nightly", {});
    expect(automation.body.error?.message).toBe("Unknown tool: plugin_opsy_op_nightly");

    // The grant narrowed: the tool is gone on the next message.
    await env.DB.prepare("UPDATE plugin_installations SET granted_capabilities = '[\"workflow:read\"]' WHERE id = ?").bind(plugin.id).run();
    expect((await listTools(s.host, token)).map((t) => t.name)).not.toContain("plugin_opsy_op_echo");
    const gone = await callTool(s.host, token, "plugin_opsy_op_echo", { input: { note: "hi" } });
    expect(gone.body.error?.message).toBe("Unknown tool: plugin_opsy_op_echo");
  });
});
