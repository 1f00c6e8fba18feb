import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import { modelRepository } from "../../../repositories/model-repository";
import { requireValidSlug, slugify } from "../../lifecycle/slugs";
import type { LifecycleContext } from "../../lifecycle/context";
import type { StepAnswer, StepContext } from "../job-step";
import { importJobView, loadImportJob, movedJob, moveJob, requireImportPermission, requireState, type ImportJobRow, type ImportJobView } from "../jobs";
import { rows } from "../statements";
import { MAPPED_KINDS, mappedModels, proposedMapping, type MappedKind, type WordPressMapping } from "./mapping";
import type { WxrPost, WxrTerm } from "./wxr-items";

/** The choices recorded by decideWordPressReview (the job's `decisions`). */
export interface WordPressDecisions {
  mapping: WordPressMapping;
  /** Items whose address is taken, given another one by the person deciding (item seq → slug). */
  renames: Record<string, string>;
  approved: boolean;
  /** History assignments (putHistoryAssignments): WordPress author login → person id, or null to keep the author's name only. */
  principals?: Record<string, string | null>;
  /** Whether write steps fetch attachment URLs (through the outbound address policy) not sent with uploadImportMedia. */
  fetch_attachments?: boolean;
}

export function decisionsOf(job: ImportJobRow): WordPressDecisions | null {
  return job.decisions ? (JSON.parse(job.decisions) as WordPressDecisions) : null;
}

/** Staged items a review page reads at most (its conflicts are those of these items). */
export const REVIEW_PAGE_ITEMS = 500;

interface StagedRow {
  seq: number;
  kind: string;
  source_key: string;
  payload: string;
}

/** The address an item asks for in its model: the WordPress slug, else one made from its title. */
export function wantedSlug(kind: string, payload: WxrPost | WxrTerm): string {
  if (kind === "category" || kind === "tag") return (payload as WxrTerm).slug || slugify((payload as WxrTerm).name);
  const post = payload as WxrPost;
  return post.slug || slugify(post.title);
}

export interface SlugConflict {
  item_seq: number;
  kind: MappedKind;
  source_key: string;
  slug: string;
  model_id: string;
  taken_by: { instance_id: string } | { item_seq: number };
}

/**
 * getWordPressReview: what the import will create (counts by kind and status), the proposed and
 * chosen mapping with where each value goes, and the address conflicts of one page of items
 * (`after`: an item seq) — before anything is written.
 */
export async function wordpressReview(ctx: LifecycleContext, jobId: string, after: number) {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, jobId);
  if (job.kind !== "wordpress") throw new AppError("import_state_conflict", "This import is not a WordPress import.", { state: job.state });
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const decided = decisionsOf(job);
  const mapping = decided?.mapping ?? proposedMapping(models);
  const counts = await rows<{ kind: string; status: string | null; n: number }>(
    ctx.d1,
    "SELECT kind, json_extract(payload, '$.status') AS status, count(*) AS n FROM import_items WHERE site_id = ? AND job_id = ? GROUP BY kind, status",
    [ctx.site.id, jobId],
  );
  const byKind: Record<string, { total: number; by_status: Record<string, number> }> = {};
  for (const c of counts) {
    const entry = (byKind[c.kind] ??= { total: 0, by_status: {} });
    entry.total += c.n;
    if (c.status) entry.by_status[c.status] = (entry.by_status[c.status] ?? 0) + c.n;
  }
  let plans: Awaited<ReturnType<typeof mappedModels>> | null = null;
  let mappingProblems: unknown = null;
  try {
    plans = await mappedModels(ctx, mapping);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    mappingProblems = error.details?.problems ?? null;
  }
  const page = await rows<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND seq > ? ORDER BY seq LIMIT ?", [ctx.site.id, jobId, after, REVIEW_PAGE_ITEMS + 1]);
  const items = page.slice(0, REVIEW_PAGE_ITEMS);
  const conflicts = plans ? await slugConflicts(ctx, job, items, mapping, decided?.renames ?? {}) : [];
  return {
    import: importJobView(job),
    counts: byKind,
    mapping: { proposed: proposedMapping(models), chosen: decided?.mapping ?? null, problems: mappingProblems },
    fields: plans ? Object.fromEntries([...plans].map(([kind, { plan }]) => [kind, plan])) : {},
    conflicts,
    decided: decided?.approved === true,
    choices: {
      mapping: "Choose a model (or null) for each of post, page, category, tag.",
      renames: "Give an item whose address is taken another slug (item seq → slug); an item left with a taken address is skipped and reported as slug_taken, never renamed silently.",
    },
    next_cursor: page.length > REVIEW_PAGE_ITEMS ? String(items[items.length - 1]?.seq ?? after) : null,
  };
}

/** Items of the page whose address is taken in their model: by an entry already there, or by an earlier item of the file. */
async function slugConflicts(ctx: LifecycleContext, job: ImportJobRow, items: readonly StagedRow[], mapping: WordPressMapping, renames: Record<string, string>): Promise<SlugConflict[]> {
  const wanted = items
    .filter((i): i is StagedRow & { kind: MappedKind } => (MAPPED_KINDS as readonly string[]).includes(i.kind) && mapping[i.kind as MappedKind] !== null)
    .map((i) => ({ item: i, model_id: mapping[i.kind] as string, slug: renames[String(i.seq)] ?? wantedSlug(i.kind, JSON.parse(i.payload) as WxrPost) }));
  const out: SlugConflict[] = [];
  const byModel = new Map<string, typeof wanted>();
  for (const w of wanted) byModel.set(w.model_id, [...(byModel.get(w.model_id) ?? []), w]);
  for (const [modelId, list] of byModel) {
    for (let i = 0; i < list.length; i += 90) {
      const part = list.slice(i, i + 90);
      const taken = await rows<{ slug: string; instance_id: string }>(
        ctx.d1,
        `SELECT slug, instance_id FROM entries WHERE site_id = ? AND model_id = ? AND lang = ? AND slug IN (${part.map(() => "?").join(",")})`,
        [ctx.site.id, modelId, ctx.site.default_lang, ...part.map((w) => w.slug)],
      );
      const holders = new Map(taken.map((t) => [t.slug, t.instance_id]));
      for (const w of part) {
        const holder = holders.get(w.slug);
        if (holder) out.push({ item_seq: w.item.seq, kind: w.item.kind, source_key: w.item.source_key, slug: w.slug, model_id: modelId, taken_by: { instance_id: holder } });
      }
    }
    // Two items of the file asking for one address in one model: the later one conflicts.
    const first = new Map<string, number>();
    for (const w of list) {
      const earlier = first.get(w.slug);
      if (earlier !== undefined) out.push({ item_seq: w.item.seq, kind: w.item.kind, source_key: w.item.source_key, slug: w.slug, model_id: modelId, taken_by: { item_seq: earlier } });
      else first.set(w.slug, w.item.seq);
    }
  }
  void job;
  return out.sort((a, b) => a.item_seq - b.item_seq);
}

/** Why a rename cannot be recorded: the file holds no such item, its kind has no address, or the slug is not one. */
type RenameProblem = { item_seq: number; slug: string; reason: "not_in_file" | "not_renamable" | "invalid_slug" };

/**
 * Renames are checked when they are decided, not when the item is written (probe finding: a slug
 * that can never be written, or an item the file does not hold, was recorded silently): each must
 * name an item of the file of a kind with an address (post, page, category, tag) and a valid slug.
 * Every problem is named (422 `import_mapping_invalid`, as for the mapping and the history
 * assignments), and nothing is recorded.
 */
async function requireRenamable(ctx: LifecycleContext, job: ImportJobRow, renames: Record<string, string>): Promise<void> {
  const seqs = Object.keys(renames).map(Number);
  if (seqs.length === 0) return;
  const kinds = new Map<number, string>();
  for (let i = 0; i < seqs.length; i += 90) {
    const part = seqs.slice(i, i + 90);
    const found = await rows<{ seq: number; kind: string }>(ctx.d1, `SELECT seq, kind FROM import_items WHERE site_id = ? AND job_id = ? AND seq IN (${part.map(() => "?").join(",")})`, [ctx.site.id, job.id, ...part]);
    for (const f of found) kinds.set(f.seq, f.kind);
  }
  const problems: RenameProblem[] = [];
  for (const seq of seqs.sort((a, b) => a - b)) {
    const slug = renames[String(seq)] ?? "";
    const kind = kinds.get(seq);
    if (kind === undefined) problems.push({ item_seq: seq, slug, reason: "not_in_file" });
    else if (!(MAPPED_KINDS as readonly string[]).includes(kind)) problems.push({ item_seq: seq, slug, reason: "not_renamable" });
    else if (!validSlug(slug)) problems.push({ item_seq: seq, slug, reason: "invalid_slug" });
  }
  if (problems.length > 0) throw new AppError("import_mapping_invalid", "Some renames cannot be recorded.", { problems });
}

function validSlug(slug: string): boolean {
  try {
    requireValidSlug(slug);
    return true;
  } catch {
    return false;
  }
}

export interface DecideInput {
  job_id: string;
  mapping?: WordPressMapping;
  renames?: Record<string, string>;
  approve?: boolean;
}

/**
 * decideWordPressReview (a job step, rule 5): records the mapping (checked against the models now),
 * renames of taken addresses and the approval that lets the write steps start. Choices sent again
 * replace those named; nothing of the site's content is written.
 */
export async function decideWordPressReview(ctx: StepContext, input: DecideInput): Promise<StepAnswer<{ import: ImportJobView; decisions: WordPressDecisions }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  if (job.kind !== "wordpress") throw new AppError("import_state_conflict", "This import is not a WordPress import.", { state: job.state });
  requireState(job, ["review"], "Deciding the review");
  const before = decisionsOf(job);
  const models = before ? null : await modelRepository(ctx.db, ctx.scope).list();
  const mapping = input.mapping ?? before?.mapping ?? proposedMapping(models ?? []);
  await mappedModels(ctx, mapping);
  for (const [seq, slug] of Object.entries(input.renames ?? {})) {
    if (!/^[0-9]+$/.test(seq) || slug.length === 0) throw new AppError("invalid_request", "renames maps an item seq to a slug.", { seq });
  }
  await requireRenamable(ctx, job, input.renames ?? {});
  const decisions: WordPressDecisions = { ...before, mapping, renames: { ...(before?.renames ?? {}), ...(input.renames ?? {}) }, approved: input.approve ?? before?.approved ?? false };
  const set = { decisions: JSON.stringify(decisions) };
  await commit(ctx.d1, moveJob(ctx, job, set));
  return { body: { import: importJobView(movedJob(ctx, job, set)), decisions }, purgeTags: [] };
}
