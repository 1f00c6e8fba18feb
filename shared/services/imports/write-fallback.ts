import { commit } from "../../db/batch";
import { AppError } from "../../errors";
import type { PlannedBatch } from "../lifecycle/commit-plan";
import type { WritePlan } from "../lifecycle/context";
import type { EntryView } from "../lifecycle/entry-view";
import type { StepContext } from "./job-step";

/**
 * When a write step's group batch is refused as a whole (two items of the step wanting one address,
 * a unique value, an item's guard), its writes are committed again one at a time, so the refusal
 * stays one item's finding and the others are written (docs/imports.md, "Steps and their bound").
 */

/** A write planned for a step's batch: the plan (which explains its refusals) and its statements. */
export interface PlannedWrite {
  plan: WritePlan<EntryView>;
  planned: PlannedBatch<EntryView>;
}

/** A refusal as the plan explains it (the single route's own words), else as thrown. */
export async function explained(plan: WritePlan<EntryView>, error: AppError): Promise<AppError> {
  return plan.explain ? await plan.explain(error) : error;
}

/** Each write committed alone, in order: the ones written; each refusal handed to `refused`, explained. */
export async function commitEachAlone<T extends PlannedWrite>(ctx: StepContext, group: readonly T[], refused: (write: T, error: AppError) => void): Promise<T[]> {
  const written: T[] = [];
  for (const write of group) {
    try {
      await commit(ctx.d1, write.planned.statements);
      written.push(write);
    } catch (one) {
      if (!(one instanceof AppError)) throw one;
      refused(write, await explained(write.plan, one));
    }
  }
  return written;
}
