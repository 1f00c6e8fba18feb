import type * as v from "valibot";
import { parse } from "../../shared/services/validation/parse";
import { ADMIN_BODY_MAX_BYTES, parseJsonText, readCappedText } from "../http/json-body";

/**
 * The request's JSON body parsed against a closed schema. The body must be at most 64 KiB (413
 * payload_too_large, checked while reading), be sent as `application/json` (a cross-site form
 * cannot send that without a CORS preflight), nest at most 64 levels and be valid JSON; otherwise
 * 400 invalid_request.
 */
export async function readBody<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  return parse(schema, parseJsonText(request, await readCappedText(request, ADMIN_BODY_MAX_BYTES)));
}
