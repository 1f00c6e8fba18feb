import type { CompiledQuery } from "kysely";
import { commit, guard } from "../../../db/batch";
import { AppError } from "../../../errors";
import type { Model } from "../../../repositories/model-repository";
import { planStatements, type CommittedEvent } from "../../lifecycle/commit-plan";
import { addLanguage } from "../../lifecycle/add-language";
import { createEntry } from "../../lifecycle/create-entry";
import type { Finding } from "../findings";
import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { askImportWrite, policyFindings, policyRefusalFinding, policyTimeUp, type AskedWrite } from "../policies";
import { firstRow, statement } from "../statements";
import { commitEachAlone, type PlannedWrite } from "../write-fallback";
import { markItem, type EntryRecord, type ItemRow } from "./items";

/** What one Driftwood entry step did: items handled, and whether an enforcing policy stopped it. */
export interface PhaseResult {
  handled: number;
  paused: AppError | null;
}

/** An item's refusal as its finding (a transform the write refused is named as the transform's). */
export function refusedFinding(seq: number, refused: AppError): Finding {
  return { item_seq: seq, code: refused.code === "slug_taken" ? "slug_taken" : "item_refused", message: refused.message, details: { code: refused.code, ...(refused.code.startsWith("plugin_policy") ? (refused.details ?? {}) : {}) } };
}

interface PlannedCreate extends PlannedWrite {
  item: ItemRow;
  asked: Extract<AskedWrite<object>, { ok: true }>;
}

/**
 * The creates of a Driftwood step (docs/imports.md, "Driftwood exports"): each staged entry without
 * its relations — a new item, or a language joining the group its sibling became — planned in turn
 * and committed together, one D1 batch for the items of the step. A language whose sibling is
 * planned in the batch waits for it (the batch is committed first: the sibling is found by its
 * committed row); a batch refused as a whole (two items wanting one address, a unique value) is
 * committed again one item at a time, so the refusal stays that item's finding.
 */
export async function createEntries(
  ctx: StepContext,
  job: ImportJobRow,
  items: readonly ItemRow[],
  bySlug: ReadonlyMap<string, Model>,
  out: { findings: Finding[]; events: CommittedEvent[]; markers: CompiledQuery[] },
  bound: { items: number; bytes: number },
): Promise<PhaseResult> {
  const { findings } = out;
  const group: PlannedCreate[] = [];
  const pendingGroups = new Set<string>();
  const flush = async () => {
    const planned = group.splice(0);
    pendingGroups.clear();
    if (planned.length === 0) return;
    let written: PlannedCreate[];
    try {
      await commit(ctx.d1, planned.flatMap((c) => c.planned.statements));
      written = planned;
    } catch {
      // Whatever refused the group (an item's guard, or the batch itself), each item alone says which.
      written = await commitEachAlone(ctx, planned, (c, error) => {
        findings.push(refusedFinding(c.item.seq, c.asked.explain(error.toFailure()) ?? error));
        out.markers.push(markItem(ctx, job, c.item.seq, "skipped"));
      });
    }
    for (const c of written) {
      out.events.push(...c.planned.committed.events);
      findings.push(...policyFindings(c.item.seq, c.asked.results));
    }
  };

  let handled = 0;
  let bytes = 0;
  let paused: AppError | null = null;
  // Passes: a language whose group has a create planned in this pass waits for the next one (its
  // sibling is then committed and found), so the step's creates are a batch or two, not one a pair.
  let pass: readonly ItemRow[] = items;
  while (pass.length > 0 && !paused) {
    const deferred: ItemRow[] = [];
    for (const item of pass) {
      if (handled >= bound.items || bytes >= bound.bytes || policyTimeUp(ctx)) break;
      const record = JSON.parse(item.payload) as EntryRecord;
      if (pendingGroups.has(record.translation_group_id)) {
        deferred.push(item);
        continue;
      }
      const outcome = await planCreate(item, record);
      if (outcome === "paused") break;
      handled++;
      bytes += item.payload.length;
    }
    await flush();
    pass = deferred;
  }
  return { handled, paused };

  /** Plans one item's create (or skips it with its finding); "paused" when an enforcing policy could not be asked. */
  async function planCreate(item: ItemRow, record: EntryRecord): Promise<"planned" | "skipped" | "paused"> {
    const model = bySlug.get(record.model);
    const source = record.published ?? record.current;
    if (!model || !source) {
      findings.push({ item_seq: item.seq, code: "item_skipped", message: `No model ${record.model} was created or chosen for this import.`, details: {} });
      out.markers.push(markItem(ctx, job, item.seq, "skipped"));
      return "skipped";
    }
    const relationKeys = new Set(model.fields.filter((f) => f.type === "relation").map((f) => f.key));
    // Values of a field the model lacks are left out: a relation the import dropped because its
    // target model is not in the file or was left out at review (model-conflicts.ts).
    const keys = new Set(model.fields.map((f) => f.key));
    const fields = Object.fromEntries(Object.entries(source.fields).filter(([k]) => keys.has(k) && !relationKeys.has(k)));
    let asked: AskedWrite<object> | undefined;
    try {
      const sibling = await firstRow<{ instance_id: string }>(
        ctx.d1,
        "SELECT instance_id FROM import_items INDEXED BY idx_import_items_group WHERE job_id = ? AND source_group = ? AND kind = 'entry' AND instance_id IS NOT NULL AND site_id = ? LIMIT 1",
        [job.id, record.translation_group_id, ctx.site.id],
      );
      // The content policies are asked as the single create or new language would ask them.
      const language = sibling ? await askImportWrite(ctx, "addLanguage", { instance_id: sibling.instance_id, lang: record.lang, ...(record.slug ? { slug: record.slug } : {}), fields }) : null;
      const created = sibling ? null : await askImportWrite(ctx, "createEntry", { model_id: model.id, lang: record.lang, slug: record.slug, fields });
      asked = (language ?? created) as AskedWrite<object>;
      if (!asked.ok && asked.pause) {
        paused = asked.error;
        return "paused";
      }
      if (!asked.ok) {
        findings.push(policyRefusalFinding(item.seq, asked.error, `Entry ${record.slug ?? record.instance_id}`));
        out.markers.push(markItem(ctx, job, item.seq, "skipped"));
        return "skipped";
      }
      const plan = language?.ok ? await addLanguage(ctx, language.input) : created?.ok ? await createEntry(ctx, created.input) : null;
      if (!plan) return "skipped";
      plan.statements.push(
        guard(ctx.db, "import_state_conflict", "EXISTS (SELECT 1 FROM import_items WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged')", [ctx.site.id, job.id, item.seq]),
        statement("UPDATE import_items SET state = 'written', instance_id = ?, group_id = ?, version_id = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [plan.answer.instance_id, plan.answer.translation_group_id, plan.answer.current_version_id, ctx.site.id, job.id, item.seq]),
        // The first publication is the exported one: publishing keeps a first_published_at already set.
        ...(record.published && record.first_published_at ? [statement("UPDATE entries SET first_published_at = ? WHERE site_id = ? AND instance_id = ?", [record.first_published_at, ctx.site.id, plan.answer.instance_id])] : []),
      );
      group.push({ item, plan, planned: await planStatements(ctx, plan), asked });
      pendingGroups.add(record.translation_group_id);
      return "planned";
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Values a transform wrote and the save then refused: the transform was invalid (as for a single save).
      findings.push(refusedFinding(item.seq, (asked?.ok ? asked.explain(error.toFailure()) : null) ?? error));
      out.markers.push(markItem(ctx, job, item.seq, "skipped"));
      return "skipped";
    }
  }
}
