import { ALL_SCOPES } from "../../schema/scopes";
import { systemClock } from "../../shared/clock";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { clientAddressOf } from "../../shared/net/client-address";
import { normaliseHost } from "../../shared/repositories/site-repository";
import { exchangeAuthorizationCode, OAuthError, refreshTokens, registerClient, revokeToken } from "../../shared/services/oauth";
import { connectPage } from "../admin/connect-page";
import { isAdminHost } from "../admin/router";
import { methodNotAllowed } from "../http/route-table";
import { parseJsonText, readCappedText } from "../http/json-body";
import { json } from "../http/respond";
import { siteForRequest } from "../resolve-site";
import { adminOrigin, requestOrigin } from "./origin";

/**
 * The OAuth 2.1 surface (docs/oauth.md): discovery documents on every known host (the issuer is the
 * origin asked), client registration, the token and revocation endpoints (any host, like the
 * management API: nothing here is per site), and the `/connect` hop from a site host to the admin
 * host. Refusals use the OAuth shape `{ error, error_description }`, never the service envelope.
 */

export const OAUTH_BASE = "/api/oauth";
export const AUTHORIZATION_SERVER_METADATA = "/.well-known/oauth-authorization-server";
/** The MCP address this service protects, and its RFC 9728 metadata path. */
export const MCP_PATH = "/api/manage/mcp";
export const PROTECTED_RESOURCE_METADATA = `/.well-known/oauth-protected-resource${MCP_PATH}`;
export const CONNECT_PATH = "/connect";

/** Largest body of the registration (JSON) and of the token and revocation requests (form). */
export const OAUTH_BODY_MAX_BYTES = 16 * 1024;

/** Whether the OAuth surface answers this path (checked before the admin and public surfaces). */
export function isOAuthPath(pathname: string): boolean {
  return (
    pathname === AUTHORIZATION_SERVER_METADATA ||
    pathname === PROTECTED_RESOURCE_METADATA ||
    pathname === CONNECT_PATH ||
    pathname.startsWith(`${OAUTH_BASE}/`)
  );
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

function oauthError(error: OAuthError): Response {
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
  return json(error.toBody(), error.status, headers);
}

/** The issuer of a request: its origin, when the host is the admin host or a site's host. */
async function issuerOf(request: Request, env: Env): Promise<string> {
  const origin = requestOrigin(request);
  if (origin === null) throw new AppError("not_found", "Unknown host.");
  if (!isAdminHost(request, env) && !(await siteForRequest(request, env))) throw new AppError("not_found", "Unknown host.");
  return origin;
}

/** RFC 8414 authorization server metadata; the issuer is the origin the document was asked on. */
export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}${CONNECT_PATH}`,
    token_endpoint: `${issuer}${OAUTH_BASE}/token`,
    registration_endpoint: `${issuer}${OAUTH_BASE}/register`,
    revocation_endpoint: `${issuer}${OAUTH_BASE}/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...ALL_SCOPES],
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * RFC 9728 protected resource metadata of the remote MCP address on `origin` (the resource is the
 * address the client called), naming `authorizationServer` as the issuer to connect through.
 */
export function protectedResourceMetadata(origin: string, authorizationServer: string = origin): Record<string, unknown> {
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [authorizationServer],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ["header"],
  };
}

/**
 * The MCP address's metadata on the host asked. The MCP address answers on every host (it is
 * credential-routed: the CLI's stdio relay and SDK clients call `127.0.0.1:8787`), so its metadata
 * does too: the resource is the address on this origin, and the authorization server is this
 * origin when it is an issuer (the admin host or a site's host), else the admin host — whose
 * discovery answers, and whose connections work on every host (docs/oauth.md, "Origin and issuer").
 */
async function mcpResourceMetadata(request: Request, env: Env): Promise<Record<string, unknown>> {
  const origin = requestOrigin(request);
  if (origin === null) throw new AppError("not_found", "Unknown host.");
  const issuer = isAdminHost(request, env) || (await siteForRequest(request, env)) ? origin : adminOrigin(request, env);
  return protectedResourceMetadata(origin, issuer);
}

/** Public documents: any page may read them (no credentials involved). */
const METADATA_HEADERS = { "access-control-allow-origin": "*", "cache-control": "no-store" };

function onlyGet(request: Request): void {
  if (request.method !== "GET" && request.method !== "HEAD") throw methodNotAllowed(["GET"]);
}

/** The form parameters of a token or revocation request; a repeated parameter is refused (RFC 6749 §3.2). */
async function readForm(request: Request): Promise<Map<string, string>> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new OAuthError("invalid_request", "Send the request as application/x-www-form-urlencoded.");
  const text = await readBounded(request);
  const params = new URLSearchParams(text);
  const out = new Map<string, string>();
  for (const [name, value] of params) {
    if (out.has(name)) throw new OAuthError("invalid_request", `The parameter ${name} is repeated.`);
    out.set(name, value);
  }
  return out;
}

async function readBounded(request: Request): Promise<string> {
  return readCappedText(
    request,
    OAUTH_BODY_MAX_BYTES,
    (max) => {
      throw new OAuthError("invalid_request", `The body is larger than ${max} bytes.`, 413);
    },
    () => new OAuthError("invalid_request", "The body is not valid UTF-8."),
  );
}

function required(form: Map<string, string>, name: string): string {
  const value = form.get(name);
  if (value === undefined || value.length === 0) throw new OAuthError("invalid_request", `The parameter ${name} is missing.`);
  return value;
}

/** POST /api/oauth/register (RFC 7591). */
async function register(request: Request, env: Env): Promise<Response> {
  let body: unknown;
  try {
    body = parseJsonText(request, await readBounded(request));
  } catch (thrown) {
    if (thrown instanceof AppError) throw new OAuthError("invalid_client_metadata", thrown.message);
    throw thrown;
  }
  // Counted per client address; a request without one (only local runs: Cloudflare always sets
  // CF-Connecting-IP) counts against the host it was sent to.
  const countKey = clientAddressOf(request) ?? `host:${normaliseHost(request.headers.get("host")) ?? ""}`;
  return json(await registerClient(env.DB, body, countKey, systemClock), 201, NO_STORE);
}

/** POST /api/oauth/token (RFC 6749 §4.1.3, §6; PKCE RFC 7636). */
async function token(request: Request, env: Env): Promise<Response> {
  if (request.headers.has("authorization")) {
    const refused = new OAuthError("invalid_client", "Clients here are public: authenticate with client_id only, no client secret.");
    return json(refused.toBody(), 401, { ...NO_STORE, "www-authenticate": 'Basic realm="oauth"' });
  }
  const form = await readForm(request);
  if (form.has("client_secret")) throw new OAuthError("invalid_client", "Clients here are public: no client secret is accepted.");
  const grantType = required(form, "grant_type");
  if (grantType === "authorization_code") {
    const answer = await exchangeAuthorizationCode(
      env.DB,
      { code: required(form, "code"), redirect_uri: required(form, "redirect_uri"), client_id: required(form, "client_id"), code_verifier: required(form, "code_verifier") },
      systemClock,
    );
    return json(answer, 200, NO_STORE);
  }
  if (grantType === "refresh_token") {
    const answer = await refreshTokens(env.DB, { refresh_token: required(form, "refresh_token"), client_id: required(form, "client_id"), scope: form.get("scope") ?? null }, systemClock);
    return json(answer, 200, NO_STORE);
  }
  throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
}

/** POST /api/oauth/revoke (RFC 7009): 200 whether or not the token existed. */
async function revoke(request: Request, env: Env): Promise<Response> {
  const form = await readForm(request);
  await revokeToken(env.DB, { token: required(form, "token"), client_id: form.get("client_id") ?? null }, systemClock);
  return new Response(null, { status: 200, headers: NO_STORE });
}

/**
 * `/connect` (the authorization endpoint). On a site host: a 302 to the admin host's `/connect`
 * with the same query plus `site` (the site's id) and `issuer` (the origin the client discovered,
 * which the page returns as `iss`). On the admin host: the consent page (`workers/admin/connect-page.ts`).
 */
async function connect(request: Request, env: Env): Promise<Response> {
  if (isAdminHost(request, env)) return connectPage(request, env);
  onlyGet(request);
  const site = await siteForRequest(request, env);
  const origin = requestOrigin(request);
  if (!site || origin === null) throw new AppError("not_found", "Unknown host.");
  const url = new URL(request.url);
  const target = new URL(`${adminOrigin(request, env)}${CONNECT_PATH}`);
  target.search = url.search;
  target.searchParams.set("site", site.id);
  target.searchParams.set("issuer", origin);
  return new Response(null, { status: 302, headers: { location: target.toString(), "cache-control": "no-store" } });
}

const ROUTES: Readonly<Record<string, (request: Request, env: Env) => Promise<Response>>> = {
  [`${OAUTH_BASE}/register`]: register,
  [`${OAUTH_BASE}/token`]: token,
  [`${OAUTH_BASE}/revoke`]: revoke,
};

/** Answers a request whose path {@link isOAuthPath} claims. */
export async function handleOAuth(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === AUTHORIZATION_SERVER_METADATA) {
    onlyGet(request);
    return json(authorizationServerMetadata(await issuerOf(request, env)), 200, METADATA_HEADERS);
  }
  if (pathname === PROTECTED_RESOURCE_METADATA) {
    onlyGet(request);
    return json(await mcpResourceMetadata(request, env), 200, METADATA_HEADERS);
  }
  if (pathname === CONNECT_PATH) return connect(request, env);
  const handler = ROUTES[pathname];
  if (!handler) throw new AppError("not_found", "No such OAuth route.");
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  try {
    return await handler(request, env);
  } catch (thrown) {
    if (thrown instanceof OAuthError) return oauthError(thrown);
    throw thrown;
  }
}
