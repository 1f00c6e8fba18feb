import type * as v from "valibot";
import { AppError } from "../../shared/errors";
import { parse } from "../../shared/services/validation";
import { parseJsonText } from "../http/json-body";

/** Largest admin JSON body accepted. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The request's JSON body parsed against a closed schema. The body must be sent as
 * `application/json` (a cross-site form cannot send that without a CORS preflight), be at most
 * 64 KiB and be valid JSON; otherwise 400 invalid_request.
 */
export async function readBody<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  const text = await request.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) throw new AppError("invalid_request", "The body is too large.");
  return parse(schema, parseJsonText(request, text));
}
