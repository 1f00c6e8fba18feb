import { commit } from "../../db/batch";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { commitPlan } from "../lifecycle/commit-plan";
import { issueCode, type Launcher } from "./launches";
import type { CheckedRun } from "./operations";
import { callPlugin, type RemoteAnswer, type RemoteEnv } from "./remote-call";
import { remoteRefusal } from "./remote-refusal";
import { answerProblem, type ResultBlock } from "./result-blocks";

/**
 * Runs a checked plugin operation (spec 2 rule 13; docs/plugin-operations.md, "The call"):
 * 1. a delegation for the creator and a one-time code (`dwl_…`, 60 s), as a launch makes, bound to
 *    the operation (launch kind `operation`, its entry for an entry operation, its capabilities);
 * 2. `POST <endpoint>/operations/<id>` carrying only that code (never a credential), signed with the
 *    installation's event secret; the plugin exchanges the code with its installation token
 *    (`POST /api/plugin/v1/launch/exchange`) and acts as the creator within its grant;
 * 3. the answer judged: 200 `{ outcome: completed, result: { blocks } }` with valid blocks, or 422
 *    `{ outcome: refused, refusal: { code, message } }`; anything else is plugin_response_invalid;
 * 4. an audit record `plugin.operation.run` for every run that reached step 2, whatever its outcome,
 *    with digests of the input and the result (commitPlan digests every detail).
 * Runs outside the site object's write queue: a plugin's 5 s never holds other writers.
 */

export interface OperationCompleted {
  outcome: "completed";
  result: { blocks: ResultBlock[] };
}

/** The failure of a run as the refusal the caller receives. */
function failureOf(answer: RemoteAnswer, declared: CheckedRun["item"]["result"]["blocks"]): OperationCompleted | AppError {
  if (!answer.ok) return remoteRefusal(answer);
  if (answer.status !== 200 && answer.status !== 422) return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail: `HTTP ${answer.status}` });
  const judged = answerProblem(answer.body, declared);
  if ("problem" in judged) return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail: judged.problem });
  const parsed = judged.answer;
  if (parsed.outcome === "refused") {
    if (answer.status !== 422) return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail: "a refusal must be answered with HTTP 422" });
    return new AppError("plugin_refused", parsed.refusal.message, { refusal: parsed.refusal });
  }
  if (answer.status !== 200) return new AppError("plugin_response_invalid", "The plugin's answer is not valid.", { detail: "a completed run must be answered with HTTP 200" });
  return { outcome: "completed", result: parsed.result };
}

export async function runOperation(ctx: LifecycleContext, env: RemoteEnv, launcher: Launcher, run: CheckedRun): Promise<OperationCompleted> {
  const secret = run.row.event_secret;
  if (!secret) throw new AppError("plugin_unavailable", "The plugin has no signing secret; rotate its token.");
  const issued = await issueCode(ctx, run.row, launcher, { kind: "operation", target: run.operation.id, instanceId: run.instanceId, capabilities: run.capabilities });
  await commit(ctx.d1, issued.statements);
  const answer = await callPlugin(env, {
    endpoint: run.manifest.endpoint,
    path: `/operations/${run.operation.id}`,
    secret,
    now: ctx.clock.now(),
    body: {
      kind: "operation",
      installation_id: run.row.id,
      operation: run.operation.id,
      scope: run.operation.scope,
      instance_id: run.instanceId,
      input: run.input,
      code: issued.code,
      code_expires_at: new Date(issued.expiresAt).toISOString(),
    },
  });
  const outcome = failureOf(answer, run.item.result.blocks);
  await commitPlan(ctx, {
    statements: [],
    answer: null,
    events: [],
    purgeTags: [],
    audit: {
      action: "plugin.operation.run",
      targetKind: "plugin_installation",
      targetId: run.row.id,
      details: {
        operation: run.operation.id,
        instance_id: run.instanceId,
        delegation_id: issued.delegationId,
        outcome: outcome instanceof AppError ? outcome.code : "completed",
        input: run.input,
        result: outcome instanceof AppError ? (outcome.details ?? null) : outcome.result,
      },
    },
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}
