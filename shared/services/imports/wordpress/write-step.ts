import { guard } from "../../../db/batch";
import { AppError } from "../../../errors";
import { planStatements, type CommittedEvent } from "../../lifecycle/commit-plan";
import { askImportWrite, policyTimeUp } from "../policies";
import { findingStatements } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { rows, statement } from "../statements";
import { writeAttachment } from "./attachments";
import { finding, refusalFinding } from "./item-findings";
import { firstPublication, valuesOf } from "./item-values";
import { mappedModels, type MappedKind } from "./mapping";
import { decisionsOf, wantedSlug } from "./review";
import { historyStatement } from "./principals";
import { postEntryPlan, termEntryPlan } from "./translations";
import { isOversizeMarker } from "./oversize-items";
import { StepBatches } from "./write-batches";
import { withParentsFirst, writtenTogether, type StagedRow } from "./write-grouping";
import { POLYLANG_TAXONOMIES, type WxrPost, type WxrTerm } from "./wxr-items";

/**
 * Items one write step handles at most (docs/imports.md, "Steps and their bound"). A step's creates
 * are one D1 batch and its publications another (with the job's move), so the bound is what a
 * request may do: about ten D1 reads an item (250 of the 1,000 queries a Worker invocation may
 * make; a batch is one), and the CPU of sanitising the content — bounded by
 * {@link WRITE_STEP_CONTENT_BYTES}.
 */
export const WRITE_STEP_ITEMS = 25;
/**
 * Staged payload bytes (content and metadata) after which a step takes no further item: 1 MiB is
 * about 1.2 s of sanitising on the test machine (256 KiB, the largest post, about 300 ms), so a
 * step of large posts stays within a Worker's CPU whatever its count, and its batches a few MiB.
 */
export const WRITE_STEP_CONTENT_BYTES = 1024 * 1024;
/** Staged items one step looks at, at most: those that write nothing (skipped kinds, authors) cost no batch. */
export const WRITE_STEP_SCAN = 200;

export interface WriteStepResult {
  job: ImportJobRow;
  events: CommittedEvent[];
  purgeTags: string[];
}

/**
 * One write step: the next staged items in file order (authors, then categories and tags, then
 * posts and pages, as WordPress writes them) become entries of the mapped models — created, then
 * published when WordPress published them. A refusal of one item (permission, address, value) is a
 * finding, never the failure of the job.
 *
 * Batches (docs/imports.md, "Steps and their bound"): the creates of a run of items written
 * together are one D1 batch (each with its item's new state); their publications, the step's
 * findings, the job's move and the end of the request's step claim are the step's last batch. A
 * group batch refused as a whole (two items of the step wanting one address, a unique value) is
 * committed again one item at a time, so the refusal stays one item's finding. A step stopped
 * between its batches leaves every item whole or untouched (created items are `written`).
 */
export async function wordpressWriteStep(ctx: StepContext, job: ImportJobRow): Promise<WriteStepResult> {
  const decisions = decisionsOf(job);
  if (!decisions?.approved) throw new AppError("import_review_pending", "Approve the review (decideWordPressReview with approve: true) before the import writes anything.", { state: job.state });
  const models = await mappedModels(ctx, decisions.mapping);
  const staged = await rows<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND state = 'staged' ORDER BY seq LIMIT ?", [ctx.site.id, job.id, WRITE_STEP_SCAN + 1]);
  const batch = await withParentsFirst(ctx, job, staged.slice(0, WRITE_STEP_SCAN));
  let writes = 0;
  let contentBytes = 0;
  let handled = 0;
  let paused: AppError | null = null;
  const batches = new StepBatches(ctx, job);
  const { findings, events, markers, creates } = batches;

  for (const item of batch) {
    if (writes >= WRITE_STEP_ITEMS || contentBytes >= WRITE_STEP_CONTENT_BYTES || policyTimeUp(ctx)) break;
    handled++;
    const mark = (state: string) => statement("UPDATE import_items SET state = ? WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged'", [state, ctx.site.id, job.id, item.seq]);
    const kind = item.kind as MappedKind;
    const target = models.get(kind);
    if (item.kind === "author") {
      markers.push(mark("principal"));
      continue;
    }
    if (item.kind === "attachment") {
      // Into the media library (attachments.ts); a media item stored counts as a write of the step.
      const attached = await writeAttachment(ctx, job, item.seq, JSON.parse(item.payload) as WxrPost, decisions);
      if (attached.statements.length === 0) writes++;
      markers.push(...attached.statements);
      findings.push(...attached.findings);
      events.push(...attached.events);
      continue;
    }
    if (item.kind === "other" && isOversizeMarker(item.payload)) {
      // Reported at parse (item_too_large, before the review): nothing of it to write.
      markers.push(mark("skipped"));
      continue;
    }
    if (item.kind === "other" && POLYLANG_TAXONOMIES.some((t) => item.source_key.startsWith(`${t}:`))) {
      // Polylang's languages and translation groups: markers read by the items that name them, no finding of their own.
      markers.push(mark("skipped"));
      continue;
    }
    if (!target) {
      findings.push(finding(item.seq, "item_skipped", item.kind === "other" ? "This kind of WordPress item is not imported." : `No model was chosen for ${item.kind} items.`, { kind: item.kind, source_key: item.source_key }));
      markers.push(mark("skipped"));
      continue;
    }
    const payload = JSON.parse(item.payload) as WxrPost & WxrTerm;
    // Items of another kind, or an item that reads what the planned ones write, wait for them.
    const together = await writtenTogether(ctx, job, item, payload);
    if (!together || creates.some((c) => c.item.kind !== item.kind)) await batches.flush();
    const slug = decisions.renames[String(item.seq)] ?? wantedSlug(item.kind, payload);
    const publish = kind === "category" || kind === "tag" || payload.status === "publish";
    contentBytes += item.payload.length;
    let values: { fields: Record<string, unknown>; dropped: string[] };
    try {
      values = await valuesOf(ctx, job, item, kind, target.plan);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      writes++;
      findings.push(refusalFinding(item.seq, error, `Creating ${item.kind} ${item.source_key}`));
      markers.push(mark("skipped"));
      continue;
    }
    // The content policies are asked as the single create would ask them (imports/policies.ts).
    const asked = await askImportWrite(ctx, "createEntry", { model_id: target.model.id, slug: slug === "" ? null : slug, fields: values.fields });
    if (!asked.ok && asked.pause) {
      // The item stays staged for the next step; this one ends here.
      handled--;
      paused = asked.error;
      break;
    }
    if (!publish && (payload.status === "private" || payload.status === "future")) {
      findings.push(finding(item.seq, "status_kept_as_draft", `A ${payload.status} WordPress item is imported as a draft.`, { status: payload.status }));
    }
    const dropped = values.dropped;
    writes++;
    try {
      if (!asked.ok) throw asked.error;
      if (dropped.length > 0) findings.push(finding(item.seq, "rich_markup_dropped", "Markup the canonical rich text does not keep was left out of the content.", { field: target.plan.body, dropped }));
      // A post or page may be a new language of an item already written (Polylang, translations.ts).
      const plan =
        kind === "post" || kind === "page"
          ? await postEntryPlan(ctx, job, target.model, payload, asked.input.slug ?? null, { ...asked.input.fields })
          : await termEntryPlan(ctx, job, target.model, kind, payload, asked.input.slug ?? null, { ...asked.input.fields });
      const first = publish && kind !== "category" && kind !== "tag" ? firstPublication(payload.post_date_gmt ?? "", ctx.clock.now()) : { at: null };
      if (first.notKept) findings.push(finding(item.seq, "date_not_kept", `WordPress's date of this item is ${first.notKept.reason === "future" ? "in the future" : "not a date"}: its first publication is the import's.`, first.notKept));
      const firstPublished = first.at;
      plan.statements.push(
        guard(ctx.db, "import_state_conflict", "EXISTS (SELECT 1 FROM import_items WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged')", [ctx.site.id, job.id, item.seq]),
        statement("UPDATE import_items SET state = 'written', instance_id = ?, group_id = ?, version_id = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [
          plan.answer.instance_id,
          plan.answer.translation_group_id,
          plan.answer.current_version_id,
          ctx.site.id,
          job.id,
          item.seq,
        ]),
        ...(kind === "post" || kind === "page" ? historyStatement(ctx, decisions, payload.creator, plan.answer.current_version_id) : []),
        // The first publication is WordPress's: publishing keeps a first_published_at already set.
        ...(firstPublished ? [statement("UPDATE entries SET first_published_at = ? WHERE site_id = ? AND instance_id = ?", [firstPublished, ctx.site.id, plan.answer.instance_id])] : []),
      );
      creates.push({ item, plan, planned: await planStatements(ctx, plan), publish, asked });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Values a transform wrote and the create then refused: the transform was invalid (as for a single save).
      const refused = (asked.ok ? asked.explain(error.toFailure()) : null) ?? error;
      findings.push(refusalFinding(item.seq, refused, `Creating ${item.kind} ${item.source_key}`));
      markers.push(mark("skipped"));
      continue;
    }
    // An item written alone is committed (and published) before the next one is read.
    if (!together) await batches.flush();
  }
  await batches.commitCreates();
  const more = handled < batch.length || staged.length > WRITE_STEP_SCAN;
  const set = { state: more ? ("writing" as const) : ("done" as const), items_done: job.items_done + handled };
  // The step's last batch: the publications planned, the markers and findings, the job's move and,
  // unless the step answers a refusal, the end of its step claim (rule 5: done with the move).
  const claimDone = paused ? undefined : ctx.claimDone;
  await batches.commitPublications(() => [
    ...markers,
    ...findingStatements(ctx, job.id, job.findings_count, findings),
    ...moveJob(ctx, job, { ...set, findings_count: job.findings_count + findings.length }),
    ...(claimDone ? [claimDone.statement] : []),
  ]);
  if (claimDone) claimDone.committed = true;
  // An enforcing policy not asked (or the policy budget spent): progress kept, the step answers its refusal.
  if (paused) throw paused;
  return { job: movedJob(ctx, job, { ...set, findings_count: job.findings_count + findings.length }), events, purgeTags: batches.purgeTags };
}
