import { hex } from "../crypto/digest";

const encoder = new TextEncoder();

/** Lower-case hex HMAC-SHA256 of `"<timestamp>.<body>"` with the subscriber's secret. */
export async function signDelivery(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return hex(new Uint8Array(mac));
}

/** The `X-Driftwood-Signature` header value: `v1=<hex>` (a later scheme adds `v2=` beside it). */
export async function signatureHeader(secret: string, timestamp: number, body: string): Promise<string> {
  return `v1=${await signDelivery(secret, timestamp, body)}`;
}
