import type { CorsOrigin } from "../../content/site-settings";

/**
 * The forms an allowed origin may take (docs/cors.md):
 * - an exact https origin: `https://app.example.com`, `https://app.example.com:8443` (no path, no
 *   trailing slash, no user info, lower case as browsers send it);
 * - `*`: any origin, for reads without a token only (never `*` with credentials);
 * - in local development only: `http://localhost:<port>` or `http://localhost:*`, also for
 *   `*.localhost` names (`http://app.localhost:5173`).
 */
export const ANY_ORIGIN = "*";

const LOCAL_PATTERN = /^http:\/\/((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*localhost):(\*|[1-9][0-9]{0,4})$/;

/** An exact https origin: scheme and host (and port), exactly as a browser writes it. */
export function isExactHttpsOrigin(value: string): boolean {
  // Host names as browsers send them (punycode for IDN): no wildcard or other pattern characters.
  if (!/^https:\/\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]{1,5})?$/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.origin === value && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** A local-development origin pattern (`http://localhost:*`, `http://app.localhost:5173`). */
export function isLocalOriginPattern(value: string): boolean {
  const match = LOCAL_PATTERN.exec(value);
  if (!match) return false;
  return match[2] === "*" || Number(match[2]) <= 65535;
}

/** Whether one stored entry admits the request's `Origin`. Local patterns count only in local development. */
export function entryAdmits(entry: CorsOrigin, origin: string, localDevelopment: boolean): boolean {
  if (entry.origin === ANY_ORIGIN) return true;
  if (entry.origin === origin) return entry.origin.startsWith("https://") || localDevelopment;
  if (!localDevelopment || !entry.origin.endsWith(":*")) return false;
  const prefix = entry.origin.slice(0, -1);
  return origin.startsWith(prefix) && /^[1-9][0-9]{0,4}$/.test(origin.slice(prefix.length));
}
