/**
 * Most bytes of an unread request body read (and dropped) before answering, unless the deployment
 * says otherwise. Past it the body is cancelled: a client sending that much after a refusal gets
 * its answer without waiting for us.
 */
export const DEFAULT_DRAIN_BYTES = 1024 * 1024;

/**
 * The drain bound of this deployment: `UNREAD_BODY_DRAIN_BYTES` when it is a positive integer, else
 * {@link DEFAULT_DRAIN_BYTES}. The local scripts (`npm start`, `npm run dev`, the end-to-end dev
 * server) set it to 128 MiB, above anything a request can carry to a Worker, so no refused body
 * stalls a local run; `wrangler.jsonc` leaves it unset because Cloudflare has no such stall.
 */
export function drainBound(env: { readonly UNREAD_BODY_DRAIN_BYTES?: string }): number {
  const set = Number(env.UNREAD_BODY_DRAIN_BYTES);
  return Number.isSafeInteger(set) && set > 0 ? set : DEFAULT_DRAIN_BYTES;
}

/**
 * Reads and drops what is left of a request body that no handler consumed (a refusal answered
 * before or while reading it), up to `maxBytes`.
 *
 * Why: under `wrangler dev` an answer sent while the request body is still unread leaves the local
 * proxy's connection half-read, and the *next* request to the service hangs for about a minute
 * (workers-sdk issue 15709). Draining the remainder first avoids it; on Cloudflare it only costs
 * reading what the client already sent. Nothing read is kept. See docs/routing.md.
 */
export async function drainUnreadBody(request: Request, maxBytes: number): Promise<void> {
  const body = request.body;
  if (body === null || body.locked) return;
  const reader = body.getReader();
  let drained = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
      if (drained > maxBytes) {
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
