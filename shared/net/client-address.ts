import ipaddr from "ipaddr.js";

/**
 * The client address a request came from, as one counting unit for throttles, or null when the
 * request carries none. On Cloudflare `CF-Connecting-IP` is set by the edge (a client cannot
 * forge it); locally it is absent. IPv4-mapped IPv6 counts as its IPv4 address; other IPv6
 * addresses count by their /64, since one subscriber usually holds a whole /64.
 */
export function clientAddressOf(request: Request): string | null {
  const header = request.headers.get("cf-connecting-ip")?.trim();
  if (!header || !ipaddr.isValid(header)) return null;
  const address = ipaddr.process(header);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toNormalizedString()}/64`;
}
