import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import { modelRepository } from "../../../repositories/model-repository";
import type { LifecycleContext } from "../../lifecycle/context";
import type { StepAnswer, StepContext } from "../job-step";
import { importJobView, loadImportJob, movedJob, moveJob, requireImportPermission, requireState, type ImportJobView } from "../jobs";
import { mappedModels, proposedMapping, type FieldPlan, type WordPressMapping } from "./mapping";
import { decisionsOf, type WordPressDecisions } from "./review";
import { chooseModels, modelConflicts, type ModelChoice, type ModelConflict } from "../driftwood/model-conflicts";


export interface ImportMappingView {
  /** The models the review proposes (by slug), and the chosen ones (null until chosen). */
  proposed: WordPressMapping;
  chosen: WordPressMapping | null;
  /** Where each WordPress value goes in each mapped model, or the problems of the mapping in force. */
  fields: Record<string, FieldPlan>;
  problems: unknown;
  /** Whether write steps fetch attachment URLs not sent with uploadImportMedia (default false, as WordPress's importer). */
  fetch_attachments: boolean;
  /** A Driftwood import: the file's models the site already has, how they differ, and the choice made (driftwood/model-conflicts.ts). */
  models?: ModelConflict[];
}

/** A Driftwood import's mapping: no WordPress kinds, only its models the site already has. */
function driftwoodView(conflicts: ModelConflict[]): ImportMappingView {
  return { proposed: { post: null, page: null, category: null, tag: null }, chosen: null, fields: {}, problems: null, fetch_attachments: false, models: conflicts };
}

/** The mapping in force (chosen, else proposed) with its field plans, or its problems. */
async function mappingView(ctx: Pick<LifecycleContext, "db" | "scope">, decisions: WordPressDecisions | null): Promise<ImportMappingView> {
  const proposed = proposedMapping(await modelRepository(ctx.db, ctx.scope).list());
  const inForce = decisions?.mapping ?? proposed;
  let fields: Record<string, FieldPlan> = {};
  let problems: unknown = null;
  try {
    fields = Object.fromEntries([...(await mappedModels(ctx, inForce))].map(([kind, { plan }]) => [kind, plan]));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problems = error.details?.problems ?? null;
  }
  return { proposed, chosen: decisions?.mapping ?? null, fields, problems, fetch_attachments: decisions?.fetch_attachments === true };
}

/**
 * getImportMapping: the job's mapping (any state; after the writes it tells where the content went).
 * A Driftwood import's is its models the site already has (`models`), with how each differs.
 */
export async function importMapping(ctx: LifecycleContext, jobId: string): Promise<{ import: ImportJobView; mapping: ImportMappingView }> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, jobId);
  if (job.kind === "driftwood") return { import: importJobView(job), mapping: driftwoodView(await modelConflicts(ctx, job)) };
  return { import: importJobView(job), mapping: await mappingView(ctx, decisionsOf(job)) };
}

export interface PutImportMappingInput {
  job_id: string;
  mapping?: WordPressMapping;
  fetch_attachments?: boolean;
  /** A Driftwood import: per model the site already has (by slug), `existing` or `refuse`. */
  models?: Record<string, ModelChoice>;
}

/**
 * putImportMapping (a job step, rule 5 `always`): the models each kind goes into (checked now, 422
 * `import_mapping_invalid`) and whether attachment URLs are fetched. Only before the writes (the
 * review): what is written follows one mapping. The same choice as decideWordPressReview's `mapping`.
 */
export async function putImportMapping(ctx: StepContext, input: PutImportMappingInput): Promise<StepAnswer<{ import: ImportJobView; mapping: ImportMappingView }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  requireState(job, ["review"], "Changing the mapping");
  if (job.kind === "driftwood") {
    if (input.mapping !== undefined || input.fetch_attachments !== undefined || input.models === undefined) {
      throw new AppError("import_mapping_invalid", "A Driftwood import's mapping is `models`: per model the site already has, existing or refuse.", { problems: [{ reason: "driftwood_models_only" }] });
    }
    const chosen = await chooseModels(ctx, job, input.models);
    return { body: { import: importJobView(chosen.job), mapping: driftwoodView(chosen.conflicts) }, purgeTags: [] };
  }
  if (input.models !== undefined) throw new AppError("import_mapping_invalid", "`models` is the mapping of a Driftwood import; a WordPress import maps its kinds with `mapping`.", { problems: [{ reason: "wordpress_kinds_only" }] });
  const before = decisionsOf(job);
  const mapping = input.mapping ?? before?.mapping ?? proposedMapping(await modelRepository(ctx.db, ctx.scope).list());
  await mappedModels(ctx, mapping);
  const decisions: WordPressDecisions = {
    ...(before ?? { renames: {}, approved: false }),
    mapping,
    ...(input.fetch_attachments !== undefined ? { fetch_attachments: input.fetch_attachments } : {}),
  };
  const set = { decisions: JSON.stringify(decisions) };
  await commit(ctx.d1, moveJob(ctx, job, set));
  return { body: { import: importJobView(movedJob(ctx, job, set)), mapping: await mappingView(ctx, decisions) }, purgeTags: [] };
}
