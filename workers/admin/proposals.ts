import type { CommandAnswer } from "../../objects/site/command-registry";
import type { WriteAnswer } from "../../objects/site/commands";
import { AppError } from "../../shared/errors";
import { settle, siteObject } from "../forward";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

async function decide<K extends "applyProposal" | "rejectProposal">(call: SiteCall, name: K): Promise<Response> {
  const outcome = await settle<WriteAnswer<CommandAnswer<K>>>(
    siteObject(call.env, call.ctx.site.id).command(name, { siteId: call.ctx.site.id, actor: call.ctx.actor, input: { proposal_id: call.params[0] ?? "" } }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return json(outcome.value.body, outcome.value.status);
}

/**
 * POST /api/proposals/{id}/apply: the proposal applied as a normal save by the signed-in person
 * (their permissions, ownership and workflow), atomically with the proposal's new state; the
 * entry moved past the proposal's base → 409 proposal_stale, nothing written.
 */
export const applyProposal = (call: SiteCall) => decide(call, "applyProposal");

/** POST /api/proposals/{id}/reject: the proposal closed; the entry is left as is. */
export const rejectProposal = (call: SiteCall) => decide(call, "rejectProposal");
