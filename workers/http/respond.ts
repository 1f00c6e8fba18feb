import { AppError } from "../../shared/errors";

/** A JSON response with the given status and headers; bodies are always UTF-8 JSON. */
export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  if (!h.has("cache-control")) h.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** The error envelope of the public and management surfaces: `{ error: { code, message, … } }`. */
export function errorResponse(error: AppError, requestId?: string): Response {
  // The request id travels in a header, so refusals that must look alike have identical bodies.
  const headers: Record<string, string> = requestId ? { "x-request-id": requestId } : {};
  const retryAfter = error.details?.retry_after;
  if (typeof retryAfter === "number") headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfter)));
  const allow = error.details?.allow;
  if (Array.isArray(allow)) headers.allow = allow.join(", ");
  // RFC 9110 §15.5.17: a 416 names the file's length (the byte reads of exports and import artifacts).
  const total = error.details?.total;
  if (error.code === "range_not_satisfiable" && typeof total === "number") headers["content-range"] = `bytes */${total}`;
  return json({ error: { code: error.code, message: error.message, ...(error.details ?? {}) } }, error.status, headers);
}

/** Turns anything thrown into an answer: AppErrors keep their code; anything else is logged and hidden. */
export function renderThrown(thrown: unknown, requestId: string): Response {
  if (thrown instanceof AppError) return errorResponse(thrown, requestId);
  console.error(JSON.stringify({ level: "error", request_id: requestId, message: thrown instanceof Error ? thrown.message : String(thrown) }));
  return errorResponse(new AppError("internal", "Something went wrong on our side."), requestId);
}

/**
 * The answer to a HEAD request (RFC 9110 §9.3.2): the status and header fields GET would have
 * answered, without the body. Content-Length stays the GET answer's: a handler that set it (the
 * byte reads, which skip reading bytes for HEAD) keeps it; otherwise it is the body's length.
 */
export async function withoutBody(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (headers.has("content-length") || response.body === null) await response.body?.cancel();
  else headers.set("content-length", String((await response.arrayBuffer()).byteLength));
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}
