/**
 * Requests to the worker under test, called directly (`worker.fetch(request, env, ctx)`) rather
 * than through `SELF.fetch`. Under @cloudflare/vitest-pool-workers every `SELF.fetch` gets slower as
 * the runtime's request count grows (workers-sdk #15446: measured here 10 ms → 440 ms per request
 * within 480 requests to a 404 route), while the direct call stays flat (13–17 ms on the same loaded
 * machine). The worker runs the same code on the same bindings either way; only the harness's
 * loopback dispatch is skipped.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { Env } from "../../shared/env";
import worker from "../../workers/index";

/**
 * How long a request may go unanswered before `workerFetch` rejects. Below vitest's 30 s
 * `testTimeout`, so a request that never settles fails its test with the route's name instead of
 * leaving the file silent (docs/testing.md, "A silent workerd suite").
 */
export const WORKER_FETCH_TIMEOUT_MS = 25_000;

/**
 * Like `fetch`: the worker's answer. Work the worker hands to `ctx.waitUntil` (cache writes,
 * purges) goes on after the answer, as in production; a failure there is logged, never thrown
 * into a later test. An answer that does not come within WORKER_FETCH_TIMEOUT_MS rejects, naming
 * the method and path.
 */
export async function workerFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const ctx = createExecutionContext();
  let timer = 0;
  const unanswered = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`workerFetch: ${request.method} ${new URL(request.url).pathname} got no answer in ${WORKER_FETCH_TIMEOUT_MS / 1000} s`)), WORKER_FETCH_TIMEOUT_MS);
  });
  try {
    const response = await Promise.race([worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env as unknown as Env, ctx), unanswered]);
    waitOnExecutionContext(ctx).catch((error: unknown) => console.error("waitUntil work failed after a test request:", error));
    return response;
  } finally {
    clearTimeout(timer);
  }
}
