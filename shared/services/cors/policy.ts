import type { CorsOrigin } from "../../content/site-settings";
import { ANY_ORIGIN, entryAdmits } from "./origins";

/**
 * What the public API answers a browser on another origin (docs/cors.md). Pure: the router feeds it
 * the site's stored origins, the request's CORS headers and whether it runs in local development.
 *
 * - A request whose origin is allowed gets `Access-Control-Allow-Origin` (its own origin, or `*`
 *   when only the wildcard admits it and it carries no token) on every answer, errors included.
 * - `Authorization` is allowed only to origins stored with `tokens: true`; a request carrying it
 *   from any other origin gets no CORS headers at all. `*` is never answered to a token request,
 *   and `Access-Control-Allow-Credentials` is never sent (the public API reads no cookies).
 * - A refusal is plain: no `Access-Control-*` header, so the browser keeps the answer from the page.
 * - `Vary: Origin` whenever the headers depend on the origin (every answer of a site listing an
 *   exact origin), so no shared cache hands one origin's answer to another.
 */

/** Request headers a page may send besides the CORS-safelisted ones (beyond `Authorization`). */
const READ_HEADERS = ["if-none-match", "if-modified-since", "range"];
export const EXPOSED_HEADERS = "x-request-id, retry-after, etag, content-range, content-length";
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface CorsRequest {
  origin: string | null;
  carriesToken: boolean;
}

export type Decision = { allow: false } | { allow: true; allowOrigin: string; tokens: boolean };

/** The first entry admitting the origin, preferring an exact one (which may grant tokens) over `*`. */
function admittingEntry(origins: readonly CorsOrigin[], origin: string, localDevelopment: boolean): CorsOrigin | undefined {
  return origins.find((e) => e.origin !== ANY_ORIGIN && entryAdmits(e, origin, localDevelopment)) ?? origins.find((e) => e.origin === ANY_ORIGIN);
}

/** Whether (and how) an actual request's origin is allowed. */
export function decide(origins: readonly CorsOrigin[], request: CorsRequest, localDevelopment: boolean): Decision {
  if (request.origin === null) return { allow: false };
  const entry = admittingEntry(origins, request.origin, localDevelopment);
  if (!entry) return { allow: false };
  const tokens = entry.origin !== ANY_ORIGIN && entry.tokens;
  if (request.carriesToken && !tokens) return { allow: false };
  const allowOrigin = entry.origin === ANY_ORIGIN && !request.carriesToken ? ANY_ORIGIN : request.origin;
  return { allow: true, allowOrigin, tokens };
}

/** Whether the site's answers depend on the `Origin` header (it lists anything but the wildcard). */
export function variesByOrigin(origins: readonly CorsOrigin[]): boolean {
  return origins.some((e) => e.origin !== ANY_ORIGIN);
}

/** The headers a request's answer gains (empty for a refusal, besides `Vary`). */
export function responseHeaders(origins: readonly CorsOrigin[], request: CorsRequest, localDevelopment: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (variesByOrigin(origins)) headers.vary = "Origin";
  const decision = decide(origins, request, localDevelopment);
  if (!decision.allow) return headers;
  headers["access-control-allow-origin"] = decision.allowOrigin;
  headers["access-control-expose-headers"] = EXPOSED_HEADERS;
  return headers;
}

export interface Preflight {
  origin: string | null;
  method: string;
  /** Access-Control-Request-Headers, lower-cased, split. */
  headers: string[];
}

/**
 * A preflight's answer headers, or undefined for a refusal: the method must be GET or HEAD (or POST
 * with `content-type` on a route readers post to: `writable`, the comment post of docs/comments.md),
 * and every requested header allowed to this origin (`authorization` only to a token origin).
 */
export function preflightHeaders(origins: readonly CorsOrigin[], preflight: Preflight, localDevelopment: boolean, writable = false): Record<string, string> | undefined {
  const posts = writable && preflight.method === "POST";
  if (preflight.method !== "GET" && preflight.method !== "HEAD" && !posts) return undefined;
  const wantsToken = preflight.headers.includes("authorization");
  const decision = decide(origins, { origin: preflight.origin, carriesToken: wantsToken }, localDevelopment);
  if (!decision.allow) return undefined;
  const allowed = new Set([...READ_HEADERS, ...(posts ? ["content-type"] : []), ...(decision.tokens ? ["authorization"] : [])]);
  if (!preflight.headers.every((h) => allowed.has(h))) return undefined;
  const headers: Record<string, string> = {
    "access-control-allow-origin": decision.allowOrigin,
    "access-control-allow-methods": posts ? "GET, HEAD, POST" : "GET, HEAD",
    "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  };
  if (preflight.headers.length > 0) headers["access-control-allow-headers"] = preflight.headers.join(", ");
  return headers;
}

/** Access-Control-Request-Headers as a list of lower-case names. */
export function requestedHeaders(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.length > 0);
}
