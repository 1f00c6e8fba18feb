import { MEDIA_UPLOAD_MAX_BYTES } from "../../../schema/manage-media";
import { AppError } from "../../errors";
import { judgeOutboundUrl, outboundPolicy } from "../../net/outbound-address";
import type { RemoteEnv } from "./remote-call";

/**
 * The bytes of a media source item imported by copy (docs/media.md, "Media sources"): fetched from
 * the address the plugin gave, under the outbound address policy (docs/outbound-addresses.md), no
 * redirects, at most the upload's 32 MiB (read while streaming), within 30 s. What the bytes are is
 * judged afterwards by the upload's own checks (inspectMedia), never by what the plugin said.
 */

/** Decision: a file download may take longer than a plugin's 5 s answer; 30 s in all. */
export const MEDIA_SOURCE_FETCH_TIMEOUT_MS = 30_000;

export interface FetchedFile {
  bytes: Uint8Array;
  contentType: string | null;
}

function unusable(detail: string): AppError {
  return new AppError("plugin_response_invalid", "The media source's file could not be used.", { detail });
}

export async function fetchSourceFile(env: RemoteEnv, url: string): Promise<FetchedFile> {
  const verdict = judgeOutboundUrl(url, outboundPolicy(env));
  if (!verdict.ok) throw unusable(`the file's address is refused: ${verdict.reason}`);
  const signal = AbortSignal.timeout(MEDIA_SOURCE_FETCH_TIMEOUT_MS);
  const request = new Request(verdict.url, { method: "GET", headers: { "user-agent": "Driftwood-Plugins/1" }, redirect: "manual", signal });
  let response: Response;
  try {
    response = await (env.PLUGIN_FETCH ? env.PLUGIN_FETCH.fetch(request) : fetch(request));
  } catch (error) {
    if (signal.aborted) throw new AppError("plugin_timeout", `The media source's file did not arrive within ${MEDIA_SOURCE_FETCH_TIMEOUT_MS} ms.`, { timeout_ms: MEDIA_SOURCE_FETCH_TIMEOUT_MS });
    throw new AppError("plugin_unreachable", "The media source's file could not be fetched.", { detail: error instanceof Error ? error.message.slice(0, 200) : "unreachable" });
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw unusable(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MEDIA_UPLOAD_MAX_BYTES) {
    await response.body?.cancel();
    throw new AppError("payload_too_large", `The file is larger than ${MEDIA_UPLOAD_MAX_BYTES} bytes.`, { max: MEDIA_UPLOAD_MAX_BYTES });
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MEDIA_UPLOAD_MAX_BYTES) {
        await reader.cancel();
        throw new AppError("payload_too_large", `The file is larger than ${MEDIA_UPLOAD_MAX_BYTES} bytes.`, { max: MEDIA_UPLOAD_MAX_BYTES });
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (signal.aborted) throw new AppError("plugin_timeout", `The media source's file did not arrive within ${MEDIA_SOURCE_FETCH_TIMEOUT_MS} ms.`, { timeout_ms: MEDIA_SOURCE_FETCH_TIMEOUT_MS });
    throw new AppError("plugin_unreachable", "The media source's file could not be fetched.", { detail: "the download broke off" });
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, contentType: response.headers.get("content-type") };
}
