import { callerModelIds, callerScopes, type Caller } from "../../../shared/auth/caller";
import { AppError } from "../../../shared/errors";
import { launcherOf } from "../../../shared/services/plugins/launches";
import { runOperation } from "../../../shared/services/plugins/operation-run";
import { checkRun, listOperations, type OperationViewer } from "../../../shared/services/plugins/operations";
import { siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** Plugin operations (scope `plugins:use`; spec 2 rules 12–13; docs/plugin-operations.md). */

function viewerOf(caller: Caller): OperationViewer {
  return { scopes: callerScopes(caller), model_ids: callerModelIds(caller) };
}

/** GET /plugins/operations: the operations the caller may run now. */
export async function listPluginOperations(call: ManageCall): Promise<Response> {
  return json({ data: (await listOperations(call.ctx, viewerOf(call.caller))).map((offered) => offered.item) });
}

/**
 * POST /plugins/{id}/operations/{operation}/invoke. Checked first (a replay too: an operation no
 * longer offered is 404 operation_unavailable), then the Idempotency-Key claimed in the site's
 * object, then the plugin called from here — outside the object's write queue. Spec 2 idempotency
 * rule 4: a completed run is replayed (`replayed: true`); a running one is 409
 * invocation_in_progress; a refused or failed one frees its key, and a stale claim runs again.
 */
export async function invokePluginOperation(call: ManageCall): Promise<Response> {
  const body = (call.body ?? {}) as { instance_id?: string; input?: Record<string, unknown> };
  const run = await checkRun(call.ctx, viewerOf(call.caller), {
    plugin: call.params.id ?? "",
    operation: call.params.operation ?? "",
    instance_id: body.instance_id,
    input: body.input,
  });
  const idem = call.idempotency;
  const object = siteObject(call.env, call.site.id);
  if (idem) {
    const claim = await object.claimKey(idem);
    if (claim.kind === "replay") return json({ ...(JSON.parse(claim.body) as object), replayed: true }, claim.status);
    if (claim.kind === "reused") throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for a different request.");
    if (claim.kind === "in_progress") {
      throw new AppError("invocation_in_progress", "A run with this Idempotency-Key is still in progress.", claim.retryAfterSeconds === null ? undefined : { retry_after: claim.retryAfterSeconds });
    }
  }
  try {
    const answer = await runOperation(call.ctx, call.env, launcherOf(call.caller), run);
    if (idem) await object.completeKey(idem.scope, idem.key, { status: 200, body: JSON.stringify(answer) });
    return json(answer);
  } catch (error) {
    if (idem) await object.freeKey(idem.scope, idem.key);
    throw error;
  }
}
