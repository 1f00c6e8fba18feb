import { authenticateManagement, type ManagementAuth } from "../../shared/auth/management-authority";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { parseJsonWithinDepth } from "../../shared/json/parse-json";
import { MANAGE_BODY_MAX_BYTES, readCappedText } from "../http/json-body";
import { MCP_UPLOAD_MAX_BYTES } from "../../schema/mcp-tools";

/**
 * One JSON-RPC message: the management API's 1 MiB, or an upload tool's call — 8 MiB of file as
 * base64 (4/3 of it) plus its other arguments (docs/mcp.md, "Upload tools").
 */
export const MCP_BODY_MAX_BYTES = Math.max(MANAGE_BODY_MAX_BYTES, Math.ceil(MCP_UPLOAD_MAX_BYTES / 3) * 4 + 64 * 1024);
import { errorResponse } from "../http/respond";
import { methodNotAllowed } from "../http/route-table";
import { credentialAuthority, refuseNamedSite, takeManageRate } from "../manage/router";
import { adminOrigin, requestOrigin } from "../oauth/origin";
import { PROTECTED_RESOURCE_METADATA } from "../oauth/router";
import { classify, RPC, rpcError, RpcError, rpcResult, type RpcId } from "./json-rpc";
import { callTool, listTools } from "./tools";

/**
 * The remote MCP server, `POST /api/manage/mcp` (spec 2, "Remote MCP rules"; docs/mcp.md):
 * Streamable HTTP without sessions or streams. Each POST carries one JSON-RPC message and gets one
 * JSON answer. Order of checks: method (405) → Origin (403) → MCP-Protocol-Version (400) →
 * credential, re-read every message (401 with WWW-Authenticate) → rate limit, once per POST (429)
 * → body (413, 415) → UTF-8 and JSON (-32700) → message (batch and invalid: -32600; notification: 202).
 */

export const MCP_PATH = "/api/manage/mcp";

/** Protocol versions served, newest first; `initialize` answers the client's if listed, else the newest. */
export const MCP_VERSIONS = ["2025-06-18", "2025-03-26"] as const;

/**
 * The version assumed when a request carries no MCP-Protocol-Version header: the MCP
 * specification's backwards-compatibility rule (2025-06-18, "Protocol Version Header"). Nothing
 * served differs between the two versions, so it only documents what a client gets.
 */
export const MCP_DEFAULT_VERSION = "2025-03-26";

const SERVER_INFO = { name: "driftwood-management", title: "Driftwood management API", version: "1" };

const INSTRUCTIONS =
  "Tools manage one site (the credential's): one tool per management API operation, named in snake case of its operation id. Write tools take an optional idempotency_key and answer the key used; send the same key and arguments again to retry safely. Each answer is { status, idempotency_key?, body }, the HTTP API's status and body.";

function isVersion(value: string): value is (typeof MCP_VERSIONS)[number] {
  return (MCP_VERSIONS as readonly string[]).includes(value);
}

/**
 * Same origin: the Origin header, when a browser sends one, equals the origin the request was sent
 * to (scheme, host and port of its URL, that is its Host header). No Origin header is a client
 * that is not a browser page (the SDK, the CLI, curl); `Origin: null` (sandboxed or opaque pages)
 * is another origin.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  return origin === null || origin === new URL(request.url).origin;
}

/**
 * 401 with the pointer an MCP client follows to connect (RFC 9728 protected-resource metadata): on
 * the host the client called, whose metadata answers on every host (workers/oauth/router.ts); a
 * Host that is no plain host name gives the admin host's.
 */
function unauthenticated(error: AppError, request: Request, env: Env): Response {
  const response = errorResponse(error);
  const metadata = `${requestOrigin(request) ?? adminOrigin(request, env)}${PROTECTED_RESOURCE_METADATA}`;
  response.headers.set("www-authenticate", `Bearer error="invalid_token", resource_metadata="${metadata}"`);
  return response;
}

async function authenticate(request: Request, env: Env): Promise<ManagementAuth | Response> {
  try {
    return await authenticateManagement(env.DB, request);
  } catch (thrown) {
    if (thrown instanceof AppError && thrown.code === "unauthorized") return unauthenticated(thrown, request, env);
    throw thrown;
  }
}

/** One POST to the MCP address. AppErrors thrown here are rendered by the router's envelope. */
export async function handleMcp(request: Request, env: Env): Promise<Response> {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  if (!isSameOrigin(request)) throw new AppError("cross_origin_refused", "A browser page of another origin may not call the MCP address.");
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !isVersion(version)) {
    return rpcError(null, RPC.invalidRequest, `Unsupported MCP-Protocol-Version; this server speaks ${MCP_VERSIONS.join(" and ")}.`, 400, { supported: [...MCP_VERSIONS] });
  }
  refuseNamedSite(request);
  const auth = await authenticate(request, env);
  if (auth instanceof Response) return auth;
  await takeManageRate(env, credentialAuthority(auth));

  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return rpcError(null, RPC.invalidRequest, "Send the JSON-RPC message as application/json.", 415);
  let text: string;
  try {
    text = await readCappedText(request, MCP_BODY_MAX_BYTES, undefined, () => new RpcError(RPC.parseError, "Parse error: the body is not valid UTF-8."));
  } catch (thrown) {
    if (thrown instanceof RpcError) return rpcError(null, thrown.code, thrown.message, 400);
    throw thrown;
  }
  let parsed: unknown;
  try {
    parsed = parseJsonWithinDepth(text);
  } catch {
    return rpcError(null, RPC.parseError, "Parse error: the body is not JSON (or nests too deep).", 400);
  }
  const message = classify(parsed);
  switch (message.kind) {
    case "batch":
      return rpcError(null, RPC.invalidRequest, "Batches are not accepted: send one JSON-RPC message per POST.", 400);
    case "invalid":
      return rpcError(message.id, RPC.invalidRequest, message.message, 400);
    case "no_reply":
      return new Response(null, { status: 202 });
    case "request":
      return answer(env, auth, request, message.id, message.method, message.params);
  }
}

async function answer(env: Env, auth: ManagementAuth, request: Request, id: RpcId, method: string, params: Record<string, unknown>): Promise<Response> {
  try {
    switch (method) {
      case "initialize": {
        const asked = typeof params.protocolVersion === "string" ? params.protocolVersion : "";
        return rpcResult(id, {
          protocolVersion: isVersion(asked) ? asked : MCP_VERSIONS[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: SERVER_INFO,
          instructions: INSTRUCTIONS,
        });
      }
      case "ping":
        return rpcResult(id, {});
      case "tools/list":
        return rpcResult(id, { tools: await listTools(env, auth) });
      case "tools/call":
        return rpcResult(id, await callTool(env, auth, new URL(request.url).origin, params));
      default:
        return rpcError(id, RPC.methodNotFound, `Method not found: ${method}`);
    }
  } catch (thrown) {
    if (thrown instanceof RpcError) return rpcError(id, thrown.code, thrown.message, 200, thrown.data);
    throw thrown;
  }
}
