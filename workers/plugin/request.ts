import { MAX_PLUGIN_REQUEST_BYTES } from "../../schema/plugin-protocol";
import { AppError } from "../../shared/errors";

function tooLarge(): AppError {
  return new AppError("invalid_request", `A plugin request is at most ${MAX_PLUGIN_REQUEST_BYTES} bytes.`, { max: MAX_PLUGIN_REQUEST_BYTES });
}

/**
 * The request body as text, refused before any parsing when it is over the protocol's size limit:
 * at once by its Content-Length, otherwise while reading (chunked bodies stop at the first byte
 * past the limit).
 */
export async function readCappedBody(request: Request): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_PLUGIN_REQUEST_BYTES) throw tooLarge();
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PLUGIN_REQUEST_BYTES) {
      // Released, not cancelled: the router drains the rest before answering (workers/http/drain-body.ts).
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Query values as strings; a repeated key is refused (the protocol's query values are single strings). */
export function singleValuedQuery(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    if (all.length !== 1) throw new AppError("invalid_request", `The query key "${key}" may appear once.`, { key });
    out[key] = all[0] ?? "";
  }
  return out;
}
