import { MAX_PLUGIN_REQUEST_BYTES } from "../../schema/plugin-protocol";
import { AppError } from "../../shared/errors";
import { readCappedText } from "../http/json-body";
import { queryIsUtf8 } from "../http/query-utf8";

function tooLarge(): AppError {
  return new AppError("invalid_request", `A plugin request is at most ${MAX_PLUGIN_REQUEST_BYTES} bytes.`, { max: MAX_PLUGIN_REQUEST_BYTES });
}

/**
 * The request body as text, refused before any parsing when it is over the protocol's size limit:
 * at once by its Content-Length, otherwise while reading (chunked bodies stop at the first chunk
 * past the limit). The protocol answers 400 invalid_request in its outcome envelope, not 413.
 */
export function readCappedBody(request: Request): Promise<string> {
  return readCappedText(request, MAX_PLUGIN_REQUEST_BYTES, tooLarge);
}

/** Query values as strings (decoded fatally as UTF-8); a repeated key is refused (the protocol's query values are single strings). */
export function singleValuedQuery(url: URL): Record<string, string> {
  if (!queryIsUtf8(url.search)) throw new AppError("invalid_request", "The query is not valid UTF-8 once percent-decoded.");
  const out: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    if (all.length !== 1) throw new AppError("invalid_request", `The query key "${key}" may appear once.`, { key });
    out[key] = all[0] ?? "";
  }
  return out;
}
