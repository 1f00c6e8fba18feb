import type { Env } from "../../shared/env";
import { LOOPBACK_SETTING } from "../../shared/net/outbound-address";
import type { Site } from "../../shared/repositories/site-repository";
import { AppError } from "../../shared/errors";
import { preflightHeaders, requestedHeaders, responseHeaders } from "../../shared/services/cors/policy";
import { errorResponse } from "../http/respond";

/**
 * CORS of the public API (docs/cors.md): headers are added to the answer on its way out, after the
 * edge cache, so a cached body is shared by every origin and the headers always follow the site's
 * current settings. The policy itself is pure (shared/services/cors/policy.ts).
 */

/**
 * Whether this deployment is local development (`npm start`, the end-to-end dev server): the one
 * flag that already marks it (OUTBOUND_ALLOW_LOOPBACK, refused by `npm run deploy`).
 */
export function isLocalDevelopment(env: Pick<Env, "OUTBOUND_ALLOW_LOOPBACK">): boolean {
  return env[LOOPBACK_SETTING] === "true";
}

/** A CORS preflight: OPTIONS with an Origin and Access-Control-Request-Method. */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");
}

/**
 * The answer to a preflight of a public route: 204 with the allowed method and headers, or a plain
 * 403 (no CORS header) when the site does not allow the origin, the method or a requested header.
 */
export function answerPreflight(request: Request, env: Env, site: Site, requestId: string, writable = false): Response {
  const headers = preflightHeaders(
    site.settings.cors.origins,
    { origin: request.headers.get("origin"), method: request.headers.get("access-control-request-method") ?? "", headers: requestedHeaders(request.headers.get("access-control-request-headers")) },
    isLocalDevelopment(env),
    writable,
  );
  if (!headers) return errorResponse(new AppError("forbidden", "This origin may not call this address from a browser page (docs/cors.md)."), requestId);
  return new Response(null, { status: 204, headers: { ...headers, "cache-control": "no-store" } });
}

/** The answer with the site's CORS headers for the request's origin (none for a refused origin). */
export function withCorsHeaders(response: Response, request: Request, env: Env, site: Site): Response {
  const headers = responseHeaders(site.settings.cors.origins, { origin: request.headers.get("origin"), carriesToken: request.headers.has("authorization") }, isLocalDevelopment(env));
  const names = Object.keys(headers);
  if (names.length === 0) return response;
  // Cached and fetched answers may have immutable headers: answer a copy.
  const out = new Response(response.body, response);
  for (const name of names) {
    const value = headers[name] ?? "";
    if (name === "vary") out.headers.append("vary", value);
    else out.headers.set(name, value);
  }
  return out;
}
