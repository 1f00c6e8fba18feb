import type { SiteCall } from "./auth";
import { decideProposal } from "./proposal-decision";

/**
 * POST /api/models/proposals/{id}/apply: the proposal applied as a normal model apply by the
 * signed-in person, in one write with its new state; the model changed since → 409
 * schema_proposal_stale, nothing written; unsafe for content → 409 model_change_blocked.
 */
export const applyModelProposal = (call: SiteCall) => decideProposal(call, "applyModelProposal");

/** POST /api/models/proposals/{id}/dismiss: an open proposal (stale or not) closed; no model changes. */
export const dismissModelProposal = (call: SiteCall) => decideProposal(call, "dismissModelProposal");
