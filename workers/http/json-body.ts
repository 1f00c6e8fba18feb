import { AppError } from "../../shared/errors";
import { MAX_JSON_DEPTH, parseJsonWithinDepth } from "../../shared/json/parse-json";
import { readCappedBytes } from "../../shared/net/capped-body";

/**
 * The one reader of JSON request bodies for the admin, management and plugin surfaces
 * (docs/management-api.md, "Request bodies"): the size cap is enforced on the raw bytes while they
 * stream in — at once from Content-Length, else at the first chunk past the cap, which stops the
 * reading — then the bytes' UTF-8 (decoded fatally: invalid UTF-8 is 400 invalid_request, never
 * replaced with U+FFFD and stored), then the media type, then the nesting depth on the text, and only
 * then JSON.parse.
 */

/** Largest admin JSON body (bytes). */
export const ADMIN_BODY_MAX_BYTES = 64 * 1024;
/** Largest management API JSON body (bytes): room for several 256 KiB rich-text values. */
export const MANAGE_BODY_MAX_BYTES = 1024 * 1024;

/** The refusal of a body over its cap; each surface says how (413 payload_too_large by default). */
export type TooLarge = (maxBytes: number) => AppError;

/** 413 payload_too_large with the cap in `max` (admin and management surfaces). */
export const payloadTooLarge: TooLarge = (maxBytes) => new AppError("payload_too_large", `The body is larger than ${maxBytes} bytes.`, { max: maxBytes });

/** The refusal of a body whose bytes are not UTF-8; each surface may say it its own way. */
export type NotText = () => Error;

/** 400 invalid_request (admin, management, ops and plugin surfaces). */
export const notUtf8: NotText = () => new AppError("invalid_request", "The body is not valid UTF-8.");

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Bytes as UTF-8 text, decoded fatally: a byte sequence that is not UTF-8 (a lone continuation byte,
 * an overlong form, an encoded surrogate, a truncated sequence) is refused, never replaced with
 * U+FFFD — a replaced character would be stored as if the client had sent it.
 */
export function decodeUtf8(bytes: Uint8Array, notText: NotText = notUtf8): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw notText();
  }
}

/**
 * The body's bytes as text, read no further than `maxBytes`: a larger Content-Length is refused
 * before reading, and a body that turns out larger (chunked, or lying) stops being read at the chunk
 * that crosses the cap. Bytes that are not UTF-8 are refused ({@link decodeUtf8}).
 */
export async function readCappedText(request: Request, maxBytes: number, tooLarge: TooLarge = payloadTooLarge, notText: NotText = notUtf8): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  // Released, not cancelled, past the cap: the router drains a bounded rest before answering, so a
  // refusal never stalls the next request under wrangler dev (workers/http/drain-body.ts).
  const bytes = await readCappedBytes(request.body, maxBytes, "release");
  if (bytes === null) throw tooLarge(maxBytes);
  return decodeUtf8(bytes, notText);
}

/**
 * A request body's JSON, once its text has been read within the surface's own size limit. The body
 * must be sent as `application/json` (a cross-site form cannot send that without a CORS preflight),
 * nest at most {@link MAX_JSON_DEPTH} objects and arrays, and be valid JSON; otherwise 400
 * invalid_request.
 */
export function parseJsonText(request: Request, text: string): unknown {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new AppError("invalid_request", "Send the body as application/json.");
  return parseJsonWithinDepth(text);
}

/** A JSON body within `maxBytes`; an empty body is `{}` (writes that take no body). */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readCappedText(request, maxBytes);
  if (text.length === 0) return {};
  return parseJsonText(request, text);
}
