import { workerFetch } from "./worker";

/** The remote MCP address on a host (any site host answers; the site comes from the credential). */
export const mcpUrl = (host: string) => `http://${host}/api/manage/mcp`;

export interface McpHttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null when the answer has none. */
  body: T;
  text: string;
}

/** One raw POST (or other method) to the MCP address. */
export async function mcpFetch<T = unknown>(
  host: string,
  token: string | null,
  options: { method?: string; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> } = {},
): Promise<McpHttpResult<T>> {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream", ...(options.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method: options.method ?? "POST", headers };
  if (options.body !== undefined || options.rawBody !== undefined) {
    headers["content-type"] ??= "application/json";
    init.body = options.rawBody ?? JSON.stringify(options.body);
  }
  const response = await workerFetch(mcpUrl(host), init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T, text };
}

export interface RpcAnswer<R = unknown> {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: R;
  error?: { code: number; message: string; data?: unknown };
}

let ids = 0;

/** A JSON-RPC request (with a fresh id) and its answer. */
export async function rpc<R = unknown>(host: string, token: string | null, method: string, params?: Record<string, unknown>, headers?: Record<string, string>): Promise<McpHttpResult<RpcAnswer<R>>> {
  const id = ++ids;
  return mcpFetch<RpcAnswer<R>>(host, token, { body: { jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }, ...(headers ? { headers } : {}) });
}

/** A tool as tools/list describes it. */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties?: boolean };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** tools/list's tools (fails the test on a JSON-RPC error). */
export async function listTools(host: string, token: string): Promise<ListedTool[]> {
  const res = await rpc<{ tools: ListedTool[] }>(host, token, "tools/list");
  if (res.status !== 200 || !res.body.result) throw new Error(`tools/list failed: ${res.status} ${res.text}`);
  return res.body.result.tools;
}

/** A tool call's result. */
export interface ToolCallResult<B = unknown> {
  content: { type: string; text: string }[];
  structuredContent: { status: number; idempotency_key?: string; body: B };
  isError: boolean;
}

/** tools/call: the whole HTTP answer (a JSON-RPC error stays visible in `body.error`). */
export function callTool<B = unknown>(host: string, token: string, name: string, args?: Record<string, unknown>): Promise<McpHttpResult<RpcAnswer<ToolCallResult<B>>>> {
  return rpc<ToolCallResult<B>>(host, token, "tools/call", { name, ...(args ? { arguments: args } : {}) });
}

/** tools/call's result; fails the test on a JSON-RPC error. Checks the text mirrors structuredContent. */
export async function toolResult<B = unknown>(host: string, token: string, name: string, args?: Record<string, unknown>): Promise<ToolCallResult<B>> {
  const res = await callTool<B>(host, token, name, args);
  const result = res.body.result;
  if (res.status !== 200 || !result) throw new Error(`tools/call ${name} failed: ${res.status} ${res.text}`);
  if (JSON.stringify(JSON.parse(result.content[0]?.text ?? "null")) !== JSON.stringify(result.structuredContent)) throw new Error("text content does not mirror structuredContent");
  return result;
}
