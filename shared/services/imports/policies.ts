import { AppError } from "../../errors";
import type { PolicyResult } from "../plugins/policies";
import type { Finding } from "./findings";
import type { StepContext } from "./job-step";

/**
 * Content policies on imports (spec 2 rule 14; docs/imports.md, "Content policies"): every entry
 * write of an import step — a create or a new language (a save), a relations save, a publication —
 * asks the site's plugin policies exactly as that single write would (the same command, input and
 * subject: objects/site/policy-step.ts), with `caller.via` of the person or credential running the
 * import. A refusal (or an invalid or conflicting transform) skips the item with an `item_refused`
 * finding naming the policy; a transform is written and reported (`policy_transformed`); an
 * advisory policy that could not be asked is reported (`policy_unavailable`). An enforcing policy
 * that could not be asked, or the site's spent policy budget, stops the step before that item
 * (the item stays staged, the progress so far is kept) and the step answers the single write's
 * 503 `plugin_policy_unavailable` / 429 `plugin_policy_budget_exhausted`: advance again later.
 */

/** Codes that pause the step (retry later) rather than skip the item. */
const PAUSING = new Set(["plugin_policy_unavailable", "plugin_policy_budget_exhausted"]);

/**
 * Decision: a step stops taking new items once its policy calls took this long together, so a slow
 * plugin holds the site's write queue (where import steps run) at most about this long plus one
 * item's calls (≤ 5000 ms each, asked at once) per step; the job goes on at the next advance.
 */
export const IMPORT_POLICY_STEP_MS = 1000;

export type AskedWrite<I> =
  | { ok: true; input: I; explain: (failure: { code: string; message: string; details?: Record<string, unknown> }) => AppError | null; results: PolicyResult[] }
  | { ok: false; error: AppError; pause: boolean };

/** Asks the policies about command `name` with `input` (the single write's), before the item is written. */
export async function askImportWrite<I extends object>(ctx: StepContext, name: string, input: I): Promise<AskedWrite<I>> {
  const policies = ctx.policies;
  if (!policies) return { ok: true, input, explain: () => null, results: [] };
  const started = Date.now();
  try {
    const prepared = await policies.ask(name, input);
    return { ok: true, input: prepared.input, explain: prepared.explain, results: prepared.extra?.policy_results ?? [] };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false, error, pause: PAUSING.has(error.code) };
  } finally {
    policies.spentMs += Date.now() - started;
  }
}

/** Whether the step's policy calls took their share of the queue: take no further item. */
export function policyTimeUp(ctx: StepContext): boolean {
  return (ctx.policies?.spentMs ?? 0) >= IMPORT_POLICY_STEP_MS;
}

/** The findings reporting a written item's policy results (a transform, an advisory policy not asked). */
export function policyFindings(seq: number, results: readonly PolicyResult[]): Finding[] {
  return results.map((r) =>
    r.outcome === "transformed"
      ? { item_seq: seq, code: "policy_transformed", message: `The policy "${r.policy_label}" of ${r.plugin_name} changed ${r.fields.join(", ")}${r.message ? `: ${r.message}` : "."}`, details: { ...r } }
      : { item_seq: seq, code: "policy_unavailable", message: `The advisory policy "${r.policy_label}" of ${r.plugin_name} could not be asked; the item was written.`, details: { ...r } },
  );
}

/** The finding of an item a policy refused (its names and the plugin's refusal in `details`). */
export function policyRefusalFinding(seq: number, error: AppError, doing: string): Finding {
  return { item_seq: seq, code: "item_refused", message: `${doing}: ${error.message}`, details: { code: error.code, ...(error.details ?? {}) } };
}
