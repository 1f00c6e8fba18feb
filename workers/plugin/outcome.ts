import { OUTCOMES, type OutcomeCode } from "../../schema/plugin-protocol";
import { AppError, type ErrorCode } from "../../shared/errors";

/**
 * The plugin protocol's answers: always the outcome envelope `{ outcome: { code, message, retry },
 * data? }` with the status and retry flag of the code (schema/plugin-protocol.ts OUTCOMES). The
 * service's own refusals are translated to the protocol's codes here, in one place.
 */

/** Service codes that mean "the person behind the delegation may not do this". */
const REQUESTER_CODES = new Set<ErrorCode>(["forbidden", "missing_permission", "field_denied", "locale_denied", "not_owner", "insufficient_scope", "creator_unauthorized"]);

export function outcomeResponse(code: OutcomeCode, message: string, data?: unknown, headers: Record<string, string> = {}): Response {
  const { status, retry } = OUTCOMES[code];
  const body = data === undefined ? { outcome: { code, message, retry } } : { outcome: { code, message, retry }, data };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * Details a plugin may see. Refusals are built for every surface; some carry ids outside a
 * plugin's grant (the published items that depend on an entry, say), so only these keys pass, and
 * a list of dependents is reduced to its length.
 */
const SAFE_DETAIL_KEYS = new Set(["workflow_revision", "current_version_id", "published_version_id", "retry_after", "issues", "max", "capability", "model_id", "state", "key"]);

function pluginSafeDetails(details: Record<string, unknown> | undefined): Record<string, unknown> {
  const safe: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details ?? {})) {
    if (SAFE_DETAIL_KEYS.has(key)) safe[key] = value;
    else if (key === "dependents" && Array.isArray(value)) {
      // Dependents the requester may not read are counted apart (`hidden`); the plugin sees the total.
      const hidden = typeof details?.hidden === "number" ? details.hidden : 0;
      safe.dependents_count = value.length + hidden;
    }
  }
  return safe;
}

function isOutcomeCode(code: string): code is OutcomeCode {
  return Object.hasOwn(OUTCOMES, code);
}

/** The protocol code a service refusal stands for. */
export function outcomeCodeOf(code: ErrorCode): OutcomeCode {
  if (code === "version_conflict") return "scheduled_target_stale";
  if (code === "not_found") return "content_not_found";
  if (code === "idempotency_in_progress") return "temporary_failure";
  if (REQUESTER_CODES.has(code)) return "requester_unauthorized";
  if (isOutcomeCode(code)) return code;
  return "transition_refused";
}

/**
 * A refusal or fault as an envelope. A refusal's details travel under `data` (with `cause`, the
 * service's own code, when it was translated); anything else is a dependency failure: logged,
 * answered 503 temporary_failure (retry), nothing known to have changed.
 */
export function renderPluginError(thrown: unknown, requestId: string): Response {
  const headers: Record<string, string> = { "x-request-id": requestId };
  if (!(thrown instanceof AppError)) {
    console.error(JSON.stringify({ level: "error", surface: "plugin", request_id: requestId, message: thrown instanceof Error ? thrown.message : String(thrown) }));
    return outcomeResponse("temporary_failure", "The request could not complete; nothing is known to have changed. Retry later.", undefined, headers);
  }
  const code = outcomeCodeOf(thrown.code);
  const retryAfter = thrown.details?.retry_after;
  if (typeof retryAfter === "number") headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfter)));
  const details = pluginSafeDetails(thrown.details);
  if (code !== thrown.code) details.cause = thrown.code;
  return outcomeResponse(code, thrown.message, Object.keys(details).length > 0 ? details : undefined, headers);
}
