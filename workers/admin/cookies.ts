import { SESSION_COOKIE, SESSION_TTL_MS } from "../../shared/auth/sessions";

/**
 * The session cookie. `HttpOnly` (scripts never see the secret), `SameSite=Lax` (not sent on
 * cross-site subrequests or form posts), `Path=/`, and `Secure` unless the admin host is
 * `localhost` or a `*.localhost` name (local runs over plain http).
 */

function isLocalHost(adminHost: string): boolean {
  const host = adminHost.toLowerCase().replace(/:\d+$/, "");
  return host === "localhost" || host.endsWith(".localhost");
}

function attributes(adminHost: string, maxAgeSeconds: number): string {
  return ["Path=/", `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax", ...(isLocalHost(adminHost) ? [] : ["Secure"])].join("; ");
}

/** Set-Cookie value starting a session. */
export function sessionCookie(secret: string, adminHost: string): string {
  return `${SESSION_COOKIE}=${secret}; ${attributes(adminHost, Math.floor(SESSION_TTL_MS / 1000))}`;
}

/** Set-Cookie value removing the session cookie. */
export function clearedSessionCookie(adminHost: string): string {
  return `${SESSION_COOKIE}=; ${attributes(adminHost, 0)}`;
}

/** The session secret the request's Cookie header carries, if any. */
export function sessionSecretOf(request: Request): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}
