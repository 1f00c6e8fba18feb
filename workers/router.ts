import type { Env } from "../shared/env";
import { drainBound, drainUnreadBody } from "./http/drain-body";
import { renderThrown, withoutBody } from "./http/respond";
import { handleAdmin, isAdminHost } from "./admin/router";
import { MANAGE_SCRIPT_PATH, manageScript } from "./admin/manage-script";
import { cachedAnswer, cacheMaxAge } from "./public/cache";
import { handleManage, MANAGE_BASE } from "./manage/router";
import { handleOAuth, isOAuthPath } from "./oauth/router";
import { handleMcp, MCP_PATH } from "./mcp/router";
import { handlePlugin, PROTOCOL_BASE } from "./plugin/router";
import { handleOps, OPS_BASE } from "./ops/router";
import { siteForRequest } from "./resolve-site";
import { handlePublic, isPublicRoute } from "./routes/public";
import { answerPreflight, isPreflight, withCorsHeaders } from "./public/cors";
import { MEDIA_PATH_PREFIX } from "./public/media-file";

/**
 * Dispatch by host and path (DESIGN.md §1). Credential-addressed surfaces (management, plugin,
 * OAuth) are matched by path on any host; everything else is the public API of the Host's site.
 */
export async function route(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const answer = await dispatch(request, env, ctx);
  // Every surface may refuse before reading a body (credential, size, route): read what is left
  // before answering, so a local `wrangler dev` never stalls the next request (drain-body.ts).
  await drainUnreadBody(request, drainBound(env));
  // HEAD: every surface answers it as GET (route tables with `headAsGet`); the body goes here, once.
  return request.method === "HEAD" ? withoutBody(answer) : answer;
}

async function dispatch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const requestId = crypto.randomUUID();
  try {
    const pathname = new URL(request.url).pathname;
    // OAuth discovery, registration, tokens and /connect answer on the admin host and site hosts
    // alike (docs/oauth.md): the issuer is the origin asked.
    if (isOAuthPath(pathname)) return await handleOAuth(request, env);
    if (isAdminHost(request, env)) {
      // The generated command line, for download (docs/cli.md); beside the admin's JSON table.
      if (pathname === MANAGE_SCRIPT_PATH) return manageScript(request);
      // Operators' routes (moving a site between databases), only when OPS_TOKEN is set.
      if (pathname === OPS_BASE || pathname.startsWith(`${OPS_BASE}/`)) return await handleOps(request, env);
      return await handleAdmin(request, env);
    }
    // Credential-addressed surfaces answer on any host; the site comes from the credential.
    if (pathname.startsWith(`${MANAGE_BASE}/`)) return await handleManage(request, env);
    if (pathname === MCP_PATH) return await handleMcp(request, env);
    if (pathname.startsWith(`${PROTOCOL_BASE}/`)) return await handlePlugin(request, env);
    return await dispatchPublic(request, env, ctx, pathname, requestId);
  } catch (thrown) {
    return renderThrown(thrown, requestId);
  }
}

/**
 * The public API of the Host's site, its answers (errors included) carrying the site's CORS headers
 * for the request's origin (docs/cors.md). An unknown host has no CORS settings: its 404 is plain.
 */
async function dispatchPublic(request: Request, env: Env, ctx: ExecutionContext, pathname: string, requestId: string): Promise<Response> {
  // Media delivery looks the cache up itself (Range and conditional requests, docs/media.md).
  const hit = pathname.startsWith(MEDIA_PATH_PREFIX) ? undefined : await cachedAnswer(request, cacheMaxAge(env));
  const site = await siteForRequest(request, env);
  if (hit) return site ? withCorsHeaders(hit, request, env, site) : hit;
  if (site && isPreflight(request) && (await isPublicRoute(request.url))) return answerPreflight(request, env, site, requestId, await isPublicRoute(request.url, "POST"));
  let answer: Response;
  try {
    answer = await handlePublic(request, env, ctx, site);
  } catch (thrown) {
    answer = renderThrown(thrown, requestId);
  }
  // An OPTIONS that is no preflight of a public route is refused plainly, like any unknown method.
  return site && request.method !== "OPTIONS" ? withCorsHeaders(answer, request, env, site) : answer;
}
