import type { CompiledQuery } from "kysely";
import type { OutboundPolicy } from "../../net/outbound-address";
import type { PolicyAsker } from "../plugins/policies";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * What a job step runs with: the write context of the site, plus the R2 bucket holding import files
 * and export pages. A step commits its own batches (a write step's items share a few, each item's
 * writes inside one, so a stop mid-step leaves every item either whole or untouched; docs/imports.md,
 * "Steps and their bound").
 */
export interface StepContext extends LifecycleContext {
  files: R2Bucket;
  /** How a step may call out (attachment URLs): the deployment's outbound policy and fetch. */
  outbound?: { policy: OutboundPolicy; fetch: (request: Request) => Promise<Response> };
  /**
   * The site's plugin content policies (undefined when it declares none): asked before each entry
   * write of an import step (imports/policies.ts); `spentMs` adds up the step's policy calls.
   */
  policies?: { ask: PolicyAsker; spentMs: number };
  /**
   * The statement ending the request's rule-5 step claim as `done` (objects/site/job-steps.ts). A
   * step may commit it in its last batch, with the job's move, and set `committed`: the runner then
   * spends no batch of its own on it. Left uncommitted, the runner ends the claim after the step.
   */
  claimDone?: { statement: CompiledQuery; committed: boolean };
}

/** A job step's answer: the body to send, and the cache tags its writes made stale. */
export interface StepAnswer<T> {
  body: T;
  purgeTags: string[];
  /** Outbox events the step's batches committed, handed to the queue after the step. */
  events?: { id: string; name: string }[];
}

/** Which table holds a job of this kind, and how its answer names it. */
export type JobKind = "import" | "export";

/**
 * Rule 5 of spec 2: when the job did not move since the claim, export steps, review choices, pause,
 * cancel and the upload's completion run again (`always`); `advanceImport`, `resumeImport`,
 * `advanceImportUndo`, `retryImportUndo` run again only after the first request ended with an
 * error (`after_error`).
 */
export type RerunRule = "always" | "after_error";

export interface JobStepDefinition<I> {
  job: JobKind;
  rerun: RerunRule;
  run: (ctx: StepContext, input: I & { job_id: string }) => Promise<StepAnswer<object>>;
  /** Whether the step writes entries and so asks the site's content policies (the runner reads them for it). */
  asksPolicies?: true;
  /** The job's current answer (a replay after the job moved). */
  current: (ctx: StepContext, jobId: string) => Promise<object>;
}
