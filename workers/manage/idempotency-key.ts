import { AppError } from "../../shared/errors";
import { sha256Hex } from "../../shared/crypto/digest";

/** 1 to 128 visible ASCII characters (0x21–0x7E), no spaces. */
const KEY = /^[\x21-\x7E]{1,128}$/;

/** Whether a value is a well-formed Idempotency-Key (the MCP server checks a tool's `idempotency_key` with it). */
export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === "string" && KEY.test(value);
}

/** The request's Idempotency-Key, or 400 when it is missing or malformed. */
export function idempotencyKey(request: Request): string {
  const key = request.headers.get("idempotency-key");
  if (key === null) throw new AppError("invalid_request", "This write needs an Idempotency-Key header.", { header: "Idempotency-Key" });
  if (!KEY.test(key)) throw new AppError("invalid_request", "An Idempotency-Key is 1 to 128 visible ASCII characters without spaces.", { header: "Idempotency-Key" });
  return key;
}

/** JSON with object keys sorted, so the same body sent with another key order is the same request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** What makes two requests "the same request" for a key: method, path and the parsed body. */
export function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  return sha256Hex(JSON.stringify([method.toUpperCase(), path, canonical(body ?? null)]));
}
