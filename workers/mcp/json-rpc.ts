/**
 * JSON-RPC 2.0 as the remote MCP server speaks it (docs/mcp.md): one message per POST, one JSON
 * answer. Only the shapes and the standard error codes live here.
 */

export type RpcId = string | number;

/** Standard JSON-RPC error codes. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** What one POST body turned out to be. */
export type Incoming =
  | { kind: "request"; id: RpcId; method: string; params: Record<string, unknown> }
  /** A notification, or a client's answer to a server request (this server sends none): 202. */
  | { kind: "no_reply" }
  | { kind: "batch" }
  | { kind: "invalid"; id: RpcId | null; message: string };

function isId(value: unknown): value is RpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** Classifies a parsed POST body. */
export function classify(message: unknown): Incoming {
  if (Array.isArray(message)) return { kind: "batch" };
  if (message === null || typeof message !== "object") return { kind: "invalid", id: null, message: "A JSON-RPC message is an object." };
  const m = message as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", id, message: 'A JSON-RPC message carries "jsonrpc": "2.0".' };
  if (typeof m.method === "string") {
    if (!("id" in m)) return { kind: "no_reply" };
    if (!isId(m.id)) return { kind: "invalid", id: null, message: "A request id is a string or a number." };
    if (m.params !== undefined && (m.params === null || typeof m.params !== "object" || Array.isArray(m.params))) {
      return { kind: "invalid", id, message: "params is an object." };
    }
    return { kind: "request", id: m.id, method: m.method, params: (m.params ?? {}) as Record<string, unknown> };
  }
  if ("id" in m && ("result" in m || "error" in m)) return { kind: "no_reply" };
  return { kind: "invalid", id, message: "Neither a request, a notification nor a response." };
}

/** A JSON-RPC answer as a Response (always application/json, never stored). */
export function rpcResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

export function rpcResult(id: RpcId, result: unknown): Response {
  return rpcResponse({ jsonrpc: "2.0", id, result });
}

export function rpcError(id: RpcId | null, code: number, message: string, status = 200, data?: unknown): Response {
  return rpcResponse({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } }, status);
}

/** A JSON-RPC error a method handler throws; the transport renders it for the request's id. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}
