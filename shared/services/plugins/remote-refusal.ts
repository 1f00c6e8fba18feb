import { AppError } from "../../errors";
import { REMOTE_CALL_TIMEOUT_MS, type RemoteAnswer } from "./remote-call";

/**
 * A plugin call that gave no usable answer (remote-call.ts), as the refusal its caller receives —
 * the same for an operation run and a media source's call (docs/plugin-operations.md, "The call").
 */
export function remoteRefusal(answer: Exclude<RemoteAnswer, { ok: true }>): AppError {
  switch (answer.failure) {
    case "address_refused":
      return new AppError("plugin_unavailable", `The plugin's endpoint is refused: ${answer.detail}.`, { reason: answer.detail });
    case "timeout":
      return new AppError("plugin_timeout", `The plugin did not answer within ${REMOTE_CALL_TIMEOUT_MS} ms.`, { timeout_ms: REMOTE_CALL_TIMEOUT_MS });
    case "unreachable":
      return new AppError("plugin_unreachable", "The plugin could not be reached.", { detail: answer.detail });
    case "invalid_answer":
      return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail: answer.detail });
  }
}
