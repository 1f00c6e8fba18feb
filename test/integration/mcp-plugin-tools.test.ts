import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { manageSurface } from "../../schema/manage-api";
import * as lifecycle from "../../shared/services/lifecycle";
import { CORE_TOOL_NAMES, planPluginTools, pluginToolName, type PluginLaunchTarget } from "../../shared/services/plugins/tools";
import { transitionInstallation } from "../../shared/services/plugins/installations";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool, listTools, toolResult } from "../helpers/mcp";
import { installTestPlugin, testManifest } from "../helpers/plugins";

/**
 * Plugin tools of the remote MCP server (docs/mcp.md, "Plugin tools"): a tool per manage view
 * and content action of an active plugin, `plugin_<plugin id>_view_<id>` / `_action_<id>`; names
 * shared by two launches, equal to a core tool, or over 64 characters are tools for none, and the
 * plugin list's `mcp_tool.omitted_because` says why. Calling one creates the launch.
 */

type Err = { error: { code: string } };
type Launch = { outcome: string; url: string; single_use: boolean };
type Listed = { data: { plugin_id: string; mcp_tool?: { omitted_because: string | null } }[] };

const LONG_ID = `p${"a".repeat(55)}`;

async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const modelIds = [models.article.id];
  const helper = await installTestPlugin(s, { manifest: testManifest(), modelIds });
  // "ab-view" view "x" and "ab" view "view-x" both make plugin_ab_view_view_x.
  await installTestPlugin(s, { manifest: testManifest({ id: "ab-view", name: "AB View", manage_views: [{ id: "x", label: "X", path: "/x" }], content_actions: [] }), modelIds });
  await installTestPlugin(s, {
    manifest: testManifest({ id: "ab", name: "AB", manage_views: [{ id: "view-x", label: "View X", path: "/vx" }], content_actions: [{ id: "ok", label: "OK", path: "/ok" }] }),
    modelIds,
  });
  await installTestPlugin(s, { manifest: testManifest({ id: LONG_ID, name: "Long", content_actions: [] }), modelIds });
  await installTestPlugin(s, { manifest: testManifest({ id: "sleepy", name: "Sleepy" }), modelIds, state: "disabled" });
  const article = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: models.article.id, fields: { title: "Hello" } }));
  return { s, helper, article: article.instance_id };
}

describe("remote MCP: plugin tools", () => {
  it("lists a tool per view and action of active plugins, none for shared or too long names, and says why in the plugin list", async () => {
    const { s } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const tools = await listTools(s.host, token);
    const plugin = tools.filter((t) => t.name.startsWith("plugin_"));
    expect(plugin.map((t) => t.name)).toEqual(["plugin_helper_view_dashboard", "plugin_helper_action_review", "plugin_ab_action_ok"]);
    const view = plugin[0];
    expect(view?.inputSchema).toEqual({ type: "object", properties: {}, required: [], additionalProperties: false });
    expect(view?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(plugin[1]?.inputSchema).toMatchObject({ properties: { instance_id: { type: "string" } }, required: ["instance_id"], additionalProperties: false });

    const list = await manage<Listed>(token, "GET", "/plugins");
    const because = Object.fromEntries(list.body.data.map((p) => [p.plugin_id, p.mcp_tool?.omitted_because]));
    expect(because).toEqual({
      helper: null,
      "ab-view": "view x: name_shared (plugin_ab_view_view_x)",
      ab: "view view-x: name_shared (plugin_ab_view_view_x)",
      [LONG_ID]: `view dashboard: name_too_long (plugin_${LONG_ID}_view_dashboard)`,
      sleepy: undefined,
    });
    for (const name of ["plugin_ab_view_view_x", `plugin_${LONG_ID}_view_dashboard`, "plugin_sleepy_view_dashboard"]) {
      expect((await callTool(s.host, token, name)).body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    }
  });

  it("creates the launch when a plugin tool is called, as the launch routes do", async () => {
    const { s, article } = await setup();
    const token = await credential(s, ["content:read", "plugins:use"]);
    const view = await toolResult<Launch>(s.host, token, "plugin_helper_view_dashboard", {});
    expect(view.isError).toBe(false);
    expect(view.structuredContent.status).toBe(201);
    expect(view.structuredContent).not.toHaveProperty("idempotency_key");
    expect(view.structuredContent.body).toMatchObject({ outcome: "launch_created", single_use: true });
    expect(view.structuredContent.body.url).toMatch(/^https:\/\/plugins\.example\.test\/plugin\/views\/dashboard\?code=dwl_[A-Za-z0-9_-]{43}$/);
    const action = await toolResult<Launch>(s.host, token, "plugin_helper_action_review", { instance_id: article });
    expect(action.structuredContent.status).toBe(201);
    expect(action.structuredContent.body.url).toMatch(/^https:\/\/plugins\.example\.test\/plugin\/actions\/review\?code=dwl_/);
    const launches = await env.DB.prepare("SELECT count(*) AS n FROM plugin_launch_codes WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(launches?.n).toBe(2);
    // Refusals keep the launch route's status and code.
    const missingEntry = await toolResult<Err>(s.host, token, "plugin_helper_action_review", { instance_id: "ent_missing" });
    expect(missingEntry.structuredContent).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    for (const args of [{}, { instance_id: 5 }, { instance_id: article, extra: 1 }]) {
      const bad = await toolResult<Err>(s.host, token, "plugin_helper_action_review", args);
      expect(bad.structuredContent, JSON.stringify(args)).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    }
    expect((await toolResult<Err>(s.host, token, "plugin_helper_view_dashboard", { x: 1 })).structuredContent.status).toBe(400);
  });

  it("offers plugin tools only with plugins:use, and a disabled plugin's tools are gone on the next message", async () => {
    const { s, helper } = await setup();
    const without = await credential(s, ["content:read", "content:write"]);
    expect((await listTools(s.host, without)).filter((t) => t.name.startsWith("plugin_"))).toEqual([]);
    expect((await callTool(s.host, without, "plugin_helper_view_dashboard")).body.error?.code).toBe(-32602);
    const token = await credential(s, ["content:read", "plugins:use"]);
    expect((await listTools(s.host, token)).map((t) => t.name)).toContain("plugin_helper_view_dashboard");
    await transitionInstallation(s.ctx(), helper.id, "disable");
    expect((await listTools(s.host, token)).map((t) => t.name)).not.toContain("plugin_helper_view_dashboard");
    expect((await callTool(s.host, token, "plugin_helper_view_dashboard")).body.error).toEqual({ code: -32602, message: "Unknown tool: plugin_helper_view_dashboard" });
  });

  it("names launches lowercased with other characters as _, and omits a name equal to a core tool's", () => {
    expect(pluginToolName("my-plugin", "view", "Report.Daily")).toBe("plugin_my_plugin_view_report_daily");
    expect(pluginToolName("x1", "action", "a-b_c")).toBe("plugin_x1_action_a_b_c");
    for (const route of manageSurface.routes) expect(CORE_TOOL_NAMES.has(route.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))).toBe(true);
    const target = (plugin_id: string, kind: "view" | "action", id: string): PluginLaunchTarget => ({ installation_id: `pin_${plugin_id}`, plugin_id, plugin_name: plugin_id, kind, id, label: id });
    const plan = planPluginTools([target("aa", "view", "core"), target("aa", "action", "fine"), target("bb", "view", "x".repeat(50))], new Set(["plugin_aa_view_core"]));
    expect(plan.tools.map((t) => t.name)).toEqual(["plugin_aa_action_fine"]);
    expect(plan.omitted.map((t) => [t.name.length > 64 ? "long" : t.name, t.reason])).toEqual([
      ["plugin_aa_view_core", "name_of_core_tool"],
      ["long", "name_too_long"],
    ]);
    // Exactly 64 characters is still a tool.
    const exact = target("cc", "view", "y".repeat(64 - "plugin_cc_view_".length));
    expect(planPluginTools([exact]).tools).toHaveLength(1);
  });
});
