import type { Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScopedDatabase } from "../../shared/db/site-databases";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { findSiteById } from "../../shared/repositories/site-repository";
import { askPolicies, policiesFor, sitePolicies, transformRefused, type PolicyAsker, type Prepared } from "../../shared/services/plugins/policies";

export type { PolicyAsker, Prepared };
import { policySubject, POLICY_COMMANDS, SET_COMMANDS, setMembers, withFields } from "../../shared/services/plugins/policy-subjects";
import type { WriteRequest } from "./commands";
import type { RateLimiter } from "./rate-limits";

/**
 * The content-policy step of a write (spec 2 rule 14; docs/plugin-policies.md): run by the write
 * runner after the Idempotency-Key is claimed (a replay asks nothing) and BEFORE the write's queued
 * work. The write took its place in the queue on arrival; it gives it up just before a plugin is
 * asked, so the plugin calls (up to 5000 ms each, asked at once) never hold the site's other
 * writers (docs/write-fairness.md). Every policy asked spends one call of the site's budget, counted here.
 */

/** Decision: policy calls per site per window (docs/plugin-policies.md, "Budget"); PLUGIN_POLICY_BUDGET overrides the count. */
export const POLICY_BUDGET = { calls: 600, windowMs: 60_000 } as const;

export function policyBudget(env: Pick<Env, "PLUGIN_POLICY_BUDGET">): number {
  const n = Number(env.PLUGIN_POLICY_BUDGET ?? POLICY_BUDGET.calls);
  return Number.isSafeInteger(n) && n > 0 ? n : POLICY_BUDGET.calls;
}

/**
 * A write's step before its queued work (the content policies). `beforeRemote`, when given, is
 * called just before a plugin is asked: the write then gives up its place in the queue and joins
 * its end once the plugins answered, so their calls (up to 5000 ms) never hold the writers behind
 * it; a step that asks no plugin keeps the place taken on arrival (docs/write-fairness.md).
 */
export type WritePrepare<I> = ((input: I, beforeRemote?: () => void) => Promise<Prepared<I>>) & {
  /**
   * Set on a content-policy step (policyStep below): it asks nothing when the site declares no
   * content policy, so the write runner may learn that with the write's own first reads at its turn
   * (one D1 round trip fewer per write) and run the step only when the site declares one
   * (write-runner.ts, docs/write-fairness.md "CPU per write").
   */
  readonly noopWithoutPolicies?: true;
};

/**
 * Where a write runner gets the site's policies for a request: {@link policyAsker} bound to the
 * object's env, clock and budget (site-object.ts gives it to its WriteRunner).
 */
export type PolicySource = (request: Pick<WriteRequest<object>, "siteId" | "actor">) => Promise<PolicyAsker | undefined>;

/** The policy step of command `name`, or undefined when the command asks no policy (write-runner.ts `policyStep`). */
export function policyStep<I extends object>(source: PolicySource, name: string, request: WriteRequest<I>): WritePrepare<I> | undefined {
  if (!POLICY_COMMANDS.has(name)) return undefined;
  const step = async (input: I, beforeRemote?: () => void) => {
    const ask = await source(request);
    return ask ? ask(name, input, beforeRemote) : unchanged(input);
  };
  // policyAsker answers undefined (nothing asked) exactly when the site declares no content policy.
  return Object.assign(step, { noopWithoutPolicies: true as const });
}

function unchanged<I>(input: I): Prepared<I> {
  return { input, extra: null, explain: () => null };
}

/**
 * The site's policies read once, then asked for any number of commands: a single write asks for
 * its own command, a bulk action (bulk-runner.ts `runBulk`) for each step of each id, exactly as
 * that step's single route would, and a set command (a release, a firing schedule) for each entry
 * language it changes, all at once. Undefined when the site declares no content policy (one read).
 */
export async function policyAsker(env: Env, clock: Clock, limits: RateLimiter, request: Pick<WriteRequest<object>, "siteId" | "actor">): Promise<PolicyAsker | undefined> {
  const d1 = await siteScopedDatabase(env, request.siteId);
  const db = createDb(d1);
  const declared = await sitePolicies(db, request.siteId);
  if (declared.length === 0) return undefined;
  const site = await findSiteById(db, request.siteId);
  if (!site) return undefined;
  const budget = policyBudget(env);
  /** Spends `calls` of the site's budget before any is asked (a set command spends for all its members first). */
  const spend = (calls: number) => {
    for (let i = 0; i < calls; i++) {
      const spent = limits.take(`plugin-policy:${site.id}`, budget, POLICY_BUDGET.windowMs);
      if (!spent.allowed) {
        throw new AppError("plugin_policy_budget_exhausted", `The site's plugins were asked ${budget} times in the last minute; try again later.`, {
          retry_after: Math.ceil(spent.retryAfterMs / 1000),
          budget,
          window_ms: POLICY_BUDGET.windowMs,
        });
      }
    }
  };
  const single = async <I extends object>(name: string, input: I, beforeRemote?: () => void): Promise<Prepared<I>> => {
    const subject = await policySubject(db, site, name, input as Record<string, unknown>);
    if (!subject) return unchanged(input);
    const asks = policiesFor(declared, subject.model_id);
    if (asks.length === 0) return unchanged(input);
    spend(asks.length);
    beforeRemote?.();
    const verdict = await askPolicies(env, asks, subject, request.actor, clock.now());
    const transformed = verdict.transformedBy.length > 0;
    return {
      input: transformed ? (withFields(input as Record<string, unknown>, verdict.fields) as I) : input,
      extra: verdict.results.length > 0 ? { policy_results: verdict.results } : null,
      explain: (failure) => (transformed && failure.code === "field_validation_failed" ? transformRefused(verdict, subject.lang, failure) : null),
    };
  };
  /**
   * A set command: every member asked as its single publish or unpublish would be, all at once.
   * Any member refused (or its enforcing policy unavailable) refuses the whole set with the first
   * refused member's own code, naming it (`change`, `instance_id`) and listing every refused
   * member in `problems` (the release's problem shape); nothing of the set is written.
   */
  const set = async <I extends object>(name: string, input: I, beforeRemote?: () => void): Promise<Prepared<I>> => {
    const members = await setMembers(db, site, name, input as Record<string, unknown>);
    const asked = (
      await Promise.all(
        members.map(async (member) => {
          const subject = await policySubject(db, site, member.command, { instance_id: member.instance_id });
          return subject ? { member, subject, asks: policiesFor(declared, subject.model_id) } : null;
        }),
      )
    ).filter((one): one is NonNullable<typeof one> => one !== null && one.asks.length > 0);
    if (asked.length === 0) return unchanged(input);
    spend(asked.reduce((n, one) => n + one.asks.length, 0));
    beforeRemote?.();
    const now = clock.now();
    const settled = await Promise.allSettled(asked.map((one) => askPolicies(env, one.asks, one.subject, request.actor, now)));
    const problems: SetProblem[] = [];
    const results = settled.flatMap((outcome, i) => {
      const one = asked[i];
      if (!one) return [];
      if (outcome.status === "fulfilled") return outcome.value.results;
      if (!(outcome.reason instanceof AppError)) throw outcome.reason;
      const error = outcome.reason;
      problems.push({ index: one.member.index, instance_id: one.member.instance_id, lang: one.subject.lang, action: one.member.command, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), error });
      return [];
    });
    const first = problems[0];
    if (first) {
      const listed = problems.map(({ error: _error, ...problem }) => problem);
      throw new AppError(first.error.code, first.error.message, { ...first.error.details, change: first.index, instance_id: first.instance_id, problems: listed });
    }
    return { input, extra: results.length > 0 ? { policy_results: results } : null, explain: () => null };
  };
  return async <I extends object>(name: string, input: I, beforeRemote?: () => void): Promise<Prepared<I>> =>
    SET_COMMANDS.has(name) ? set(name, input, beforeRemote) : single(name, input, beforeRemote);
}

/** A refused member of a set command, with its error (the first names the set's refusal). */
interface SetProblem {
  index: number;
  instance_id: string;
  lang: string;
  action: string;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  error: AppError;
}
