import type { CompiledQuery } from "kysely";
import { guard, commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import { planStatements, type Committed, type CommittedEvent, type PlannedBatch } from "../../lifecycle/commit-plan";
import type { WritePlan } from "../../lifecycle/context";
import type { EntryView } from "../../lifecycle/entry-view";
import { publishEntry } from "../../lifecycle/transitions";
import { askImportWrite, policyFindings, policyTimeUp, type AskedWrite } from "../policies";
import { findingStatements, type Finding } from "../findings";
import type { StepContext } from "../job-step";
import { movedJob, moveJob, type ImportJobRow } from "../jobs";
import { firstRow, rows, statement } from "../statements";
import { convertContent } from "./content";
import { attachmentsOf, contentImages, linkContentImages } from "./content-images";
import { mappedModels, type FieldPlan, type MappedKind } from "./mapping";
import { decisionsOf, wantedSlug } from "./review";
import { mediaOfAttachment, writeAttachment } from "./attachments";
import { historyStatement } from "./principals";
import { postEntryPlan, termEntryPlan, termGroupsStaged } from "./translations";
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

interface StagedRow {
  seq: number;
  kind: string;
  source_key: string;
  payload: string;
}

export interface WriteStepResult {
  job: ImportJobRow;
  events: CommittedEvent[];
  purgeTags: string[];
}

/** WordPress dates are `YYYY-MM-DD HH:MM:SS` in UTC (`post_date_gmt`); `0000-00-00 00:00:00` for none. */
function gmtDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m || m[1] === "0000") return null;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const finding = (item_seq: number, code: Finding["code"], message: string, details: Record<string, unknown> = {}): Finding => ({ item_seq, code, message, details });

/** The created entry of an item of the file (a category by its slug, a page by its post id), if any. */
async function createdOf(ctx: StepContext, jobId: string, kind: string, sourceKey: string): Promise<string | undefined> {
  const row = await firstRow<{ instance_id: string }>(ctx.d1, "SELECT instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND source_key = ? AND instance_id IS NOT NULL", [ctx.site.id, jobId, kind, sourceKey]);
  return row?.instance_id;
}

async function createdMany(ctx: StepContext, jobId: string, kind: string, keys: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += 90) {
    const part = keys.slice(i, i + 90);
    if (part.length === 0) continue;
    const found = await rows<{ source_key: string; instance_id: string }>(
      ctx.d1,
      `SELECT source_key, instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND instance_id IS NOT NULL AND source_key IN (${part.map(() => "?").join(",")})`,
      [ctx.site.id, jobId, kind, ...part],
    );
    const byKey = new Map(found.map((f) => [f.source_key, f.instance_id]));
    for (const k of part) {
      const id = byKey.get(k);
      if (id) out.push(id);
    }
  }
  return out;
}

/** How many ancestors a step writes ahead of an item whose parent comes later in the file. */
const PARENT_CHAIN_MAX = 5;

/**
 * The step's items with each one's unwritten parent (a page's `post_parent`, a category's
 * `parent`) placed before it, ancestors first: WordPress may list a child page before its parent.
 */
async function withParentsFirst(ctx: StepContext, job: ImportJobRow, items: StagedRow[]): Promise<StagedRow[]> {
  const out: StagedRow[] = [];
  const seen = new Set<number>();
  for (const item of items) {
    const chain: StagedRow[] = [];
    let current: StagedRow = item;
    for (let depth = 0; depth < PARENT_CHAIN_MAX; depth++) {
      const payload = JSON.parse(current.payload) as Partial<WxrPost & WxrTerm>;
      // A post's or page's featured image is an attachment written before it, like a parent.
      const image = (current.kind === "post" || current.kind === "page") && payload.thumbnail_id ? payload.thumbnail_id : undefined;
      if (image && depth === 0) {
        const attachment = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'attachment' AND source_key = ? AND state = 'staged'", [ctx.site.id, job.id, image]);
        if (attachment && !seen.has(attachment.seq)) chain.unshift(attachment);
      }
      // So are the attachments of the images inside its content (content-images.ts).
      if ((current.kind === "post" || current.kind === "page") && depth === 0 && typeof payload.content === "string") {
        const images = contentImages(payload.content);
        const attachments = images.length > 0 ? await attachmentsOf(ctx, job.id, images) : undefined;
        for (const img of images) {
          const found = attachments?.of(img);
          if (!found || found.state !== "staged" || seen.has(found.seq) || chain.some((c) => c.seq === found.seq)) continue;
          const row = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND seq = ?", [ctx.site.id, job.id, found.seq]);
          if (row) chain.unshift(row);
        }
      }
      const parentKey = current.kind === "page" ? payload.post_parent : current.kind === "category" ? payload.parent : undefined;
      if (!parentKey || parentKey === "0") break;
      const parent = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND source_key = ? AND state = 'staged'", [ctx.site.id, job.id, current.kind, parentKey]);
      if (!parent || seen.has(parent.seq) || parent.seq === item.seq) break;
      chain.unshift(parent);
      current = parent;
    }
    for (const row of [...chain, item]) {
      if (seen.has(row.seq)) continue;
      seen.add(row.seq);
      out.push(row);
    }
  }
  return out;
}

/** The field values of one item in its model, with what its content dropped. */
async function valuesOf(ctx: StepContext, job: ImportJobRow, item: StagedRow, kind: MappedKind, plan: FieldPlan): Promise<{ fields: Record<string, unknown>; dropped: string[] }> {
  const fields: Record<string, unknown> = {};
  if (kind === "category" || kind === "tag") {
    const term = JSON.parse(item.payload) as WxrTerm;
    if (plan.title) fields[plan.title] = term.name;
    if (plan.excerpt && term.description) fields[plan.excerpt] = term.description;
    if (plan.parent && term.parent) {
      const parent = await createdOf(ctx, job.id, kind, term.parent);
      if (parent) fields[plan.parent] = parent;
    }
    return { fields, dropped: [] };
  }
  const post = JSON.parse(item.payload) as WxrPost;
  if (plan.title) fields[plan.title] = post.title;
  let dropped: string[] = [];
  if (plan.body) {
    const withImages = await linkContentImages(ctx, job.id, post.content);
    const converted = convertContent(withImages.content);
    fields[plan.body] = converted.html;
    dropped = converted.dropped;
  }
  if (plan.excerpt && post.excerpt) fields[plan.excerpt] = post.excerpt;
  // A term and its Polylang translations may be one entry (translations.ts): listed once.
  if (plan.categories && post.categories.length > 0) fields[plan.categories] = [...new Set(await createdMany(ctx, job.id, "category", post.categories))];
  if (plan.tags && post.tags.length > 0) fields[plan.tags] = [...new Set(await createdMany(ctx, job.id, "tag", post.tags))];
  if (plan.parent && post.post_parent && post.post_parent !== "0") {
    const parent = await createdOf(ctx, job.id, kind, post.post_parent);
    if (parent) fields[plan.parent] = parent;
  }
  const date = gmtDate(post.post_date_gmt);
  if (plan.date && date) fields[plan.date] = date;
  if (plan.image && post.thumbnail_id) {
    const image = await mediaOfAttachment(ctx, job.id, post.thumbnail_id);
    if (image) fields[plan.image] = image;
  }
  return { fields, dropped };
}

function refusalFinding(seq: number, error: AppError, doing: string): Finding {
  if (error.code === "missing_permission" || error.code === "forbidden" || error.code === "field_denied" || error.code === "locale_denied") {
    return finding(seq, "permission_denied", `${doing}: the import's caller may not do this now.`, { code: error.code });
  }
  if (error.code === "slug_taken") return finding(seq, "slug_taken", `${doing}: the address is taken in the model; the item was skipped, not renamed.`, { code: error.code });
  return finding(seq, "item_refused", `${doing}: ${error.message}`, { code: error.code, ...(error.details ?? {}) });
}

/** A created item's publication, planned and waiting for the step's next batch. */
interface PlannedPublication {
  item: StagedRow;
  plan: WritePlan<EntryView>;
  planned: PlannedBatch<EntryView>;
}

/** A create planned and waiting for the step's next batch. */
interface PlannedCreate extends Omit<PlannedPublication, "item"> {
  item: StagedRow;
  publish: boolean;
  asked: Extract<AskedWrite<object>, { ok: true }>;
}

/**
 * Whether an item may be written in one batch with the other items of its kind around it: it reads
 * nothing another item of the step writes — no parent, no translation group, no featured or content
 * image (those are looked up in the rows their own writes commit). Any other item is written alone,
 * after the items before it are committed (and published), as a step of one.
 */
async function writtenTogether(ctx: StepContext, job: ImportJobRow, item: StagedRow, payload: WxrPost & WxrTerm): Promise<boolean> {
  if (item.kind === "post" || item.kind === "page") {
    const noParent = !payload.post_parent || payload.post_parent === "0";
    return noParent && !payload.translation_group && !payload.thumbnail_id && contentImages(payload.content ?? "").length === 0;
  }
  if (item.kind === "category" || item.kind === "tag") return !payload.parent && !(await termGroupsStaged(ctx, job));
  return false;
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
  const findings: Finding[] = [];
  const events: CommittedEvent[] = [];
  const purgeTags: string[] = [];
  const markers: CompiledQuery[] = [];
  let paused: AppError | null = null;
  const creates: PlannedCreate[] = [];
  const publications: PlannedPublication[] = [];

  const committed = (done: Committed<EntryView>) => {
    events.push(...done.events);
    purgeTags.push(...done.purgeTags);
  };
  const explained = async (plan: WritePlan<EntryView>, error: AppError) => (plan.explain ? await plan.explain(error) : error);

  /** Plans the publication of a created item (asked of the policies first); a refusal keeps it a draft. */
  const planPublication = async (item: StagedRow, instanceId: string) => {
    try {
      const allowed = await askImportWrite(ctx, "publish", { instance_id: instanceId });
      // A publication the policies refuse or cannot be asked about leaves the item a draft, reported.
      if (!allowed.ok) throw allowed.error;
      findings.push(...policyFindings(item.seq, allowed.results));
      const plan = await publishEntry(ctx, { instance_id: instanceId });
      plan.statements.push(statement("UPDATE import_items SET state = 'published' WHERE site_id = ? AND job_id = ? AND seq = ?", [ctx.site.id, job.id, item.seq]));
      publications.push({ item, plan, planned: await planStatements(ctx, plan) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      findings.push(refusalFinding(item.seq, error, `Publishing ${item.kind} ${item.source_key} (kept as a draft)`));
    }
  };

  /** Commits the planned creates: one batch, or one item at a time when that batch is refused. */
  const commitCreates = async () => {
    const group = creates.splice(0);
    if (group.length === 0) return;
    const createdOk = (c: PlannedCreate) => {
      committed(c.planned.committed);
      findings.push(...policyFindings(c.item.seq, c.asked.results));
    };
    const refused = (c: PlannedCreate, error: AppError) => {
      // Values a transform wrote and the create then refused: the transform was invalid (as for a single save).
      findings.push(refusalFinding(c.item.seq, c.asked.explain(error.toFailure()) ?? error, `Creating ${c.item.kind} ${c.item.source_key}`));
      markers.push(statement("UPDATE import_items SET state = 'skipped' WHERE site_id = ? AND job_id = ? AND seq = ? AND state = 'staged'", [ctx.site.id, job.id, c.item.seq]));
    };
    const written: PlannedCreate[] = [];
    try {
      await commit(ctx.d1, group.flatMap((c) => c.planned.statements));
      written.push(...group);
    } catch {
      // Whatever refused the group (an item's guard, or the batch itself), each item alone says which.
      for (const c of group) {
        try {
          await commit(ctx.d1, c.planned.statements);
          written.push(c);
        } catch (one) {
          if (!(one instanceof AppError)) throw one;
          refused(c, await explained(c.plan, one));
        }
      }
    }
    for (const c of written) {
      createdOk(c);
      if (c.publish) await planPublication(c.item, c.plan.answer.instance_id);
    }
  };

  /**
   * Commits the planned publications with `last()` (the step's closing statements, built after
   * them so they hold every finding): one batch, or each publication alone then `last()` when that
   * batch is refused.
   */
  const commitPublications = async (last: () => CompiledQuery[]) => {
    const group = publications.splice(0);
    try {
      await commit(ctx.d1, [...group.flatMap((p) => p.planned.statements), ...last()]);
      for (const p of group) committed(p.planned.committed);
      return;
    } catch (error) {
      if (group.length === 0) throw error;
    }
    for (const p of group) {
      try {
        await commit(ctx.d1, p.planned.statements);
        committed(p.planned.committed);
      } catch (one) {
        if (!(one instanceof AppError)) throw one;
        findings.push(refusalFinding(p.item.seq, await explained(p.plan, one), `Publishing ${p.item.kind} ${p.item.source_key} (kept as a draft)`));
      }
    }
    await commit(ctx.d1, last());
  };

  /** Everything planned so far committed (and published), before an item that reads it. */
  const flush = async () => {
    await commitCreates();
    if (publications.length > 0) await commitPublications(() => []);
  };

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
    if (!together || creates.some((c) => c.item.kind !== item.kind)) await flush();
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
      const firstPublished = publish && kind !== "category" && kind !== "tag" ? gmtDate(payload.post_date_gmt) : null;
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
    if (!together) await flush();
  }
  await commitCreates();
  const more = handled < batch.length || staged.length > WRITE_STEP_SCAN;
  const set = { state: more ? ("writing" as const) : ("done" as const), items_done: job.items_done + handled };
  // The step's last batch: the publications planned, the markers and findings, the job's move and,
  // unless the step answers a refusal, the end of its step claim (rule 5: done with the move).
  const claimDone = paused ? undefined : ctx.claimDone;
  await commitPublications(() => [
    ...markers,
    ...findingStatements(ctx, job.id, job.findings_count, findings),
    ...moveJob(ctx, job, { ...set, findings_count: job.findings_count + findings.length }),
    ...(claimDone ? [claimDone.statement] : []),
  ]);
  if (claimDone) claimDone.committed = true;
  // An enforcing policy not asked (or the policy budget spent): progress kept, the step answers its refusal.
  if (paused) throw paused;
  return { job: movedJob(ctx, job, { ...set, findings_count: job.findings_count + findings.length }), events, purgeTags };
}
