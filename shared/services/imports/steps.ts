import { commit } from "../../db/batch";
import type { JobStepDefinition, StepAnswer, StepContext } from "./job-step";
import { importJobView, loadImportJob, movedJob, moveJob, requireImportPermission, requireState, type ImportJobRow, type ImportJobView, type ImportState } from "./jobs";
import { statement } from "./statements";
import { completeImportUpload } from "./upload";
import { retryUndoStatements, undoStep } from "./undo";
import { driftwoodParseStep } from "./driftwood/parse-step";
import { driftwoodWriteStep } from "./driftwood/write-step";
import { wordpressParseStep } from "./wordpress/parse-step";
import { decideWordPressReview, type DecideInput } from "./wordpress/review";
import { wordpressWriteStep } from "./wordpress/write-step";
import { putImportMapping, type PutImportMappingInput } from "./wordpress/mapping-routes";
import { putHistoryAssignments, type PutHistoryAssignmentsInput } from "./wordpress/principals";

type ImportAnswer = StepAnswer<{ import: ImportJobView }>;

const answer = (job: ImportJobRow, extra: Partial<StepAnswer<object>> = {}): ImportAnswer => ({ body: { import: importJobView(job) }, purgeTags: extra.purgeTags ?? [], ...(extra.events ? { events: extra.events } : {}) });

async function loaded(ctx: StepContext, jobId: string): Promise<ImportJobRow> {
  requireImportPermission(ctx);
  return loadImportJob(ctx, jobId);
}

/**
 * advanceImport: one bounded step of whatever the job does now — read the next part of the file
 * (uploaded, parsing), write the next items (review once approved, writing). A review not yet
 * approved is 409 `import_review_pending`; a state with nothing to advance is `import_state_conflict`.
 */
async function advanceImport(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, ["uploaded", "parsing", "review", "writing"], "Advancing");
  const driftwood = job.kind === "driftwood";
  if (job.state === "uploaded" || job.state === "parsing") return answer(await (driftwood ? driftwoodParseStep(ctx, job) : wordpressParseStep(ctx, job)));
  // The versions an import writes say so ("Updated by": the import, docs/admin-ui-lists.md).
  const writing: StepContext = { ...ctx, writtenVia: `import:${job.id}` };
  const written = await (driftwood ? driftwoodWriteStep(writing, job) : wordpressWriteStep(writing, job));
  return answer(written.job, { events: written.events, purgeTags: written.purgeTags });
}

const PAUSABLE: readonly ImportState[] = ["uploaded", "parsing", "review", "writing"];

async function pauseImport(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, PAUSABLE, "Pausing");
  const set = { state: "paused" as const, paused_from: job.state };
  await commit(ctx.d1, moveJob(ctx, job, set));
  return answer(movedJob(ctx, job, set));
}

async function resumeImport(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, ["paused"], "Resuming");
  const set = { state: job.paused_from ?? ("uploaded" as const), paused_from: null };
  await commit(ctx.d1, moveJob(ctx, job, set));
  return answer(movedJob(ctx, job, set));
}

/**
 * cancelImport: the job stops for good; an upload in progress is aborted, staged items that were
 * never written are dropped. Entries already written stay (advanceImportUndo removes them).
 */
async function cancelImport(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, ["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused"], "Cancelling");
  if (job.upload_id) await ctx.files.resumeMultipartUpload(job.object_key, job.upload_id).abort().catch(() => undefined);
  const set = { state: "cancelled" as const, paused_from: null, upload_id: null };
  await commit(ctx.d1, [...moveJob(ctx, job, set), statement("DELETE FROM import_items WHERE site_id = ? AND job_id = ? AND state = 'staged'", [ctx.site.id, job.id])]);
  return answer(movedJob(ctx, job, set));
}

/** advanceImportUndo: one undo step of a finished or cancelled import (docs/imports.md, "Undo"). */
async function advanceImportUndo(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, ["done", "cancelled", "undoing"], "Undoing");
  const undone = await undoStep(ctx, job);
  return answer(undone.job, { events: undone.events, purgeTags: undone.purgeTags });
}

/** retryImportUndo: the removals that failed are tried again, now (one undo step). */
async function retryImportUndo(ctx: StepContext, input: { job_id: string }): Promise<ImportAnswer> {
  const job = await loaded(ctx, input.job_id);
  requireState(job, ["undone", "undoing"], "Retrying the undo");
  const set = { state: "undoing" as const };
  await commit(ctx.d1, [...(await retryUndoStatements(ctx, job)), ...moveJob(ctx, job, set)]);
  const undone = await undoStep(ctx, movedJob(ctx, job, set));
  return answer(undone.job, { events: undone.events, purgeTags: undone.purgeTags });
}

const current = async (ctx: StepContext, jobId: string) => ({ import: importJobView(await loadImportJob(ctx, jobId)) });

const importStep = <I>(rerun: "always" | "after_error", run: (ctx: StepContext, input: I & { job_id: string }) => Promise<StepAnswer<object>>): JobStepDefinition<I> => ({ job: "import", rerun, run, current });

/** Every job step of imports by operation, with its rule-5 rerun rule (job-step.ts). */
export const IMPORT_STEPS = {
  completeImportUpload: importStep<{ sha256: string }>("always", completeImportUpload),
  // The one step writing entries: it asks the site's content policies (imports/policies.ts).
  advanceImport: { ...importStep<object>("after_error", advanceImport), asksPolicies: true },
  pauseImport: importStep<object>("always", pauseImport),
  resumeImport: importStep<object>("after_error", resumeImport),
  cancelImport: importStep<object>("always", cancelImport),
  decideWordPressReview: importStep<Omit<DecideInput, "job_id">>("always", decideWordPressReview),
  putImportMapping: importStep<Omit<PutImportMappingInput, "job_id">>("always", putImportMapping),
  putHistoryAssignments: importStep<Omit<PutHistoryAssignmentsInput, "job_id">>("always", putHistoryAssignments),
  advanceImportUndo: importStep<object>("after_error", advanceImportUndo),
  retryImportUndo: importStep<object>("after_error", retryImportUndo),
} as const;
