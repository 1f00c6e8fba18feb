import { AppError } from "../../shared/errors";

/**
 * A request body's JSON, once its text has been read within the surface's own size limit. The body
 * must be sent as `application/json` (a cross-site form cannot send that without a CORS preflight)
 * and be valid JSON; otherwise 400 invalid_request.
 */
export function parseJsonText(request: Request, text: string): unknown {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new AppError("invalid_request", "Send the body as application/json.");
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", "The body is not valid JSON.");
  }
}
