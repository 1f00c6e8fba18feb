import { manageSurface } from "../../../schema/manage-api";
import { MAX_TOOL_NAME, toolName } from "../../../schema/mcp-tools";

/**
 * MCP tool names of plugin launches and operations (spec 2, "Command line and MCP"; docs/mcp.md,
 * "Plugin tools"): each manage view of an active plugin is `plugin_<plugin id>_view_<id>`, each
 * content action `plugin_<plugin id>_action_<id>`, each operation `plugin_<plugin id>_op_<id>`, lowercased, every character other than a–z, 0–9 and `_` as
 * `_`. A name shared by two launches, equal to a core tool's name, or over 64 characters is a tool
 * for none of them; the plugin list's `mcp_tool.omitted_because` says why.
 */

/** `op`: a plugin operation (docs/plugin-operations.md); an `automation` operation is never one. */
export type PluginToolKind = "view" | "action" | "op";

/** Why a launch is not a tool. */
export type PluginToolOmission = "name_too_long" | "name_shared" | "name_of_core_tool";

/** A launch of an active installation, as the naming sees it. */
export interface PluginLaunchTarget {
  installation_id: string;
  plugin_id: string;
  plugin_name: string;
  kind: PluginToolKind;
  id: string;
  label: string;
}

/** A launch that is a tool. */
export interface PluginTool extends PluginLaunchTarget {
  name: string;
}

/** A launch that is no tool, with its would-be name. */
export interface OmittedPluginTool extends PluginLaunchTarget {
  name: string;
  reason: PluginToolOmission;
}

/** Every core tool name: one per management operation, uploads included (their tool comes later). */
export const CORE_TOOL_NAMES: ReadonlySet<string> = new Set(manageSurface.routes.map((route) => toolName(route.operationId)));

/** `plugin_<plugin id>_<kind>_<id>`, lowercased, other characters as `_`. */
export function pluginToolName(pluginId: string, kind: PluginToolKind, id: string): string {
  return `plugin_${pluginId}_${kind}_${id}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
}

/** Splits launches into tools and omissions; the order of the input is kept. */
export function planPluginTools(targets: readonly PluginLaunchTarget[], coreNames: ReadonlySet<string> = CORE_TOOL_NAMES): { tools: PluginTool[]; omitted: OmittedPluginTool[] } {
  const named = targets.map((target) => ({ ...target, name: pluginToolName(target.plugin_id, target.kind, target.id) }));
  const uses = new Map<string, number>();
  for (const target of named) uses.set(target.name, (uses.get(target.name) ?? 0) + 1);
  const tools: PluginTool[] = [];
  const omitted: OmittedPluginTool[] = [];
  for (const target of named) {
    const reason: PluginToolOmission | null =
      target.name.length > MAX_TOOL_NAME ? "name_too_long" : coreNames.has(target.name) ? "name_of_core_tool" : (uses.get(target.name) ?? 0) > 1 ? "name_shared" : null;
    if (reason) omitted.push({ ...target, reason });
    else tools.push(target);
  }
  return { tools, omitted };
}

/**
 * `mcp_tool.omitted_because` of one installation: null when every launch it offers is a tool,
 * else one `<kind> <id>: <reason> (<name>)` per omitted launch, joined by "; ".
 */
export function omittedBecause(installationId: string, omitted: readonly OmittedPluginTool[]): string | null {
  const own = omitted.filter((item) => item.installation_id === installationId);
  if (own.length === 0) return null;
  return own.map((item) => `${item.kind} ${item.id}: ${item.reason} (${item.name})`).join("; ");
}
