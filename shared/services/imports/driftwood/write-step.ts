import type { FieldDefinition } from "../../../../schema/model-definition";
import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import type { Model } from "../../../repositories/model-repository";
import { commitPlan, type CommittedEvent } from "../../lifecycle/commit-plan";
import { addLanguage } from "../../lifecycle/add-language";
import { createEntry } from "../../lifecycle/create-entry";
import { saveDraft } from "../../lifecycle/save-draft";
import { publishEntry } from "../../lifecycle/transitions";
import { createModel } from "../../models/create-model";
import { findingStatements, type Finding } from "../findings";
import { askImportWrite, policyFindings, policyRefusalFinding, policyTimeUp } from "../policies";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { firstRow, rows, statement } from "../statements";
import { holdForModelConflicts, importTargetModels, takeChosenModel } from "./model-conflicts";

/** Entries (or models) one step writes (docs/imports.md, "Driftwood exports"). */
export const DRIFTWOOD_STEP_ITEMS = 10;

interface ItemRow {
  seq: number;
  kind: string;
  source_key: string;
  payload: string;
  instance_id: string | null;
}

interface ModelRecord {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  kind: "collection" | "single";
  is_public: boolean;
  i18n: boolean;
  fields: FieldDefinition[];
}

interface EntryRecord {
  instance_id: string;
  translation_group_id: string;
  model: string;
  lang: string;
  slug: string | null;
  current: { fields: Record<string, unknown> } | null;
  published: { fields: Record<string, unknown> } | null;
  first_published_at: string | null;
}

const mark = (ctx: StepContext, job: ImportJobRow, seq: number, state: string, instanceId: string | null = null) =>
  statement("UPDATE import_items SET state = ?, instance_id = COALESCE(?, instance_id) WHERE site_id = ? AND job_id = ? AND seq = ?", [state, instanceId, ctx.site.id, job.id, seq]);

/** Old id → new id of what this import created so far (models, entries). */
async function created(ctx: StepContext, job: ImportJobRow, kind: string): Promise<Map<string, string>> {
  const found = await rows<{ source_key: string; instance_id: string }>(ctx.d1, "SELECT source_key, instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND instance_id IS NOT NULL", [ctx.site.id, job.id, kind]);
  return new Map(found.map((f) => [f.source_key, f.instance_id]));
}

/** Replaces every old entry id inside a relation value by the new one; null when a target was not imported. */
function mapIds(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === "string") return ids.get(value) ?? null;
  if (Array.isArray(value)) return value.map((v) => mapIds(v, ids)).filter((v) => v !== null);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === "id" ? mapIds(v, ids) : k === "model" ? v : mapIds(v, ids);
    return out;
  }
  return value;
}

/** Models first, each once the models its relations target exist (targets outside the file are dropped). */
async function modelStep(ctx: StepContext, job: ImportJobRow, staged: ItemRow[], findings: Finding[]): Promise<number> {
  const made = await created(ctx, job, "model");
  const inFile = new Set(staged.map((s) => s.source_key).concat([...made.keys()]));
  let done = 0;
  for (const item of staged) {
    if (done >= DRIFTWOOD_STEP_ITEMS) break;
    const record = JSON.parse(item.payload) as ModelRecord;
    // A model the site already has: mapped or left out, as the review chose (model-conflicts.ts).
    if (await takeChosenModel(ctx, job, item.seq, record, made, findings)) {
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
 * One write step of a Driftwood export: models (in dependency order), then entries without their
 * relations (a new item, or a language joining its item's new group), then each entry's relations
 * (old ids → new ids) and its publication with the first publication kept.
 */
export async function driftwoodWriteStep(ctx: StepContext, job: ImportJobRow): Promise<{ job: ImportJobRow; events: CommittedEvent[]; purgeTags: string[] }> {
  const findings: Finding[] = [];
  const events: CommittedEvent[] = [];
  const purgeTags: string[] = [];
  const items = (state: string, kind: string) =>
    rows<ItemRow>(ctx.d1, "SELECT seq, kind, source_key, payload, instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND state = ? ORDER BY seq LIMIT ?", [ctx.site.id, job.id, kind, state, 200]);
  const models = await items("staged", "model");
  let handled = 0;
  let paused: AppError | null = null;
  if (models.length > 0) {
    // Models the site already has stop the job in review until the person chooses (model-conflicts.ts).
    const held = await holdForModelConflicts(ctx, job);
    if (held) return { job: held, events: [], purgeTags: [] };
    handled = await modelStep(ctx, job, models, findings);
    if (handled === 0) {
      for (const m of models) findings.push({ item_seq: m.seq, code: "item_refused", message: "The model's relations form a cycle with models not created.", details: {} });
      await commit(ctx.d1, models.map((m) => mark(ctx, job, m.seq, "skipped")));
      handled = models.length;
    }
  } else {
    // Only models this import created or was told to map: never another that shares a slug.
    const bySlug = await importTargetModels(ctx, job);
    const entries = (await items("staged", "entry")).slice(0, DRIFTWOOD_STEP_ITEMS);
    for (const item of entries) {
      if (policyTimeUp(ctx)) break;
      const record = JSON.parse(item.payload) as EntryRecord;
      const model = bySlug.get(record.model);
      const source = record.published ?? record.current;
      if (!model || !source) {
        handled++;
        findings.push({ item_seq: item.seq, code: "item_skipped", message: `No model ${record.model} was created or chosen for this import.`, details: {} });
        await commit(ctx.d1, [mark(ctx, job, item.seq, "skipped")]);
        continue;
      }
      const relationKeys = new Set(model.fields.filter((f) => f.type === "relation").map((f) => f.key));
      // Values of a field the model lacks are left out: a relation the import dropped because its
      // target model is not in the file or was left out at review (model-conflicts.ts).
      const keys = new Set(model.fields.map((f) => f.key));
      const fields = Object.fromEntries(Object.entries(source.fields).filter(([k]) => keys.has(k) && !relationKeys.has(k)));
      let explain: ((failure: { code: string; message: string; details?: Record<string, unknown> }) => AppError | null) | undefined;
      try {
        const sibling = await firstRow<{ instance_id: string }>(
          ctx.d1,
          "SELECT instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'entry' AND instance_id IS NOT NULL AND json_extract(payload, '$.translation_group_id') = ? LIMIT 1",
          [ctx.site.id, job.id, record.translation_group_id],
        );
        // The content policies are asked as the single create or new language would ask them.
        const asked = sibling
          ? await askImportWrite(ctx, "addLanguage", { instance_id: sibling.instance_id, lang: record.lang, ...(record.slug ? { slug: record.slug } : {}), fields })
          : await askImportWrite(ctx, "createEntry", { model_id: model.id, lang: record.lang, slug: record.slug, fields });
        if (!asked.ok && asked.pause) {
          paused = asked.error;
          break;
        }
        handled++;
        if (!asked.ok) {
          findings.push(policyRefusalFinding(item.seq, asked.error, `Entry ${record.slug ?? record.instance_id}`));
          await commit(ctx.d1, [mark(ctx, job, item.seq, "skipped")]);
          continue;
        }
        explain = asked.explain;
        const plan = await ("model_id" in asked.input ? createEntry(ctx, asked.input) : addLanguage(ctx, asked.input));
        plan.statements.push(
          statement("UPDATE import_items SET state = 'written', instance_id = ?, group_id = ?, version_id = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [plan.answer.instance_id, plan.answer.translation_group_id, plan.answer.current_version_id, ctx.site.id, job.id, item.seq]),
          ...(record.published && record.first_published_at ? [statement("UPDATE entries SET first_published_at = ? WHERE site_id = ? AND instance_id = ?", [record.first_published_at, ctx.site.id, plan.answer.instance_id])] : []),
        );
        events.push(...(await commitPlan(ctx, plan)).events);
        findings.push(...policyFindings(item.seq, asked.results));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        // Values a transform wrote and the save then refused: the transform was invalid (as for a single save).
        const refused = explain?.(error.toFailure()) ?? error;
        findings.push({ item_seq: item.seq, code: refused.code === "slug_taken" ? "slug_taken" : "item_refused", message: refused.message, details: { code: refused.code, ...(refused.code.startsWith("plugin_policy") ? (refused.details ?? {}) : {}) } });
        await commit(ctx.d1, [mark(ctx, job, item.seq, "skipped")]);
      }
    }
    if (entries.length === 0) {
      const ids = await created(ctx, job, "entry");
      const linked = (await items("written", "entry")).slice(0, DRIFTWOOD_STEP_ITEMS);
      for (const item of linked) {
        if (policyTimeUp(ctx)) break;
        const record = JSON.parse(item.payload) as EntryRecord;
        const model = bySlug.get(record.model) as Model;
        const source = (record.published ?? record.current) as { fields: Record<string, unknown> };
        const relations = Object.fromEntries(model.fields.filter((f) => f.type === "relation" && source.fields[f.key] !== undefined).map((f) => [f.key, mapIds(source.fields[f.key], ids)]));
        const instanceId = item.instance_id ?? "";
        // Both asked before the item's first write, as the single save and publish would ask them
        // (decision: the publication is asked about the values as imported, before the relations
        // are linked: docs/imports.md, "Content policies").
        const [relate, publish] = await Promise.all([
          Object.keys(relations).length > 0 ? askImportWrite(ctx, "saveDraft", { instance_id: instanceId, fields: relations }) : null,
          record.published ? askImportWrite(ctx, "publish", { instance_id: instanceId }) : null,
        ]);
        const pausedBy = [relate, publish].find((a) => a && !a.ok && a.pause);
        if (pausedBy && !pausedBy.ok) {
          paused = pausedBy.error;
          break;
        }
        handled++;
        let explain: ((failure: { code: string; message: string; details?: Record<string, unknown> }) => AppError | null) | undefined;
        try {
          if (relate && !relate.ok) throw relate.error;
          if (relate?.ok) {
            explain = relate.explain;
            const entry = await firstRow<{ current_version_id: string }>(ctx.d1, "SELECT current_version_id FROM entries WHERE site_id = ? AND instance_id = ?", [ctx.site.id, item.instance_id]);
            const plan = await saveDraft(ctx, { instance_id: instanceId, expected_version_id: entry?.current_version_id ?? "", fields: relate.input.fields });
            plan.statements.push(statement("UPDATE import_items SET version_id = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [plan.answer.current_version_id, ctx.site.id, job.id, item.seq]));
            events.push(...(await commitPlan(ctx, plan)).events);
            findings.push(...policyFindings(item.seq, relate.results));
            explain = undefined;
          }
          if (publish) {
            if (!publish.ok) throw publish.error;
            const plan = await publishEntry(ctx, { instance_id: instanceId });
            plan.statements.push(mark(ctx, job, item.seq, "published"));
            const done = await commitPlan(ctx, plan);
            events.push(...done.events);
            purgeTags.push(...done.purgeTags);
            findings.push(...policyFindings(item.seq, publish.results));
          } else await commit(ctx.d1, [mark(ctx, job, item.seq, "linked")]);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const refused = explain?.(error.toFailure()) ?? error;
          findings.push({ item_seq: item.seq, code: "item_refused", message: refused.message, details: { code: refused.code, ...(refused.code.startsWith("plugin_policy") ? (refused.details ?? {}) : {}) } });
          await commit(ctx.d1, [mark(ctx, job, item.seq, "linked")]);
        }
      }
    }
  }
  const remaining = await firstRow<{ n: number }>(ctx.d1, "SELECT count(*) AS n FROM import_items WHERE site_id = ? AND job_id = ? AND ((kind IN ('model', 'entry') AND state = 'staged') OR (kind = 'entry' AND state = 'written'))", [ctx.site.id, job.id]);
  const others = remaining?.n === 0 ? await rows<{ seq: number }>(ctx.d1, "SELECT seq FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'other' AND state = 'staged'", [ctx.site.id, job.id]) : [];
  for (const o of others) findings.push({ item_seq: o.seq, code: "item_skipped", message: "Roles and media of an export are not imported by this version.", details: {} });
  const set = { state: remaining?.n === 0 ? ("done" as const) : ("writing" as const), items_done: Math.min(job.items_total, job.items_done + handled + others.length), findings_count: job.findings_count + findings.length };
  await commit(ctx.d1, [...others.map((o) => mark(ctx, job, o.seq, "skipped")), ...findingStatements(ctx, job.id, job.findings_count, findings), ...moveJob(ctx, job, set)]);
  // An enforcing policy not asked (or the policy budget spent): the progress so far is kept, the
  // item waits staged, and the step answers the single write's refusal (advance again later).
  if (paused) throw paused;
  return { job: movedJob(ctx, job, set), events, purgeTags };
}
