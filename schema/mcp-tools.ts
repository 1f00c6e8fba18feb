import { toJsonSchema } from "@valibot/to-json-schema";
import type { AnySchema, RouteSpec, Surface } from "./contract";
import { isWholeNumberPath } from "./whole-number-path";

/**
 * The MCP tools of the management API, computed from its route table (docs/mcp.md): one tool per
 * operation, named in snake case of its operation id, whose arguments are the path parameters,
 * the query parameters and the body's fields side by side, with input JSON Schema from the same
 * valibot schemas the router parses with. Nothing here is written by hand per operation.
 */

type Json = Record<string, unknown>;

/** Largest tool name (spec 2, "Command line and MCP"). */
export const MAX_TOOL_NAME = 64;

/** The argument of a write tool naming its Idempotency-Key (generated when absent). */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

/** MCP tool annotations (2025-03-26 and later). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool as `tools/list` describes it. */
export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  outputSchema: Json;
  annotations: ToolAnnotations;
}

/** A management operation as a tool: its description and where each argument goes. */
export interface OperationTool {
  description: ToolDescription;
  route: RouteSpec;
  /** Path parameter names, in path order. */
  params: string[];
  /** The path parameters declared as whole numbers (schema/whole-number-path.ts): a call may give them as JSON numbers. */
  wholeNumberParams: string[];
  /** Query parameter names. */
  query: string[];
  /** Body field names (every other argument is sent in the body, where a closed schema refuses it). */
  body: string[];
  /** Whether the tool takes `idempotency_key` (a write that needs an Idempotency-Key). */
  keyed: boolean;
}

/** Operations that are not tools on the remote MCP server, and why (none today: uploads are tools). */
export interface OmittedOperation {
  operationId: string;
  reason: "binary_answer";
}

/** An upload tool's file: its bytes in base64 (spec 2: remote MCP upload), and its name. */
export const CONTENT_ARGUMENT = "content_base64";
export const FILE_NAME_ARGUMENT = "file_name";
/** Spec 2 Limits: remote MCP upload, at most 8 MiB decoded. */
export const MCP_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

/** `publishEntry` → `publish_entry`; `getURLInfo` → `get_url_info`. */
export function toolName(operationId: string): string {
  return operationId
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** What every tool call answers in `structuredContent` (spec 2: `{ status, idempotency_key?, body }`). */
export const TOOL_OUTPUT_SCHEMA: Json = {
  type: "object",
  properties: {
    status: { type: "integer", description: "The HTTP status the same request answers with" },
    idempotency_key: { type: "string", description: "The Idempotency-Key the write used (send it again to retry safely)" },
    body: { description: "The HTTP answer's body: the resource, or { error: { code, message, … } } on a refusal" },
  },
  required: ["status", "body"],
};

function objectSchema(schema: AnySchema | undefined): { properties: Record<string, Json>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const json = toJsonSchema(schema, { target: "draft-2020-12", typeMode: "input", errorMode: "ignore" }) as Json;
  if (json.type !== "object" || typeof json.properties !== "object" || json.properties === null) {
    throw new Error("an MCP tool's path, query and body schemas must be objects");
  }
  return { properties: json.properties as Record<string, Json>, required: (json.required ?? []) as string[] };
}

/** The names of an object schema's entries declared by `WholeNumberPath`. */
function wholeNumberEntries(schema: AnySchema | undefined): string[] {
  const entries = schema && "entries" in schema ? (schema.entries as Record<string, unknown>) : {};
  return Object.keys(entries).filter((name) => isWholeNumberPath(entries[name]));
}

function annotations(route: RouteSpec): ToolAnnotations {
  const read = route.method === "get" || route.readOnly === true;
  return {
    title: route.summary,
    readOnlyHint: read,
    destructiveHint: !read && route.destructive === true,
    idempotentHint: read || route.method === "put" || route.method === "delete" || route.repeatable === true,
    // Tools act on the credential's own site, never on an open set of outside things.
    openWorldHint: false,
  };
}

/** One route as a tool; throws when two of its argument names collide (caught by the tool test). */
export function operationTool(route: RouteSpec): OperationTool {
  const params = objectSchema(route.params);
  const query = objectSchema(route.query);
  const body = objectSchema(route.body);
  const keyed = route.method !== "get" && !route.noKey;
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const take = (part: { properties: Record<string, Json>; required: string[] }, all: boolean) => {
    for (const [name, schema] of Object.entries(part.properties)) {
      if (name in properties || (keyed && name === IDEMPOTENCY_ARGUMENT)) throw new Error(`${route.operationId}: argument "${name}" is named twice`);
      const { $schema: _drop, ...clean } = schema;
      properties[name] = clean;
      if (all || part.required.includes(name)) required.push(name);
    }
  };
  take(params, true);
  take(query, false);
  take(body, false);
  // A multipart route's file part (docs/mcp.md, "Upload tools"): base64 bytes and a file name.
  if (route.multipart) {
    for (const name of [CONTENT_ARGUMENT, FILE_NAME_ARGUMENT]) if (name in properties) throw new Error(`${route.operationId}: argument "${name}" is named twice`);
    properties[CONTENT_ARGUMENT] = { type: "string", contentEncoding: "base64", description: `The file's bytes in base64 (at most ${MCP_UPLOAD_MAX_BYTES} bytes decoded)` };
    properties[FILE_NAME_ARGUMENT] = { type: "string", minLength: 1, maxLength: 255, description: "The file's name (its extension is checked against the bytes)" };
    required.push(CONTENT_ARGUMENT, FILE_NAME_ARGUMENT);
  }
  if (keyed) {
    properties[IDEMPOTENCY_ARGUMENT] = {
      type: "string",
      minLength: 1,
      maxLength: 128,
      pattern: "^[\\x21-\\x7E]+$",
      description: "Idempotency-Key of this write; generated when absent and returned as idempotency_key. Send the same key and arguments again to retry safely.",
    };
  }
  const name = toolName(route.operationId);
  return {
    route,
    params: Object.keys(params.properties),
    wholeNumberParams: wholeNumberEntries(route.params),
    query: Object.keys(query.properties),
    body: Object.keys(body.properties),
    keyed,
    description: {
      name,
      title: route.summary,
      description: `${route.summary}. ${route.method.toUpperCase()} ${route.path}${route.scope ? `; needs scope ${route.scope}` : ""}.`,
      inputSchema: { type: "object", properties, required, additionalProperties: false },
      outputSchema: TOOL_OUTPUT_SCHEMA,
      annotations: annotations(route),
    },
  };
}

/** Why an operation is not a tool, or null when it is one (uploads are tools: they take content_base64). */
export function omissionOf(route: RouteSpec): OmittedOperation["reason"] | null {
  // A binary answer (the generated backend's archive) has no place in a JSON-RPC result.
  return route.responseType !== undefined && !route.responseType.startsWith("application/json") && !route.responseType.startsWith("text/") ? "binary_answer" : null;
}

/** Every tool of a surface, by name, and the operations left out (computed once per isolate by callers). */
export function surfaceTools(surface: Surface): { tools: Map<string, OperationTool>; omitted: OmittedOperation[] } {
  const tools = new Map<string, OperationTool>();
  const omitted: OmittedOperation[] = [];
  for (const route of surface.routes) {
    const reason = omissionOf(route);
    if (reason) {
      omitted.push({ operationId: route.operationId, reason });
      continue;
    }
    const tool = operationTool(route);
    if (tools.has(tool.description.name)) throw new Error(`two operations make the tool ${tool.description.name}`);
    if (tool.description.name.length > MAX_TOOL_NAME) throw new Error(`tool name ${tool.description.name} is over ${MAX_TOOL_NAME} characters`);
    tools.set(tool.description.name, tool);
  }
  return { tools, omitted };
}
