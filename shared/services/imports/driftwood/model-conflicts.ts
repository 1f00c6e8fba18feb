import type { FieldDefinition } from "../../../../schema/model-definition";
import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import { modelRepository, type Model } from "../../../repositories/model-repository";
import type { LifecycleContext } from "../../lifecycle/context";
import { findingStatements, type Finding } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { rows } from "../statements";
import { markItem } from "./items";

/**
 * A Driftwood export imported into a site that already holds a model of the same slug
 * (docs/imports.md, "Driftwood exports: models the site already has"). Probe finding (session 15):
 * the import silently wrote the file's entries into the site's model, even when its fields differed.
 * Now the job stops in `review` with one `model_conflict` finding per such model, naming the fields
 * that differ, and the person chooses per model — `existing` (only when compatible) or `refuse`
 * (the model and its entries are skipped) — with putImportMapping `{ models }`. Nothing is ever
 * written into a model the person did not choose.
 */
export type ModelChoice = "existing" | "refuse";

/** How an exported field and the site's model differ. */
export interface FieldDifference {
  key: string;
  /** `not_on_site`: the export has it, the site's model not; `type`: both, of other types; `required_not_exported`: the site's model requires a field the export lacks. */
  difference: "not_on_site" | "type" | "required_not_exported";
  exported_type: string | null;
  site_type: string | null;
}

export interface ModelConflict {
  model: string;
  existing_model_id: string;
  /** Every exported value has a field of its type, every required field of the site is exported, and the kinds agree. */
  compatible: boolean;
  kind: { exported: string; site: string } | null;
  fields: FieldDifference[];
  /** The person's choice so far (null: not chosen; the job waits in review). */
  choice: ModelChoice | null;
}

interface ModelRecordShape {
  id: string;
  slug: string;
  kind: "collection" | "single";
  fields: FieldDefinition[];
}

interface ModelItem {
  seq: number;
  state: string;
  payload: string;
}

/** The choices recorded for a Driftwood job (its `decisions` column). */
export function driftwoodChoices(job: Pick<ImportJobRow, "decisions">): Record<string, ModelChoice> {
  const parsed = job.decisions ? (JSON.parse(job.decisions) as { models?: Record<string, ModelChoice> }) : null;
  return parsed?.models ?? {};
}

/** How the exported model `record` differs from the site's model of the same slug. */
export function compareModel(record: ModelRecordShape, existing: Model, choice: ModelChoice | null): ModelConflict {
  const site = new Map(existing.fields.map((f) => [f.key, f]));
  const exported = new Set(record.fields.map((f) => f.key));
  const fields: FieldDifference[] = [];
  for (const f of record.fields) {
    const mine = site.get(f.key);
    if (!mine) fields.push({ key: f.key, difference: "not_on_site", exported_type: f.type, site_type: null });
    else if (mine.type !== f.type) fields.push({ key: f.key, difference: "type", exported_type: f.type, site_type: mine.type });
  }
  for (const f of existing.fields) if (f.required === true && !exported.has(f.key)) fields.push({ key: f.key, difference: "required_not_exported", exported_type: null, site_type: f.type });
  const kind = record.kind === existing.kind ? null : { exported: record.kind, site: existing.kind };
  return { model: record.slug, existing_model_id: existing.id, compatible: fields.length === 0 && kind === null, kind, fields, choice };
}

/** The job's model items whose slug a model of the site held before (not one this job created). */
async function conflictsOf(ctx: Pick<LifecycleContext, "d1" | "db" | "scope" | "site">, job: ImportJobRow): Promise<{ item: ModelItem; conflict: ModelConflict }[]> {
  const items = await rows<ModelItem>(ctx.d1, "SELECT seq, state, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'model' AND state <> 'written' ORDER BY seq", [ctx.site.id, job.id]);
  if (items.length === 0) return [];
  const bySlug = new Map((await modelRepository(ctx.db, ctx.scope).list()).map((m) => [m.slug, m]));
  const choices = driftwoodChoices(job);
  return items.flatMap((item) => {
    const record = JSON.parse(item.payload) as ModelRecordShape;
    const existing = bySlug.get(record.slug);
    return existing ? [{ item, conflict: compareModel(record, existing, choices[record.slug] ?? null) }] : [];
  });
}

/** The conflicts of a Driftwood job with the person's choices (getImportMapping, putImportMapping). */
export async function modelConflicts(ctx: Pick<LifecycleContext, "d1" | "db" | "scope" | "site">, job: ImportJobRow): Promise<ModelConflict[]> {
  return (await conflictsOf(ctx, job)).map((c) => c.conflict);
}

/**
 * Before a write step writes models: a model of the file whose slug the site holds and that has no
 * choice yet stops the job. From `writing` (the first time) the job moves to `review` with one
 * `model_conflict` finding per conflict (the step's answer); in `review`, advancing is 409
 * `import_review_pending` naming the models still to choose. Null: every conflict is chosen.
 */
export async function holdForModelConflicts(ctx: StepContext, job: ImportJobRow): Promise<ImportJobRow | null> {
  const conflicts = await conflictsOf(ctx, job);
  const open = conflicts.filter((c) => c.conflict.choice === null && c.item.state === "staged");
  if (open.length === 0) return null;
  if (job.state === "review") {
    throw new AppError("import_review_pending", "Choose, for each model the site already has, whether the import writes into it or leaves it out (putImportMapping with models).", { models: open.map((c) => c.conflict.model) });
  }
  const findings: Finding[] = open.map(({ item, conflict }) => ({
    item_seq: item.seq,
    code: "model_conflict",
    message: conflict.compatible
      ? `The site already has a model "${conflict.model}" that can hold this model's entries; choose whether they go into it.`
      : `The site already has a model "${conflict.model}" whose fields differ (${conflict.fields.map((f) => f.key).join(", ") || "its kind"}); its entries can only be left out.`,
    details: { ...conflict },
  }));
  const set = { state: "review" as const, findings_count: job.findings_count + findings.length };
  await commit(ctx.d1, [...findingStatements(ctx, job.id, job.findings_count, findings), ...moveJob(ctx, job, set)]);
  return movedJob(ctx, job, set);
}

/**
 * A staged model whose slug the site holds, as the person chose: `existing` maps the file's model
 * to the site's (state `mapped`: relations and entries of the file then target it; undo never
 * removes it), `refuse` skips it (its entries are skipped too, having no model of this import).
 * False when the slug is free: the model is created as before. `siteModels`: the site's models by
 * slug, read once by the step (not once a model).
 */
export async function takeChosenModel(
  ctx: StepContext,
  job: ImportJobRow,
  seq: number,
  record: ModelRecordShape,
  siteModels: ReadonlyMap<string, Model>,
  made: Map<string, string>,
  findings: Finding[],
): Promise<boolean> {
  const existing = siteModels.get(record.slug);
  if (!existing) return false;
  const choice = driftwoodChoices(job)[record.slug] ?? "refuse";
  const conflict = compareModel(record, existing, choice);
  const mapped = choice === "existing" && conflict.compatible;
  if (!mapped) findings.push({ item_seq: seq, code: "item_skipped", message: `Model ${record.slug}: left out (the site's model of this slug was not chosen); its entries are not imported.`, details: { reason: "model_conflict", model: record.slug } });
  await commit(ctx.d1, [markItem(ctx, job, seq, mapped ? "mapped" : "skipped", mapped ? existing.id : null)]);
  if (mapped) made.set(record.id, existing.id);
  return true;
}

/**
 * The models a Driftwood job's entries go into, by slug: only those it created or was told to map
 * (never another site model that happens to share a slug).
 */
export async function importTargetModels(ctx: StepContext, job: ImportJobRow): Promise<Map<string, Model>> {
  const ids = new Set((await rows<{ instance_id: string }>(ctx.d1, "SELECT instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'model' AND state IN ('written', 'mapped') AND instance_id IS NOT NULL", [ctx.site.id, job.id])).map((r) => r.instance_id));
  return new Map((await modelRepository(ctx.db, ctx.scope).list()).filter((m) => ids.has(m.id)).map((m) => [m.slug, m]));
}

/**
 * putImportMapping `{ models }` of a Driftwood job in review: a choice per model the site already
 * has. 422 `import_mapping_invalid` for a model that is no conflict of the job, or `existing` for
 * one whose fields differ (details name them). The choices are kept in the job's decisions.
 */
export async function chooseModels(ctx: StepContext, job: ImportJobRow, models: Record<string, ModelChoice>): Promise<{ job: ImportJobRow; conflicts: ModelConflict[] }> {
  const conflicts = await modelConflicts(ctx, job);
  const bySlug = new Map(conflicts.map((c) => [c.model, c]));
  const problems = Object.entries(models).flatMap(([slug, choice]) => {
    const conflict = bySlug.get(slug);
    if (!conflict) return [{ model: slug, reason: "not_a_conflict" }];
    if (choice === "existing" && !conflict.compatible) return [{ model: slug, reason: "incompatible", fields: conflict.fields, kind: conflict.kind }];
    return [];
  });
  if (problems.length > 0) throw new AppError("import_mapping_invalid", "Only a model the site already has may be chosen, and only a compatible one may take the file's entries.", { problems });
  const decisions = { models: { ...driftwoodChoices(job), ...models } };
  const set = { decisions: JSON.stringify(decisions) };
  await commit(ctx.d1, moveJob(ctx, job, set));
  const moved = movedJob(ctx, job, set);
  return { job: moved, conflicts: conflicts.map((c) => ({ ...c, choice: decisions.models[c.model] ?? null })) };
}
