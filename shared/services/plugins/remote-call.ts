import { signatureHeader } from "../../events/signature";
import { readCappedBytes } from "../../net/capped-body";
import { judgeOutboundUrl, outboundPolicy } from "../../net/outbound-address";

/**
 * One call from the service to a plugin (an operation run or a content policy question;
 * docs/plugin-operations.md, "The call"): `POST <endpoint><path>` with a JSON body, signed like an
 * event delivery (`X-Driftwood-Timestamp`, `X-Driftwood-Signature: v1=<hex HMAC-SHA256(event
 * secret, "<timestamp>.<body>")>`), under the outbound address policy, no redirects, answered
 * within the spec's remote call timeout (5000 ms, spent on the whole answer, body included).
 * The answer must be JSON of at most 256 KiB; what it means is the caller's to judge.
 */

/** Spec 1 Limits: remote call timeout (service to plugin). */
export const REMOTE_CALL_TIMEOUT_MS = 5000;
/** Largest plugin answer read; more is an invalid answer. */
export const MAX_PLUGIN_ANSWER_BYTES = 256 * 1024;

export interface RemoteEnv {
  readonly PLUGIN_FETCH?: Fetcher;
  readonly OUTBOUND_ALLOW_LOOPBACK?: string;
}

export type RemoteFailure = "address_refused" | "unreachable" | "timeout" | "invalid_answer";

export type RemoteAnswer = { ok: true; status: number; body: unknown } | { ok: false; failure: RemoteFailure; detail: string };

export interface RemoteRequest {
  endpoint: string;
  /** Under the endpoint, starting with `/`. */
  path: string;
  /** The installation's event secret: the plugin checks the call came from the service. */
  secret: string;
  body: unknown;
  /** Epoch ms, for the signature's timestamp. */
  now: number;
  timeoutMs?: number;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** The answer's text, or null when it is over the cap; bytes that are not UTF-8 throw. */
async function readCapped(response: Response): Promise<string | null> {
  const bytes = await readCappedBytes(response.body, MAX_PLUGIN_ANSWER_BYTES);
  return bytes === null ? null : new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
}

/** Calls the plugin; never throws for what the plugin or the network did. */
export async function callPlugin(env: RemoteEnv, request: RemoteRequest): Promise<RemoteAnswer> {
  const verdict = judgeOutboundUrl(request.endpoint.replace(/\/+$/, "") + request.path, outboundPolicy(env));
  if (!verdict.ok) return { ok: false, failure: "address_refused", detail: verdict.reason };
  const timeoutMs = request.timeoutMs ?? REMOTE_CALL_TIMEOUT_MS;
  const body = JSON.stringify(request.body);
  const timestamp = Math.floor(request.now / 1000);
  const signal = AbortSignal.timeout(timeoutMs);
  const outgoing = new Request(verdict.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      "user-agent": "Driftwood-Plugins/1",
      "x-driftwood-timestamp": String(timestamp),
      "x-driftwood-signature": await signatureHeader(request.secret, timestamp, body),
    },
    body,
    redirect: "manual",
    signal,
  });
  let response: Response;
  try {
    const binding = env.PLUGIN_FETCH;
    response = await (binding ? binding.fetch(outgoing) : fetch(outgoing));
  } catch (error) {
    if (isTimeout(error) || signal.aborted) return { ok: false, failure: "timeout", detail: `no answer within ${timeoutMs} ms` };
    return { ok: false, failure: "unreachable", detail: error instanceof Error ? error.message.slice(0, 200) : "the plugin could not be reached" };
  }
  let text: string | null;
  try {
    text = await readCapped(response);
  } catch (error) {
    if (isTimeout(error) || signal.aborted) return { ok: false, failure: "timeout", detail: `no whole answer within ${timeoutMs} ms` };
    return { ok: false, failure: "invalid_answer", detail: "the answer is not UTF-8 text" };
  }
  if (text === null) return { ok: false, failure: "invalid_answer", detail: `the answer is over ${MAX_PLUGIN_ANSWER_BYTES} bytes` };
  // A gateway in front of a plugin that is down answers 502–504 itself: the plugin was not reached.
  if (response.status === 502 || response.status === 503 || response.status === 504) return { ok: false, failure: "unreachable", detail: `HTTP ${response.status}` };
  try {
    return { ok: true, status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, failure: "invalid_answer", detail: `HTTP ${response.status}, not JSON` };
  }
}
