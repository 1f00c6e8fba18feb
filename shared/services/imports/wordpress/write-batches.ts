import type { CompiledQuery } from "kysely";
import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import { planStatements, type Committed, type CommittedEvent } from "../../lifecycle/commit-plan";
import type { EntryView } from "../../lifecycle/entry-view";
import { publishEntry } from "../../lifecycle/transitions";
import type { Finding } from "../findings";
import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { askImportWrite, policyFindings, type AskedWrite } from "../policies";
import { statement } from "../statements";
import { refusalFinding } from "./item-findings";
import { commitEachAlone, type PlannedWrite } from "../write-fallback";
import type { StagedRow } from "./write-grouping";

/**
 * The batches of a WordPress write step (docs/imports.md, "Steps and their bound"): the creates of a
 * run of items written together are one D1 batch (each with its item's new state); their
 * publications, the step's findings, the job's move and the end of the request's step claim are the
 * step's last batch. A refused batch falls back to one write at a time (write-fallback.ts). Holds
 * what the step has planned and what it has to report.
 */

/** A created item's publication, planned and waiting for the step's next batch. */
interface PlannedPublication extends PlannedWrite {
  item: StagedRow;
}

/** A create planned and waiting for the step's next batch. */
export interface PlannedCreate extends PlannedWrite {
  item: StagedRow;
  publish: boolean;
  asked: Extract<AskedWrite<object>, { ok: true }>;
}

export class StepBatches {
  readonly findings: Finding[] = [];
  readonly events: CommittedEvent[] = [];
  readonly purgeTags: string[] = [];
  /** Item states and other statements of the step's last batch. */
  readonly markers: CompiledQuery[] = [];
  readonly creates: PlannedCreate[] = [];
  readonly #publications: PlannedPublication[] = [];

  constructor(
    private readonly ctx: StepContext,
    private readonly job: ImportJobRow,
  ) {}

  #committed(done: Committed<EntryView>): void {
    this.events.push(...done.events);
    this.purgeTags.push(...done.purgeTags);
  }

  /** Plans the publication of a created item (asked of the policies first); a refusal keeps it a draft. */
  async #planPublication(item: StagedRow, instanceId: string): Promise<void> {
    const { ctx, job } = this;
    try {
      const allowed = await askImportWrite(ctx, "publish", { instance_id: instanceId });
      // A publication the policies refuse or cannot be asked about leaves the item a draft, reported.
      if (!allowed.ok) throw allowed.error;
      this.findings.push(...policyFindings(item.seq, allowed.results));
      const plan = await publishEntry(ctx, { instance_id: instanceId });
      plan.statements.push(statement("UPDATE import_items SET state = 'published' WHERE site_id = ? AND job_id = ? AND seq = ?", [ctx.site.id, job.id, item.seq]));
      this.#publications.push({ item, plan, planned: await planStatements(ctx, plan) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.findings.push(refusalFinding(item.seq, error, `Publishing ${item.kind} ${item.source_key} (kept as a draft)`));
    }
  }

  /** Commits the planned creates: one batch, or one item at a time when that batch is refused. */
  async commitCreates(): Promise<void> {
    const { ctx, job } = this;
    const group = this.creates.splice(0);
    if (group.length === 0) return;
    const refused = (c: PlannedCreate, error: AppError) => {
      // Values a transform wrote and the create then refused: the transform was invalid (as for a single save).
      this.findings.push(refusalFinding(c.item.seq, c.asked.explain(error.toFailure()) ?? error, `Creating ${c.item.kind} ${c.item.source_key}`));
      this.markers.push(statement("UPDATE import_items SET state = 'skipped' WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged'", [ctx.site.id, job.id, c.item.seq]));
    };
    let written: PlannedCreate[];
    try {
      await commit(ctx.d1, group.flatMap((c) => c.planned.statements));
      written = group;
    } catch {
      // Whatever refused the group (an item's guard, or the batch itself), each item alone says which.
      written = await commitEachAlone(ctx, group, refused);
    }
    for (const c of written) {
      this.#committed(c.planned.committed);
      this.findings.push(...policyFindings(c.item.seq, c.asked.results));
      if (c.publish) await this.#planPublication(c.item, c.plan.answer.instance_id);
    }
  }

  /**
   * Commits the planned publications with `last()` (the step's closing statements, built after
   * them so they hold every finding): one batch, or each publication alone then `last()` when that
   * batch is refused.
   */
  async commitPublications(last: () => CompiledQuery[]): Promise<void> {
    const { ctx } = this;
    const group = this.#publications.splice(0);
    try {
      await commit(ctx.d1, [...group.flatMap((p) => p.planned.statements), ...last()]);
      for (const p of group) this.#committed(p.planned.committed);
      return;
    } catch (error) {
      if (group.length === 0) throw error;
    }
    const written = await commitEachAlone(ctx, group, (p, one) => {
      this.findings.push(refusalFinding(p.item.seq, one, `Publishing ${p.item.kind} ${p.item.source_key} (kept as a draft)`));
    });
    for (const p of written) this.#committed(p.planned.committed);
    await commit(ctx.d1, last());
  }

  /** Everything planned so far committed (and published), before an item that reads it. */
  async flush(): Promise<void> {
    await this.commitCreates();
    if (this.#publications.length > 0) await this.commitPublications(() => []);
  }
}
