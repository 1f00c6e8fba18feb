import type { CommandAnswer } from "../../objects/site/command-registry";
import type { WriteAnswer } from "../../objects/site/commands";
import { AppError } from "../../shared/errors";
import { settle, siteObject } from "../forward";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/** The commands that decide a proposal (an entry's or a model's) by its id, the path's one parameter. */
type ProposalDecision = "applyProposal" | "rejectProposal" | "applyModelProposal" | "dismissModelProposal";

/** Runs a proposal's decision in the site's object as the signed-in person, and answers what it answered. */
export async function decideProposal<K extends ProposalDecision>(call: SiteCall, name: K): Promise<Response> {
  const outcome = await settle<WriteAnswer<CommandAnswer<K>>>(
    siteObject(call.env, call.ctx.site.id).command(name, { siteId: call.ctx.site.id, actor: call.ctx.actor, input: { proposal_id: call.params[0] ?? "" } }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return json(outcome.value.body, outcome.value.status);
}
