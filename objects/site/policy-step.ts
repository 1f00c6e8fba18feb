import type { Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { findSiteById } from "../../shared/repositories/site-repository";
import { askPolicies, policiesFor, sitePolicies, transformRefused, type PolicyAsker, type Prepared } from "../../shared/services/plugins/policies";

export type { PolicyAsker, Prepared };
import { policySubject, POLICY_COMMANDS, withFields } from "../../shared/services/plugins/policy-subjects";
import type { WriteRequest } from "./commands";
import type { RateLimiter } from "./rate-limits";

/**
 * The content-policy step of a write (spec 2 rule 14; docs/plugin-policies.md): run by the write
 * runner after the Idempotency-Key is claimed (a replay asks nothing) and BEFORE the write enters
 * the site's queue, so the plugin calls (up to 5000 ms each, asked at once) never hold the site's
 * other writers. Every policy asked spends one call of the site's budget, counted here.
 */

/** Decision: policy calls per site per window (docs/plugin-policies.md, "Budget"); PLUGIN_POLICY_BUDGET overrides the count. */
export const POLICY_BUDGET = { calls: 600, windowMs: 60_000 } as const;

export function policyBudget(env: Pick<Env, "PLUGIN_POLICY_BUDGET">): number {
  const n = Number(env.PLUGIN_POLICY_BUDGET ?? POLICY_BUDGET.calls);
  return Number.isSafeInteger(n) && n > 0 ? n : POLICY_BUDGET.calls;
}

export type WritePrepare<I> = (input: I) => Promise<Prepared<I>>;

/** The policy step of command `name`, or undefined when the command asks no policy. */
export function policyStep<I extends object>(env: Env, clock: Clock, limits: RateLimiter, name: string, request: WriteRequest<I>): WritePrepare<I> | undefined {
  if (!POLICY_COMMANDS.has(name)) return undefined;
  return async (input) => {
    const ask = await policyAsker(env, clock, limits, request);
    return ask ? ask(name, input) : unchanged(input);
  };
}

function unchanged<I>(input: I): Prepared<I> {
  return { input, extra: null, explain: () => null };
}

/**
 * The site's policies read once, then asked for any number of commands: a single write asks for
 * its own command, a bulk action (write-runner.ts `runBulk`) for each step of each id, exactly as
 * that step's single route would. Undefined when the site declares no content policy (one read).
 */
export async function policyAsker(env: Env, clock: Clock, limits: RateLimiter, request: Pick<WriteRequest<object>, "siteId" | "actor">): Promise<PolicyAsker | undefined> {
  const d1 = await siteScopedDatabase(env, request.siteId);
  const db = createDb(d1);
  const declared = await sitePolicies(db, request.siteId);
  if (declared.length === 0) return undefined;
  const site = await findSiteById(db, request.siteId);
  if (!site) return undefined;
  return async <I extends object>(name: string, input: I): Promise<Prepared<I>> => {
    const subject = await policySubject(db, site, name, input as Record<string, unknown>);
    if (!subject) return unchanged(input);
    const asks = policiesFor(declared, subject.model_id);
    if (asks.length === 0) return unchanged(input);
    const budget = policyBudget(env);
    for (let i = 0; i < asks.length; i++) {
      const spent = limits.take(`plugin-policy:${site.id}`, budget, POLICY_BUDGET.windowMs);
      if (!spent.allowed) {
        throw new AppError("plugin_policy_budget_exhausted", `The site's plugins were asked ${budget} times in the last minute; try again later.`, {
          retry_after: Math.ceil(spent.retryAfterMs / 1000),
          budget,
          window_ms: POLICY_BUDGET.windowMs,
        });
      }
    }
    const verdict = await askPolicies(env, asks, subject, request.actor, clock.now());
    const transformed = verdict.transformedBy.length > 0;
    return {
      input: transformed ? (withFields(input as Record<string, unknown>, verdict.fields) as I) : input,
      extra: verdict.results.length > 0 ? { policy_results: verdict.results } : null,
      explain: (failure) => (transformed && failure.code === "field_validation_failed" ? transformRefused(verdict, subject.lang, failure) : null),
    };
  };
}
