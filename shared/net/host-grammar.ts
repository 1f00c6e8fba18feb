/**
 * The strict grammar of a host people and browsers agree on: DNS labels (letters, digits, inner
 * hyphens; 1 to 63 characters each, an optional final dot), an IPv4 address, or an IPv6 address in
 * brackets. WHATWG URL parsing lets far more through (`;`, `,`, `'`, `*`, `=`, … are not forbidden
 * host code points), so a host taken from a URL is checked here before it goes into a header or a
 * policy (`https://ex.example;sandbox/cb` would add a directive to a CSP).
 */
const DNS_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^\[[0-9a-f:.]{2,45}\]$/i;

/** True when `host` (a hostname, without port) is a DNS name, an IPv4 address or a bracketed IPv6 address. */
export function isStrictHost(host: string): boolean {
  return host.length > 0 && host.length <= 253 && (DNS_NAME.test(host) || IPV4.test(host) || IPV6.test(host));
}

/**
 * The serialised origin of an `http:` or `https:` URL whose host passes {@link isStrictHost} and whose
 * port is digits, or null: the only form in which a URL's origin may go into a header value.
 */
export function strictOrigin(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!isStrictHost(url.hostname) || !/^\d{0,5}$/.test(url.port)) return null;
  const origin = url.origin;
  return origin === `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ""}` ? origin : null;
}
