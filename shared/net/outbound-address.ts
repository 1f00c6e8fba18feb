import ipaddr from "ipaddr.js";

/**
 * Which URLs the service may call (webhooks, plugin endpoints) or hand out (plugin launch URLs):
 * docs/outbound-addresses.md. The ranges are ipaddr.js's, never written by hand here: an IP
 * literal must be in its `unicast` range (IPv6 also inside 2000::/3, the global unicast space, which
 * leaves out the deprecated IPv4-compatible ::a.b.c.d and every other embedding of an IPv4
 * address); everything else — private, loopback, link-local, CGNAT, unique-local, IPv4-mapped,
 * NAT64, 6to4, Teredo, multicast, reserved, unspecified — is refused. Names for the local machine
 * or network (`localhost`, `*.localhost`, `.local`, `.internal`, `.home.arpa`, …) and single-label
 * names (completed by an internal resolver's search list) are refused too.
 *
 * Loopback (127.0.0.0/8, ::1, `localhost`, `*.localhost`) is allowed only under the local
 * development policy, which only the local start, seed and test configurations turn on.
 */

/** What the caller's deployment allows beyond public addresses. */
export interface OutboundPolicy {
  /** Local development only: loopback addresses and names, over http or https. */
  readonly allowLoopback: boolean;
}

/** Production: public addresses over https only. */
export const PUBLIC_ONLY: OutboundPolicy = { allowLoopback: false };

/** The env var that turns on the local development policy (value `true`); never in the deployable config. */
export const LOOPBACK_SETTING = "OUTBOUND_ALLOW_LOOPBACK";

/** The policy of a deployment: loopback only when `OUTBOUND_ALLOW_LOOPBACK` is exactly `true`. */
export function outboundPolicy(env: { readonly OUTBOUND_ALLOW_LOOPBACK?: string }): OutboundPolicy {
  return env.OUTBOUND_ALLOW_LOOPBACK === "true" ? { allowLoopback: true } : PUBLIC_ONLY;
}

/** A URL the policy accepts, or why not (the reason is safe to show the caller). */
export type OutboundVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** Names that only ever mean this machine or a local network (RFC 6761, 6762, 8375; common private suffixes). */
const LOOPBACK_NAMES = ["localhost"];
const LOCAL_SUFFIXES = ["local", "internal", "intranet", "lan", "home", "corp", "private", "localdomain", "home.arpa"];

/** 2000::/3: the only IPv6 space allocated for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

type HostKind = "public" | "loopback" | "refused";

function endsWithLabel(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

function ipKind(literal: string): HostKind {
  if (!ipaddr.isValid(literal)) return "refused";
  const address = ipaddr.parse(literal);
  const range = address.range();
  if (range === "loopback") return "loopback";
  if (range !== "unicast") return "refused";
  if (address.kind() === "ipv6" && !address.match(GLOBAL_UNICAST_V6)) return "refused";
  return "public";
}

/** What a URL's hostname (as the WHATWG parser normalised it) points at. */
function hostKind(hostname: string): HostKind {
  const lower = hostname.toLowerCase();
  // An empty label (`a..b`, `10.0.0.1..`, `.a`) is no valid name; resolvers differ on what they
  // make of one (some strip the dots and reach 10.0.0.1), so it is never sent anywhere.
  if (lower.startsWith(".") || lower.includes("..")) return "refused";
  const host = lower.replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return ipKind(host.slice(1, -1));
  // The URL parser already turned 0x7f.1, 2130706433 and friends into dotted quads.
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipKind(host);
  if (LOOPBACK_NAMES.some((name) => endsWithLabel(host, name))) return "loopback";
  if (LOCAL_SUFFIXES.some((suffix) => endsWithLabel(host, suffix))) return "refused";
  if (!host.includes(".")) return "refused";
  return "public";
}

/**
 * Judges an absolute URL under a policy: https to a public host; under the local development
 * policy also http or https to a loopback host. Credentials in the URL are refused everywhere.
 */
export function judgeOutboundUrl(text: string, policy: OutboundPolicy): OutboundVerdict {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "not an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "only https URLs are called" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "the URL must not carry credentials" };
  const kind = hostKind(url.hostname);
  if (kind === "refused") return { ok: false, reason: "the host is a private, local or reserved address" };
  if (kind === "loopback") {
    return policy.allowLoopback ? { ok: true, url } : { ok: false, reason: "loopback hosts are allowed only in local development" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "only https URLs are called (http only to loopback in local development)" };
  return { ok: true, url };
}
