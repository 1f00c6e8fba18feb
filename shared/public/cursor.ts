import { base64url, base64urlDecode } from "../crypto/digest";

/** What a list cursor remembers: the last row's sort key and the query it belongs to. */
export interface CursorState {
  /** Digest of the query shape (model, locale, order, filters): a cursor only continues its own list. */
  q: string;
  /** Manual position (order=manual only). */
  p?: number;
  /** sort_at of the last item served. */
  s: string;
  /** translation group of the last item served (tie-breaker). */
  g: string;
}

const encoder = new TextEncoder();
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

/** An opaque, tamper-proof token of any JSON value: base64url(JSON) + "." + base64url(HMAC-SHA256). */
export async function signValue(secret: Uint8Array, value: unknown): Promise<string> {
  const payload = base64url(encoder.encode(JSON.stringify(value)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(payload)));
  return `${payload}.${base64url(mac)}`;
}

/** The value of a token {@link signValue} made with this secret, or undefined for anything forged, altered or malformed. */
export async function openValue(secret: Uint8Array, token: string): Promise<unknown> {
  const match = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), base64urlDecode(match[2]), encoder.encode(match[1]));
  if (!valid) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(base64urlDecode(match[1]))) as unknown;
  } catch {
    return undefined;
  }
}

/** An opaque, tamper-proof list cursor. */
export function encodeCursor(secret: Uint8Array, state: CursorState): Promise<string> {
  return signValue(secret, state);
}

/** The state of a cursor this service made, or undefined for anything forged, altered or malformed. */
export async function decodeCursor(secret: Uint8Array, cursor: string): Promise<CursorState | undefined> {
  const opened = await openValue(secret, cursor);
  if (opened === undefined || opened === null || typeof opened !== "object") return undefined;
  const state = opened as CursorState;
  if (typeof state.q !== "string" || typeof state.s !== "string" || typeof state.g !== "string") return undefined;
  if (state.p !== undefined && !Number.isInteger(state.p)) return undefined;
  return state;
}
