/**
 * Most bytes of an unread request body read (and dropped) before answering. Past it the body is
 * cancelled: a client sending that much after a refusal gets its answer without waiting for us.
 */
export const MAX_DRAIN_BYTES = 1024 * 1024;

/**
 * Reads and drops what is left of a request body that no handler consumed (a refusal answered
 * before or while reading it), up to MAX_DRAIN_BYTES.
 *
 * Why: under `wrangler dev` an answer sent while the request body is still unread leaves the local
 * proxy's connection half-read, and the *next* request to the service hangs for about a minute
 * (workers-sdk issue 15709). Draining a bounded remainder first avoids it; on Cloudflare it only
 * costs reading what the client already sent. See docs/local-run.md.
 */
export async function drainUnreadBody(request: Request): Promise<void> {
  const body = request.body;
  if (body === null || body.locked) return;
  const reader = body.getReader();
  let drained = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
      if (drained > MAX_DRAIN_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away or the stream was already consumed: nothing is left to drain.
  } finally {
    reader.releaseLock();
  }
}
