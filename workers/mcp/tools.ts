import { manageSurface } from "../../schema/manage-api";
import { IDEMPOTENCY_ARGUMENT, surfaceTools, toolName, TOOL_OUTPUT_SCHEMA, type OperationTool, type ToolDescription } from "../../schema/mcp-tools";
import { isScope } from "../../schema/scopes";
import { hasScope, managementContext, type ManagementAuth } from "../../shared/auth/management-authority";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { pluginToolPlan } from "../../shared/services/plugins/catalog";
import type { CallablePluginTool } from "../../shared/services/plugins/catalog";
import { errorResponse, renderThrown } from "../http/respond";
import { isIdempotencyKey } from "../manage/idempotency-key";
import { credentialAuthority, dispatchManage, MANAGE_BASE } from "../manage/router";
import { RPC, RpcError } from "./json-rpc";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import { uploadForm } from "./upload-tool";

/**
 * `tools/list` and `tools/call` of the remote MCP server (docs/mcp.md). Core tools come from the
 * management route table (schema/mcp-tools.ts), computed once per isolate; plugin tools from the
 * site's active plugins, re-read on every message. A call becomes a request for the tool's route
 * and runs through the management API's own dispatch (scope, Idempotency-Key, closed schemas,
 * handler, audit, conflicts), so a tool answers exactly what HTTP answers.
 */

let coreTools: ReturnType<typeof surfaceTools> | undefined;

/** The core tools by name, and the operations left out (computed once per isolate). */
export function managementTools(): ReturnType<typeof surfaceTools> {
  coreTools ??= surfaceTools(manageSurface);
  return coreTools;
}

/** The core tool of a launch route (plugin tools call it with the installation id). */
function launchTool(operationId: string): OperationTool {
  const tool = managementTools().tools.get(toolName(operationId));
  if (!tool) throw new Error(`no tool for ${operationId}`);
  return tool;
}

function allowed(auth: ManagementAuth, scope: string | undefined): boolean {
  return scope === undefined || (isScope(scope) && hasScope(auth, scope));
}

const INSTANCE_ID = { type: "string", minLength: 1, maxLength: 100, description: "The entry (language instance) to run the action on" };

/**
 * An operation's tool (docs/mcp.md, "Plugin tools"): arguments `instance_id` (entry operations),
 * `input` (the operation's `input_schema`) and `idempotency_key`; `destructiveHint` always given,
 * `false` for a non-destructive operation (MCP clients take an absent hint as `true`).
 */
function operationDescription(tool: CallablePluginTool, operation: NonNullable<CallablePluginTool["operation"]>): ToolDescription {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  if (operation.scope === "entry") {
    properties.instance_id = { ...INSTANCE_ID, description: "The entry (language instance) to run the operation on" };
    required.push("instance_id");
  }
  if (operation.input !== "none") {
    properties.input = { ...operation.input_schema, description: "The operation's input" };
    if (operation.input === "required") required.push("input");
  }
  properties[IDEMPOTENCY_ARGUMENT] = { type: "string", minLength: 1, maxLength: 128, description: "Idempotency-Key of the run; a retry with the same key and arguments answers the first run" };
  const title = `${tool.plugin_name}: ${tool.label}`;
  return {
    name: tool.name,
    title,
    description: `Runs the ${operation.destructive ? "destructive " : ""}${operation.scope} operation "${tool.label}" of the plugin ${tool.plugin_name} (${tool.plugin_id}) and answers its result blocks (text, rows, links, json).`,
    inputSchema: { type: "object", properties, required, additionalProperties: false },
    outputSchema: TOOL_OUTPUT_SCHEMA,
    annotations: { title, readOnlyHint: false, destructiveHint: operation.destructive, idempotentHint: false, openWorldHint: true },
  };
}

function pluginDescription(tool: CallablePluginTool): ToolDescription {
  if (tool.operation) return operationDescription(tool, tool.operation);
  const what = tool.kind === "view" ? `Opens the manage view "${tool.label}"` : `Runs the content action "${tool.label}" on an entry`;
  return {
    name: tool.name,
    title: `${tool.plugin_name}: ${tool.label}`,
    description: `${what} of the plugin ${tool.plugin_name} (${tool.plugin_id}): answers a one-time launch link (valid 60 s) to open.`,
    inputSchema:
      tool.kind === "view"
        ? { type: "object", properties: {}, required: [], additionalProperties: false }
        : { type: "object", properties: { instance_id: INSTANCE_ID }, required: ["instance_id"], additionalProperties: false },
    outputSchema: TOOL_OUTPUT_SCHEMA,
    annotations: { title: `${tool.plugin_name}: ${tool.label}`, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  };
}

/** The plugin tools the credential sees: only with plugins:use; operations only those it may run now. */
async function pluginTools(env: Env, auth: ManagementAuth): Promise<CallablePluginTool[]> {
  if (!hasScope(auth, "plugins:use")) return [];
  const viewer = { scopes: auth.credential.scopes, model_ids: auth.credential.model_ids };
  return (await pluginToolPlan(managementContext(await siteScopedDatabase(env, auth.site.id), auth), viewer)).tools;
}

/** `tools/list`: the tools the credential's scopes allow, core tools in route-table order, then plugin tools. */
export async function listTools(env: Env, auth: ManagementAuth): Promise<ToolDescription[]> {
  const core = [...managementTools().tools.values()].filter((tool) => allowed(auth, tool.route.scope)).map((tool) => tool.description);
  return [...core, ...(await pluginTools(env, auth)).map(pluginDescription)];
}

/** A tool call's result (CallToolResult), `structuredContent` mirrored as JSON text. */
export interface ToolResult {
  content: { type: "text"; text: string }[];
  structuredContent: { status: number; idempotency_key?: string; body: unknown };
  isError: boolean;
}

function result(status: number, body: unknown, key: string | undefined): ToolResult {
  const structuredContent = { status, ...(key === undefined ? {} : { idempotency_key: key }), body };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent, isError: status >= 400 };
}

/** A refusal decided before the request is built, in the same envelope HTTP would answer with. */
async function refusal(error: AppError, key: string | undefined): Promise<ToolResult> {
  return result(error.status, await errorResponse(error).json(), key);
}

function queryValues(name: string, value: unknown): string[] | AppError {
  const one = (v: unknown) => (typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : null);
  const all = Array.isArray(value) ? value.map(one) : [one(value)];
  if (all.some((v) => v === null)) return new AppError("invalid_request", `Argument ${name} is a string (or a list of strings).`, { argument: name });
  return all as string[];
}

/**
 * Runs one operation as a tool: arguments → path, query, body and Idempotency-Key of a request
 * for the route on the same origin → the management dispatch (no second authentication or rate
 * count: the POST carrying the call was counted once) → `{ status, idempotency_key?, body }`.
 */
export async function callOperation(env: Env, auth: ManagementAuth, origin: string, tool: OperationTool, args: Record<string, unknown>): Promise<ToolResult> {
  const route = tool.route;
  let key: string | undefined;
  if (tool.keyed) {
    const given = args[IDEMPOTENCY_ARGUMENT];
    if (given !== undefined && !isIdempotencyKey(given)) {
      return refusal(new AppError("invalid_request", "An idempotency_key is 1 to 128 visible ASCII characters without spaces.", { argument: IDEMPOTENCY_ARGUMENT }), undefined);
    }
    key = given ?? `mcp-${crypto.randomUUID()}`;
  }
  let path = route.path;
  for (const name of tool.params) {
    // A path parameter declared a whole number (an upload's `part`; schema/whole-number-path.ts)
    // also takes a JSON number (`part: 1` for `part: "1"`): agents send numbers for what reads as a
    // number. Ids stay strings — a number there is a wrong argument (400), not an id to look up.
    const given = args[name];
    const value = tool.wholeNumberParams.includes(name) && typeof given === "number" && Number.isSafeInteger(given) && given >= 0 ? String(given) : given;
    if (typeof value !== "string" || value.length === 0) return refusal(new AppError("invalid_request", `Argument ${name} is a non-empty string.`, { argument: name }), key);
    // "." and ".." survive encodeURIComponent and a URL resolves them as dot segments, which would
    // reach another route (`/versions/../restore`); "%2e" forms are dot segments too.
    if (/^(?:\.|%2e){1,2}$/i.test(value)) return refusal(new AppError("invalid_request", `Argument ${name} may not be "." or "..".`, { argument: name }), key);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const search = new URLSearchParams();
  // No prototype: an argument named "__proto__" becomes a body key the closed schema refuses.
  const body: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(args)) {
    if (tool.params.includes(name) || (tool.keyed && name === IDEMPOTENCY_ARGUMENT) || value === undefined) continue;
    if (tool.query.includes(name)) {
      const values = queryValues(name, value);
      if (values instanceof AppError) return refusal(values, key);
      for (const v of values) search.append(name, v);
    } else if (route.method === "get") {
      return refusal(new AppError("invalid_request", `Unknown argument: ${name}.`, { argument: name }), key);
    } else {
      // Unknown names go to the body too, where the closed schema refuses them as HTTP does.
      body[name] = value;
    }
  }
  const headers = new Headers();
  const init: RequestInit = { method: route.method.toUpperCase(), headers };
  if (route.multipart) {
    // An upload tool: the same multipart/form-data request the HTTP route reads (upload-tool.ts).
    const form = uploadForm(tool, args);
    if (form instanceof AppError) return refusal(form, key);
    init.body = form;
  } else if (route.method !== "get") {
    headers.set("content-type", "application/json");
    init.body = JSON.stringify(body);
  }
  if (key !== undefined) headers.set("idempotency-key", key);
  const qs = search.toString();
  const request = new Request(`${origin}${MANAGE_BASE}${path}${qs ? `?${qs}` : ""}`, init);
  let response: Response;
  try {
    response = await dispatchManage(request, env, credentialAuthority(auth));
  } catch (thrown) {
    response = renderThrown(thrown, crypto.randomUUID());
  }
  const text = await response.text();
  const isJson = (response.headers.get("content-type") ?? "").includes("json");
  return result(response.status, text.length === 0 ? null : isJson ? JSON.parse(text) : text, key);
}

/** `tools/call`: a tool the credential sees now, else JSON-RPC -32602 Unknown tool. */
export async function callTool(env: Env, auth: ManagementAuth, origin: string, params: Record<string, unknown>): Promise<ToolResult> {
  const { name, arguments: given } = params;
  if (typeof name !== "string") throw new RpcError(RPC.invalidParams, "tools/call needs a tool name.");
  if (given !== undefined && (given === null || typeof given !== "object" || Array.isArray(given))) throw new RpcError(RPC.invalidParams, "arguments is an object.");
  const args = (given ?? {}) as Record<string, unknown>;
  const core = managementTools().tools.get(name);
  if (core && allowed(auth, core.route.scope)) return callOperation(env, auth, origin, core, args);
  if (name.startsWith("plugin_")) {
    const plugin = (await pluginTools(env, auth)).find((tool) => tool.name === name);
    if (plugin) return callPluginTool(env, auth, origin, plugin, args);
  }
  throw new RpcError(RPC.invalidParams, `Unknown tool: ${name}`);
}

/**
 * A plugin tool creates the launch as the launch routes do, by installation id; an operation tool
 * runs the operation through its route (`invokePluginOperation`), so it answers what HTTP answers.
 */
function callPluginTool(env: Env, auth: ManagementAuth, origin: string, tool: CallablePluginTool, args: Record<string, unknown>): Promise<ToolResult> {
  if (tool.operation) {
    const { instance_id, input, [IDEMPOTENCY_ARGUMENT]: key, ...rest } = args;
    const stray = Object.keys(rest)[0];
    if (stray !== undefined) return refusal(new AppError("invalid_request", `Unknown argument: ${stray}.`, { argument: stray }), undefined);
    return callOperation(env, auth, origin, launchTool("invokePluginOperation"), { id: tool.installation_id, operation: tool.id, instance_id, input, [IDEMPOTENCY_ARGUMENT]: key });
  }
  const extra = Object.keys(args).filter((name) => !(tool.kind === "action" && name === "instance_id"));
  if (extra.length > 0) return refusal(new AppError("invalid_request", `Unknown argument: ${extra[0]}.`, { argument: extra[0] }), undefined);
  if (tool.kind === "view") return callOperation(env, auth, origin, launchTool("launchPluginManageView"), { id: tool.installation_id, view: tool.id });
  return callOperation(env, auth, origin, launchTool("launchPluginContentAction"), { id: tool.installation_id, action: tool.id, instance_id: args.instance_id });
}
