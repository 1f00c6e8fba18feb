import { CONTENT_ARGUMENT, FILE_NAME_ARGUMENT, IDEMPOTENCY_ARGUMENT, MCP_UPLOAD_MAX_BYTES, type OperationTool } from "../../schema/mcp-tools";
import { AppError } from "../../shared/errors";

/**
 * The upload tools of the remote MCP server (spec 2, "Command line and MCP"; docs/mcp.md, "Upload
 * tools"): a multipart route (`upload_media`, `replace_media`, `set_media_original`) takes the
 * file as `content_base64` and `file_name` (at most 8 MiB decoded) and its text fields as
 * arguments; the call becomes the same multipart/form-data request the HTTP route reads, so the
 * checks (type against the bytes, executables, duplicates, idempotency) and the answer are the
 * upload's own. The stdio server (`manage.mjs mcp`) reads a local file path into these arguments.
 */

/** Strict base64 (RFC 4648, padding required when the length needs it); null when malformed. */
export function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * The multipart body of an upload tool's call, or the refusal: `content_base64` and `file_name`
 * required, the decoded file at most 8 MiB (413 payload_too_large), every other argument a text
 * field (a closed schema refuses unknown ones, as HTTP does).
 */
export function uploadForm(tool: OperationTool, args: Record<string, unknown>): FormData | AppError {
  const content = args[CONTENT_ARGUMENT];
  const fileName = args[FILE_NAME_ARGUMENT];
  if (typeof content !== "string") return new AppError("invalid_request", `Argument ${CONTENT_ARGUMENT} is the file's bytes in base64.`, { argument: CONTENT_ARGUMENT });
  if (typeof fileName !== "string" || fileName.length === 0 || fileName.length > 255) return new AppError("invalid_request", `Argument ${FILE_NAME_ARGUMENT} is the file's name (1 to 255 characters).`, { argument: FILE_NAME_ARGUMENT });
  // Decoded size from the text's length first: an oversized upload is refused before decoding it.
  const decodedSize = Math.floor((content.length * 3) / 4) - (content.endsWith("==") ? 2 : content.endsWith("=") ? 1 : 0);
  if (decodedSize > MCP_UPLOAD_MAX_BYTES) return new AppError("payload_too_large", `A file sent through MCP is at most ${MCP_UPLOAD_MAX_BYTES} bytes decoded.`, { max: MCP_UPLOAD_MAX_BYTES });
  const bytes = decodeBase64(content);
  if (!bytes) return new AppError("invalid_request", `Argument ${CONTENT_ARGUMENT} is not valid base64.`, { argument: CONTENT_ARGUMENT });
  const form = new FormData();
  for (const [name, value] of Object.entries(args)) {
    if (name === CONTENT_ARGUMENT || name === FILE_NAME_ARGUMENT || name === IDEMPOTENCY_ARGUMENT || tool.params.includes(name) || value === undefined) continue;
    if (typeof value !== "string") return new AppError("invalid_request", `Argument ${name} is a string.`, { argument: name });
    form.append(name, value);
  }
  const file = tool.route.multipart?.file ?? "file";
  // The declared type is left to the bytes (and to a `type` argument when the route takes one).
  form.append(file, new File([bytes], fileName, { type: "application/octet-stream" }));
  return form;
}
