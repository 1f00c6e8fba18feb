import type { CommandAnswer } from "../../objects/site/command-registry";
import type { WriteAnswer } from "../../objects/site/commands";
import { AppError } from "../../shared/errors";
import { settle, siteObject } from "../forward";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

async function decide<K extends "applyModelProposal" | "dismissModelProposal">(call: SiteCall, name: K): Promise<Response> {
  const outcome = await settle<WriteAnswer<CommandAnswer<K>>>(
    siteObject(call.env, call.ctx.site.id).command(name, { siteId: call.ctx.site.id, actor: call.ctx.actor, input: { proposal_id: call.params[0] ?? "" } }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return json(outcome.value.body, outcome.value.status);
}

/**
 * POST /api/models/proposals/{id}/apply: the proposal applied as a normal model apply by the
 * signed-in person, in one write with its new state; the model changed since → 409
 * schema_proposal_stale, nothing written; unsafe for content → 409 model_change_blocked.
 */
export const applyModelProposal = (call: SiteCall) => decide(call, "applyModelProposal");

/** POST /api/models/proposals/{id}/dismiss: an open proposal (stale or not) closed; no model changes. */
export const dismissModelProposal = (call: SiteCall) => decide(call, "dismissModelProposal");
