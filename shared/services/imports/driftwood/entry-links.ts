import type { CompiledQuery } from "kysely";
import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import type { Model } from "../../../repositories/model-repository";
import { planStatements, type CommittedEvent, type PlannedBatch } from "../../lifecycle/commit-plan";
import type { EntryView } from "../../lifecycle/entry-view";
import { pendingKey, type PendingTargets } from "../../lifecycle/relation-targets";
import { saveDraft } from "../../lifecycle/save-draft";
import { publishEntry, type AlongsideChanges } from "../../lifecycle/transitions";
import type { Finding } from "../findings";
import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { askImportWrite, policyFindings, policyTimeUp, type AskedWrite } from "../policies";
import { firstRow, rows, statement } from "../statements";
import { commitEachAlone, explained, type PlannedWrite } from "../write-fallback";
import { refusedFinding, type PhaseResult } from "./entry-creates";
import { createdEntries, groupsToLink, itemsBySeq, mapIds, markItem, relationIds, type CreatedEntry, type EntryRecord, type ItemRow } from "./items";

/** How many levels of relation targets a linking step takes ahead of the items naming them. */
const TARGET_DEPTH = 3;

/** What a linking step reports and writes beside its batches. */
interface StepOut {
  findings: Finding[];
  events: CommittedEvent[];
  purgeTags: string[];
  markers: CompiledQuery[];
}

/** A publication the step's last batch commits: the item and what the policies answered. */
export interface PlannedPublication {
  item: ItemRow;
  instance_id: string;
  asked: Extract<AskedWrite<object>, { ok: true }>;
}

interface PlannedSave extends PlannedWrite {
  item: ItemRow;
  asked: Extract<AskedWrite<object>, { ok: true }>;
}

/**
 * The linking part of a Driftwood step (docs/imports.md, "Driftwood exports"): each created entry's
 * relations, old ids mapped to the new ones (looked up by key for the ids the step's items name),
 * saved as one D1 batch; then the publications of those the export had published, planned after it
 * (they publish the linked draft) and committed by the step's last batch ({@link commitPublications}).
 * Two languages of one item wait for each other across passes: a translated model's shared
 * relation list is copied to the item's other languages by the save, so they never share a batch.
 */
export async function linkEntries(
  ctx: StepContext,
  job: ImportJobRow,
  items: readonly ItemRow[],
  bySlug: ReadonlyMap<string, Model>,
  out: StepOut,
  bound: { items: number; bytes: number },
): Promise<PhaseResult & { publications: PlannedPublication[]; left: boolean }> {
  const parse = (item: ItemRow) => ({ item, record: JSON.parse(item.payload) as EntryRecord });
  let parsed = items.slice(0, bound.items).map(parse);
  // The relation targets the step's items name, looked up by key (a row each, never every entry of
  // the job). A target created but not linked yet is taken into this step ahead of the items naming
  // it, with the other languages of its group (a relation resolves to the reader's language of the
  // target), its own targets ahead of it, three levels: targets are published before, or with, the
  // items linking to them, so no publication re-renders what the step just published.
  const ids = new Map<string, CreatedEntry>();
  const looked = new Set<string>();
  const lookUp = async () => {
    const wanted = new Set<string>();
    for (const { record } of parsed) for (const id of targetIds(record)) if (!looked.has(id)) wanted.add(id);
    for (const id of wanted) looked.add(id);
    const found = wanted.size > 0 ? await createdEntries(ctx, job, wanted) : new Map<string, CreatedEntry>();
    for (const [id, entry] of found) ids.set(id, entry);
    return found;
  };
  const inStep = new Set(parsed.map((p) => p.item.seq));
  for (let depth = 0; depth < TARGET_DEPTH; depth++) {
    const found = await lookUp();
    const groups = [...found.values()].flatMap((f) => (f.source_group ? [f.source_group] : []));
    const ahead = [...new Set([...found.values()].filter((f) => f.state === "written").map((f) => f.seq).concat(await groupsToLink(ctx, job, groups)))].filter((seq) => !inStep.has(seq));
    if (ahead.length === 0) break;
    const pulled = await itemsBySeq(ctx, job, ahead.slice(0, bound.items));
    for (const row of pulled) inStep.add(row.seq);
    parsed = [...pulled.map(parse), ...parsed];
  }
  // The targets of the items taken at the last level (mapped, not taken ahead).
  await lookUp();

  const publications: PlannedPublication[] = [];
  const saves: PlannedSave[] = [];
  const pendingGroups = new Set<string>();
  const flush = async () => {
    const planned = saves.splice(0);
    pendingGroups.clear();
    if (planned.length === 0) return;
    let written: PlannedSave[];
    try {
      await commit(ctx.d1, planned.flatMap((c) => c.planned.statements));
      written = planned;
    } catch {
      written = await commitEachAlone(ctx, planned, (c, error) => {
        out.findings.push(refusedFinding(c.item.seq, c.asked.explain(error.toFailure()) ?? error));
        out.markers.push(markItem(ctx, job, c.item.seq, "linked"));
        publications.splice(0, publications.length, ...publications.filter((p) => p.item.seq !== c.item.seq));
      });
    }
    for (const c of written) {
      out.events.push(...c.planned.committed.events);
      out.findings.push(...policyFindings(c.item.seq, c.asked.results));
    }
  };

  let handled = 0;
  let bytes = 0;
  let paused: AppError | null = null;
  let pass = parsed;
  while (pass.length > 0 && !paused) {
    const deferred: typeof parsed = [];
    for (const entry of pass) {
      if (handled >= bound.items || bytes >= bound.bytes || policyTimeUp(ctx)) break;
      if (pendingGroups.has(groupOf(entry.item))) {
        deferred.push(entry);
        continue;
      }
      if ((await planLink(entry.item, entry.record)) === "paused") break;
      handled++;
      bytes += entry.item.payload.length;
    }
    await flush();
    pass = deferred;
  }
  // Items of the step not handled (the bound reached, a policy paused it): the next step takes them.
  return { handled, paused, publications, left: handled < parsed.length || items.length > bound.items };

  function targetIds(record: EntryRecord): Set<string> {
    const model = bySlug.get(record.model);
    const source = record.published ?? record.current;
    const found = new Set<string>();
    for (const f of model?.fields ?? []) if (f.type === "relation" && source?.fields[f.key] !== undefined) relationIds(source.fields[f.key], found);
    return found;
  }

  function groupOf(item: ItemRow): string {
    return item.group_id ?? item.instance_id ?? "";
  }

  async function planLink(item: ItemRow, record: EntryRecord): Promise<"planned" | "paused"> {
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
      return "paused";
    }
    let explain: ((failure: { code: string; message: string; details?: Record<string, unknown> }) => AppError | null) | undefined;
    try {
      if (relate && !relate.ok) throw relate.error;
      if (relate?.ok) {
        explain = relate.explain;
        // The current draft (a sibling's save may have copied a shared list into it since its create).
        const entry = await firstRow<{ current_version_id: string }>(ctx.d1, "SELECT current_version_id FROM entries WHERE site_id = ? AND instance_id = ?", [ctx.site.id, instanceId]);
        const plan = await saveDraft(ctx, { instance_id: instanceId, expected_version_id: entry?.current_version_id ?? "", fields: relate.input.fields });
        plan.statements.push(statement("UPDATE import_items SET version_id = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [plan.answer.current_version_id, ctx.site.id, job.id, item.seq]));
        saves.push({ item, plan, planned: await planStatements(ctx, plan), asked: relate });
        pendingGroups.add(groupOf(item));
        explain = undefined;
      }
      if (publish && !publish.ok) throw publish.error;
      if (publish?.ok) publications.push({ item, instance_id: instanceId, asked: publish });
      else out.markers.push(markItem(ctx, job, item.seq, "linked"));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const refused = explain?.(error.toFailure()) ?? error;
      out.findings.push({ item_seq: item.seq, code: "item_refused", message: refused.message, details: { code: refused.code, ...(refused.code.startsWith("plugin_policy") ? (refused.details ?? {}) : {}) } });
      out.markers.push(markItem(ctx, job, item.seq, "linked"));
    }
    return "planned";
  }
}

interface PlannedPublish {
  publication: PlannedPublication;
  planned: PlannedBatch<EntryView>;
}

/**
 * The step's publications planned together, each seeing the others as published — the release's
 * way (lifecycle/transitions.ts `AlongsideChanges`): a relation to an item published in the same
 * batch renders as published, and no publication of the batch re-renders another as its dependent.
 * A publication refused while planned is reported (the item stays a draft) and the others are
 * planned again without it, so none renders a link to it as published.
 */
async function planTogether(ctx: StepContext, job: ImportJobRow, publications: readonly PlannedPublication[], out: StepOut): Promise<PlannedPublish[]> {
  let planning = [...publications];
  for (;;) {
    const drafts = await currentDrafts(ctx, planning.map((p) => p.instance_id));
    const pending: PendingTargets = new Map();
    for (const d of drafts.values()) pending.set(pendingKey(d.translation_group_id, d.lang), { instance_id: d.instance_id, group_id: d.translation_group_id, model_id: d.model_id, lang: d.lang, slug: d.slug, label: d.label });
    const alongside: AlongsideChanges = { pending, members: new Set(planning.map((p) => p.instance_id)) };
    const planned: PlannedPublish[] = [];
    const refused: PlannedPublication[] = [];
    for (const publication of planning) {
      try {
        const plan = await publishEntry(ctx, { instance_id: publication.instance_id }, alongside);
        plan.statements.push(markItem(ctx, job, publication.item.seq, "published"));
        planned.push({ publication, planned: await planStatements(ctx, plan) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        out.findings.push(refusedFinding(publication.item.seq, error));
        out.markers.push(markItem(ctx, job, publication.item.seq, "linked"));
        refused.push(publication);
      }
    }
    if (refused.length === 0) return planned;
    planning = planning.filter((p) => !refused.includes(p));
  }
}

/** The current drafts (slug, label) of the entries given: what each publication will serve. */
async function currentDrafts(ctx: StepContext, instanceIds: readonly string[]) {
  const out = new Map<string, { instance_id: string; translation_group_id: string; model_id: string; lang: string; slug: string | null; label: string | null }>();
  for (let i = 0; i < instanceIds.length; i += 90) {
    const part = instanceIds.slice(i, i + 90);
    const found = await rows<{ instance_id: string; translation_group_id: string; model_id: string; lang: string; slug: string | null; label: string | null }>(
      ctx.d1,
      `SELECT e.instance_id, e.translation_group_id, e.model_id, e.lang, v.slug, v.label FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.id = e.current_version_id
        WHERE e.site_id = ? AND e.instance_id IN (${part.map(() => "?").join(",")})`,
      [ctx.site.id, ...part],
    );
    for (const f of found) out.set(f.instance_id, f);
  }
  return out;
}

/**
 * Commits the step's publications with `last()` (the step's closing statements, built after them so
 * they hold every finding) in one batch. Refused as a whole (two items at one address, a unique
 * value), each publication is planned again alone and committed in file order — the per-item path,
 * where a later publication re-renders the earlier ones linking to it — then `last()`.
 */
export async function commitPublications(ctx: StepContext, job: ImportJobRow, publications: readonly PlannedPublication[], out: StepOut, last: () => CompiledQuery[]): Promise<void> {
  const together = publications.length > 0 ? await planTogether(ctx, job, publications, out) : [];
  const committed = (p: PlannedPublish["planned"]) => {
    out.events.push(...p.committed.events);
    out.purgeTags.push(...p.committed.purgeTags);
  };
  const policies = (p: PlannedPublication) => out.findings.push(...policyFindings(p.item.seq, p.asked.results));
  const findingsBefore = out.findings.length;
  try {
    for (const p of together) policies(p.publication);
    await commit(ctx.d1, [...together.flatMap((p) => p.planned.statements), ...last()]);
    for (const p of together) committed(p.planned);
    return;
  } catch (error) {
    if (together.length === 0) throw error;
    out.findings.splice(findingsBefore);
  }
  for (const { publication } of together) {
    try {
      const plan = await publishEntry(ctx, { instance_id: publication.instance_id });
      plan.statements.push(markItem(ctx, job, publication.item.seq, "published"));
      const planned = await planStatements(ctx, plan);
      try {
        await commit(ctx.d1, planned.statements);
      } catch (one) {
        throw one instanceof AppError ? await explained(plan, one) : one;
      }
      committed(planned);
      policies(publication);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      out.findings.push(refusedFinding(publication.item.seq, error));
      out.markers.push(markItem(ctx, job, publication.item.seq, "linked"));
    }
  }
  await commit(ctx.d1, last());
}
