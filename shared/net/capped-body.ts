/**
 * An outbound answer's body read no further than `maxBytes` (a plugin's answer, a manifest, a media
 * source's file): the bytes, or null when the body turns out larger — the read is cancelled at the
 * chunk that crosses the cap, so an endless or lying body costs at most the cap. No body is no
 * bytes. What a larger body means (a refusal, an invalid answer) is the caller's to say; a broken
 * stream throws as the reader does. `over: "release"` (a request body, workers/http/json-body.ts)
 * releases the stream instead of cancelling it: the router drains a bounded rest before it answers.
 */
export async function readCappedBytes(body: ReadableStream<Uint8Array> | null, maxBytes: number, over: "cancel" | "release" = "cancel"): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      if (over === "release") reader.releaseLock();
      else await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
