import type { Env } from "../../shared/env";

/**
 * The admin UI's files (built by scripts/build-admin.mjs into admin/dist, bound as Workers static
 * assets `ASSETS`): hashed files under /assets/ are kept a year; every other address is a screen
 * of the single-page app and gets index.html, never cached, so a deploy is seen at once.
 *
 * The page's policy allows only its own scripts and styles (no inline script: the build emits
 * none), its own API, images from anywhere over http(s) (media previews come from site hosts),
 * and no framing (docs/admin-ui.md, "Security").
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** The app's own addresses (admin/src/router.ts `paths`) and its files; any other address stays the admin JSON 404. */
const APP_PAGES = new Set(["/", "/sign-in", "/invite", "/reset-password"]);

export function isAdminAppPath(request: Request, pathname: string): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  return APP_PAGES.has(pathname) || pathname.startsWith("/sites/") || pathname.startsWith("/operators/") || pathname.startsWith("/assets/");
}

export async function serveAdminApp(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const asset = url.pathname.startsWith("/assets/");
  const answer = await env.ASSETS.fetch(asset ? new Request(url, { method: request.method }) : new Request(new URL("/index.html", url), { method: request.method }));
  if (asset && answer.status === 404) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" } });
  const headers = new Headers(answer.headers);
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "same-origin");
  if (asset) {
    headers.set("cache-control", "public, max-age=31536000, immutable");
  } else {
    headers.set("cache-control", "no-cache");
    headers.set("content-security-policy", PAGE_POLICY);
    headers.set("x-frame-options", "DENY");
  }
  return new Response(answer.body, { status: answer.status, headers });
}
