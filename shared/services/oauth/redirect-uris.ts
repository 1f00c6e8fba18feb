import { isStrictHost } from "../../net/host-grammar";

/**
 * Redirect URI rules of client registration (spec 2 "Authentication", docs/oauth.md). A redirect
 * URI is compared exactly, character for character, so it is judged as written, not as a URL
 * parser would normalise it:
 * - `https:` with any host name or IP address (letters, digits, inner hyphens and dots; no `;`, `,`,
 *   `'`, `*`… — URL parsers allow them in hosts, and the host goes into the consent page's CSP);
 * - `http:` only on the host `127.0.0.1` or `localhost`, any port (RFC 8252 §7.3 loopback);
 * - a private-use scheme (RFC 8252 §7.1): lowercase, 2 to 64 characters, a valid scheme
 *   (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`, `.`), not on {@link FORBIDDEN_SCHEMES};
 * - never a fragment (not even an empty `#`), never user info (`user@`, `user:pass@`, or a bare `@`);
 * - at most {@link MAX_REDIRECT_URI_LENGTH} characters, no whitespace or control characters.
 */

/** Schemes a private-use redirect URI may not take: they run code, read files or leave the app. */
export const FORBIDDEN_SCHEMES: ReadonlySet<string> = new Set([
  "javascript",
  "data",
  "file",
  "vbscript",
  "blob",
  "about",
  "filesystem",
  "ftp",
  "ws",
  "wss",
  "mailto",
  "tel",
  "sms",
  "intent",
  "chrome",
  "chrome-extension",
  "view-source",
]);

/** Redirect URIs per client (spec 2 Limits). */
export const MAX_REDIRECT_URIS = 5;

/** Longest redirect URI, in characters (decision: a bound on what registration stores). */
export const MAX_REDIRECT_URI_LENGTH = 2000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost"]);
// eslint-disable-next-line no-useless-escape
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$/;

/** The host of an authority as written (`host`, `host:port`, `[v6]:port`), before any parsing. */
function writtenHost(authority: string): string {
  if (authority.startsWith("[")) return authority.slice(0, authority.indexOf("]") + 1);
  return authority.split(":", 1)[0] ?? "";
}
const VALID_SCHEME = /^[a-z][a-z0-9+.-]*$/;

/** Why a redirect URI is refused, or null when it may be registered. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0) return "a redirect URI is empty";
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `a redirect URI is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return "a redirect URI contains whitespace or control characters";
  if (uri.includes("#")) return "a redirect URI may not have a fragment";
  // Only characters RFC 3986 allows in a URI: a `\` (which URL parsers read as `/`) or any other
  // would make the address the consent page shows differ from where the browser goes.
  if (!URI_CHARACTERS.test(uri)) return "a redirect URI may contain only the characters RFC 3986 allows";
  const colon = uri.indexOf(":");
  if (colon <= 0) return "a redirect URI must be absolute (scheme:…)";
  const scheme = uri.slice(0, colon);
  if (!VALID_SCHEME.test(scheme.toLowerCase())) return `"${scheme}" is not a valid URI scheme`;
  if (scheme !== scheme.toLowerCase()) return "the scheme of a redirect URI must be lowercase";
  const rest = uri.slice(colon + 1);
  // User info sits between "//" and the first "/", "?" (no "#" is left) of the authority.
  if (rest.startsWith("//")) {
    const authority = rest.slice(2).split(/[/?]/, 1)[0] ?? "";
    if (authority.includes("@")) return "a redirect URI may not carry user info";
  }
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return "a redirect URI is not a valid URI";
  }
  if (parsed.username !== "" || parsed.password !== "") return "a redirect URI may not carry user info";
  // Hosts are judged as written: `http://127.1/`, `http://0x7f000001/`, `http://LOCALHOST/` or
  // `http:///127.0.0.1/` parse to a loopback host, but are not the exact address the rule names.
  const written = rest.startsWith("//") ? writtenHost(rest.slice(2).split(/[/?]/, 1)[0] ?? "") : "";
  if (scheme === "https") {
    if (!rest.startsWith("//") || parsed.hostname === "" || written === "") return "an https redirect URI needs a host";
    // The host is written into the consent page's CSP (form-action): only a plain host name or address.
    if (!isStrictHost(written) || !isStrictHost(parsed.hostname)) return "the host of a redirect URI must be a host name or an IP address (letters, digits, hyphens and dots)";
    return null;
  }
  if (scheme === "http") {
    if (!rest.startsWith("//") || !LOOPBACK_HOSTS.has(written) || !LOOPBACK_HOSTS.has(parsed.hostname)) {
      return "an http redirect URI is allowed only on 127.0.0.1 or localhost";
    }
    return null;
  }
  if (scheme.length < 2 || scheme.length > 64) return "a private-use scheme must be 2 to 64 characters";
  if (FORBIDDEN_SCHEMES.has(scheme)) return `the scheme "${scheme}" may not be used for a redirect URI`;
  return null;
}
