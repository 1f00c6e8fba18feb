import type { Env } from "../../shared/env";
import { normaliseHost } from "../../shared/repositories/site-repository";

/**
 * The origin a request was made on (docs/oauth.md, "Origin and issuer"): the scheme of the
 * request's URL and its `Host` header as sent, lower-cased, port kept. On Cloudflare the URL's
 * scheme is the one the client used at the edge (`https:`); under `wrangler dev` it is `http:`
 * (the local server speaks plain HTTP) and the Host header is the one the client sent
 * (`demo.localhost:8787`), as for site resolution (docs/routing.md). No forwarding header
 * (`X-Forwarded-Proto`, `Forwarded`) is read: a client could set it. A Host that is not a plain
 * host name or address with an optional port gives null.
 */
export function requestOrigin(request: Request): string | null {
  const url = new URL(request.url);
  const host = (request.headers.get("host") ?? url.host).trim().toLowerCase();
  if (!/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(host)) return null;
  return `${url.protocol}//${host}`;
}

/** The port of the request's Host header (`:8787`), or "" when it names none. */
function hostPort(request: Request): string {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return /(:\d{1,5})$/.exec(host.trim())?.[1] ?? "";
}

/**
 * The admin host's origin as seen from a request to another host: the request's scheme, the
 * configured `ADMIN_HOST`, and the request's port (locally every host shares `wrangler dev`'s port).
 */
export function adminOrigin(request: Request, env: Env): string {
  const url = new URL(request.url);
  return `${url.protocol}//${normaliseHost(env.ADMIN_HOST) ?? env.ADMIN_HOST}${hostPort(request)}`;
}
