import { commit } from "../../../db/batch";
import { modelRepository } from "../../../repositories/model-repository";
import { AppError } from "../../../errors";
import { commitPlan, type CommittedEvent } from "../../lifecycle/commit-plan";
import { createModel } from "../../models/create-model";
import { findingStatements, type Finding } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { rows } from "../statements";
import { createEntries } from "./entry-creates";
import { commitPublications, linkEntries, type PlannedPublication } from "./entry-links";
import { markItem, nextItems, workLeft, type ItemRow, type ModelRecord } from "./items";
import { holdForModelConflicts, importTargetModels, takeChosenModel } from "./model-conflicts";

/**
 * Entries one step creates or links (docs/imports.md, "Driftwood exports"), or models it creates:
 * as the WordPress step, about ten D1 reads an item (250 of the 1,000 queries a Worker invocation
 * may make; a batch is one), and at most {@link DRIFTWOOD_STEP_BYTES} of staged records.
 */
export const DRIFTWOOD_STEP_ITEMS = 25;
/** Staged record bytes after which a step takes no further entry (its batches stay a few MiB). */
export const DRIFTWOOD_STEP_BYTES = 1024 * 1024;
/** Roles and media records (not imported by this version) one step reports. */
export const DRIFTWOOD_STEP_OTHERS = 200;
/** Staged models one step looks at (a site's models, in dependency order). */
const MODELS_SCAN = 200;

const mark = (ctx: StepContext, job: ImportJobRow, seq: number, state: string, instanceId: string | null = null) => markItem(ctx, job, seq, state, instanceId);

/** Old model id → new id of the models this import created so far (a site's models: a bounded few). */
async function createdModels(ctx: StepContext, job: ImportJobRow): Promise<Map<string, string>> {
  const found = await rows<{ source_key: string; instance_id: string }>(ctx.d1, "SELECT source_key, instance_id FROM import_items WHERE job_id = ? AND kind = 'model' AND site_id = ? AND instance_id IS NOT NULL", [job.id, ctx.site.id]);
  return new Map(found.map((f) => [f.source_key, f.instance_id]));
}

/** Models first, each once the models its relations target exist (targets outside the file are dropped). */
async function modelStep(ctx: StepContext, job: ImportJobRow, staged: readonly ItemRow[], findings: Finding[]): Promise<number> {
  const made = await createdModels(ctx, job);
  const siteModels = new Map((await modelRepository(ctx.db, ctx.scope).list()).map((m) => [m.slug, m]));
  const inFile = new Set(staged.map((s) => s.source_key).concat([...made.keys()]));
  let done = 0;
  for (const item of staged) {
    if (done >= DRIFTWOOD_STEP_ITEMS) break;
    const record = JSON.parse(item.payload) as ModelRecord;
    // A model the site already has: mapped or left out, as the review chose (model-conflicts.ts).
    if (await takeChosenModel(ctx, job, item.seq, record, siteModels, made, findings)) {
      done++;
      continue;
    }
    const targets = record.fields.flatMap((f) => (f.type === "relation" && f.hierarchy !== true ? (f.targets ?? []) : [])).filter((t) => t !== record.id && inFile.has(t));
    if (targets.some((t) => !made.has(t))) continue; // a later step, once its targets exist
    const fields = record.fields
      .map(({ id: _id, ...field }) => {
        if (field.type !== "relation") return field;
        if (field.hierarchy === true) return { ...field, targets: undefined };
        const mapped = (field.targets ?? []).map((t) => (t === record.id ? "__self__" : made.get(t))).filter((t): t is string => t !== undefined);
        return { ...field, targets: mapped };
      })
      .filter((f) => f.type !== "relation" || f.hierarchy === true || (f.targets ?? []).length > 0);
    try {
      const plan = await createModel(ctx, { slug: record.slug, name: record.name, description: record.description, kind: record.kind, is_public: record.is_public, i18n: record.i18n, fields: fields as never });
      plan.statements.push(mark(ctx, job, item.seq, "written", plan.answer.id));
      await commitPlan(ctx, plan);
      made.set(record.id, plan.answer.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      findings.push({ item_seq: item.seq, code: "item_refused", message: `Model ${record.slug}: ${error.message}`, details: { code: error.code } });
      await commit(ctx.d1, [mark(ctx, job, item.seq, "skipped")]);
    }
    done++;
  }
  return done;
}

/**
 * One write step of a Driftwood export (docs/imports.md, "Driftwood exports"), the next phase with
 * work, each read by key and bounded by the step: models (in dependency order); then entries
 * created without their relations (a new item, or a language joining its item's new group), their
 * creates one D1 batch; then each entry's relations (old ids → new ids) saved as one batch and its
 * publication, with the first publication kept, the publications in the step's last batch; then
 * the roles and media records, reported `item_skipped`. Whether work is left after the phase is
 * an existence probe, never a count of what remains.
 */
export async function driftwoodWriteStep(ctx: StepContext, job: ImportJobRow): Promise<{ job: ImportJobRow; events: CommittedEvent[]; purgeTags: string[] }> {
  const out = { findings: [] as Finding[], events: [] as CommittedEvent[], purgeTags: [] as string[], markers: [] as ReturnType<typeof mark>[] };
  const { findings } = out;
  const bound = { items: DRIFTWOOD_STEP_ITEMS, bytes: DRIFTWOOD_STEP_BYTES };
  let handled = 0;
  let more = false;
  let paused: AppError | null = null;
  let publications: PlannedPublication[] = [];
  const models = await nextItems(ctx, job, "model", "staged", MODELS_SCAN + 1);
  if (models.length > 0) {
    // Models the site already has stop the job in review until the person chooses (model-conflicts.ts).
    const held = await holdForModelConflicts(ctx, job);
    if (held) return { job: held, events: [], purgeTags: [] };
    handled = await modelStep(ctx, job, models.slice(0, MODELS_SCAN), findings);
    if (handled === 0) {
      for (const m of models) findings.push({ item_seq: m.seq, code: "item_refused", message: "The model's relations form a cycle with models not created.", details: {} });
      await commit(ctx.d1, models.map((m) => mark(ctx, job, m.seq, "skipped")));
      handled = models.length;
    }
    more = models.length > handled || (await workLeft(ctx, job, "models"));
  } else {
    // Only models this import created or was told to map: never another that shares a slug.
    const bySlug = await importTargetModels(ctx, job);
    const staged = await nextItems(ctx, job, "entry", "staged", DRIFTWOOD_STEP_ITEMS + 1);
    if (staged.length > 0) {
      ({ handled, paused } = await createEntries(ctx, job, staged, bySlug, out, bound));
      more = staged.length > handled || (await workLeft(ctx, job, "creates"));
    } else {
      const written = await nextItems(ctx, job, "entry", "written", DRIFTWOOD_STEP_ITEMS + 1);
      if (written.length > 0) {
        const linked = await linkEntries(ctx, job, written, bySlug, out, bound);
        ({ handled, paused, publications } = linked);
        more = linked.left || (await workLeft(ctx, job, "links"));
      } else {
        const others = await nextItems(ctx, job, "other", "staged", DRIFTWOOD_STEP_OTHERS + 1);
        for (const o of others.slice(0, DRIFTWOOD_STEP_OTHERS)) {
          findings.push({ item_seq: o.seq, code: "item_skipped", message: "Roles and media of an export are not imported by this version.", details: {} });
          out.markers.push(mark(ctx, job, o.seq, "skipped"));
        }
        handled = Math.min(others.length, DRIFTWOOD_STEP_OTHERS);
        more = others.length > DRIFTWOOD_STEP_OTHERS;
      }
    }
  }
  const set = () => ({ state: more || paused ? ("writing" as const) : ("done" as const), items_done: Math.min(job.items_total, job.items_done + handled), findings_count: job.findings_count + findings.length });
  // The step's last batch: its publications, the item states and findings, the job's move.
  await commitPublications(ctx, job, publications, out, () => [...out.markers, ...findingStatements(ctx, job.id, job.findings_count, findings), ...moveJob(ctx, job, set())]);
  // An enforcing policy not asked (or the policy budget spent): the progress so far is kept, the
  // item waits staged, and the step answers the single write's refusal (advance again later).
  if (paused) throw paused;
  return { job: movedJob(ctx, job, set()), events: out.events, purgeTags: out.purgeTags };
}
