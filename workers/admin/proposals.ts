import type { SiteCall } from "./auth";
import { decideProposal } from "./proposal-decision";

/**
 * POST /api/proposals/{id}/apply: the proposal applied as a normal save by the signed-in person
 * (their permissions, ownership and workflow), atomically with the proposal's new state; the
 * entry moved past the proposal's base → 409 proposal_stale, nothing written.
 */
export const applyProposal = (call: SiteCall) => decideProposal(call, "applyProposal");

/** POST /api/proposals/{id}/reject: the proposal closed; the entry is left as is. */
export const rejectProposal = (call: SiteCall) => decideProposal(call, "rejectProposal");
