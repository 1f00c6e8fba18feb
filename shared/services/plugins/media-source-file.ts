import { MEDIA_UPLOAD_MAX_BYTES } from "../../../schema/manage-media";
import { AppError } from "../../errors";
import { readCappedBytes } from "../../net/capped-body";
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

/** A download that failed on the way: `plugin_timeout` when the time ran out, else `plugin_unreachable`. */
function downloadFailed(signal: AbortSignal, detail: string): AppError {
  if (signal.aborted) return new AppError("plugin_timeout", `The media source's file did not arrive within ${MEDIA_SOURCE_FETCH_TIMEOUT_MS} ms.`, { timeout_ms: MEDIA_SOURCE_FETCH_TIMEOUT_MS });
  return new AppError("plugin_unreachable", "The media source's file could not be fetched.", { detail });
}

/**
 * The address of a linked item (mode `reference`), as the outbound address policy accepts it (the
 * one stored and redirected to): a refused address is 502 `plugin_response_invalid`.
 */
export function linkableAddress(env: RemoteEnv, url: string): string {
  const verdict = judgeOutboundUrl(url, outboundPolicy(env));
  if (!verdict.ok) throw unusable(`the file's address is refused: ${verdict.reason}`);
  return verdict.url.toString();
}

/** Bytes of a linked file read to judge it (type, image dimensions): the first 64 KiB; the library never keeps them. */
export const REFERENCE_HEAD_BYTES = 64 * 1024;

export interface FetchedHead extends FetchedFile {
  /** The whole file's size when the answer tells it (Content-Range, or a whole answer's length). */
  total: number | null;
}

/**
 * The first bytes of a linked item's file (mode `reference`; docs/media.md, "Media sources"): asked
 * with `Range: bytes=0-65535` under the same address policy, timeout and no-redirect rule as a copy;
 * a server that ignores the range is read up to 64 KiB and cut off.
 */
export async function fetchSourceHead(env: RemoteEnv, url: string): Promise<FetchedHead> {
  const address = linkableAddress(env, url);
  const signal = AbortSignal.timeout(MEDIA_SOURCE_FETCH_TIMEOUT_MS);
  const request = new Request(address, { method: "GET", headers: { "user-agent": "Driftwood-Plugins/1", range: `bytes=0-${REFERENCE_HEAD_BYTES - 1}` }, redirect: "manual", signal });
  let response: Response;
  try {
    response = await (env.PLUGIN_FETCH ? env.PLUGIN_FETCH.fetch(request) : fetch(request));
  } catch (error) {
    throw downloadFailed(signal, error instanceof Error ? error.message.slice(0, 200) : "unreachable");
  }
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw unusable(`HTTP ${response.status}`);
  }
  const range = /\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
  const length = response.headers.get("content-length");
  const total = range?.[1] ? Number(range[1]) : response.status === 200 && length !== null ? Number(length) : null;
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (reader && size < REFERENCE_HEAD_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (reader && size >= REFERENCE_HEAD_BYTES) await reader.cancel();
  } catch {
    throw downloadFailed(signal, "the download broke off");
  }
  const bytes = new Uint8Array(Math.min(size, REFERENCE_HEAD_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - at);
    bytes.set(part, at);
    at += part.byteLength;
    if (at >= bytes.byteLength) break;
  }
  return { bytes, contentType: response.headers.get("content-type"), total: total !== null && Number.isSafeInteger(total) ? total : null };
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
    throw downloadFailed(signal, error instanceof Error ? error.message.slice(0, 200) : "unreachable");
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
  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBytes(response.body, MEDIA_UPLOAD_MAX_BYTES);
  } catch {
    throw downloadFailed(signal, "the download broke off");
  }
  if (bytes === null) throw new AppError("payload_too_large", `The file is larger than ${MEDIA_UPLOAD_MAX_BYTES} bytes.`, { max: MEDIA_UPLOAD_MAX_BYTES });
  return { bytes, contentType: response.headers.get("content-type") };
}
