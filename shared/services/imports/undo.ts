import { commit } from "../../db/batch";
import { AppError } from "../../errors";
import { commitPlan, type CommittedEvent } from "../lifecycle/commit-plan";
import { unpublishEntry } from "../lifecycle/transitions";
import { purgeEntry, trashEntry } from "../lifecycle/trash";
import { removeMedia } from "../media/remove";
import { findingStatements, type Finding } from "./findings";
import type { StepContext } from "./job-step";
import { movedJob, moveJob, type ImportJobRow } from "./jobs";
import { firstRow, rows, statement } from "./statements";

/** Items one undo step removes at most (three batches each: unpublish, Trash, delete). */
export const UNDO_STEP_ITEMS = 10;

/** The states of an item whose entry the import created and an undo removes. */
const UNDOABLE = ["written", "published", "linked"] as const;

interface CreatedRow {
  seq: number;
  kind: string;
  instance_id: string;
  version_id: string | null;
}

/**
 * One undo step (docs/imports.md, "Undo"): the entries the import created, newest first (posts
 * before the categories they link to), are withdrawn, moved to Trash and deleted for good — each
 * only if its current draft is still the version the import wrote. One an editor changed since is
 * kept and reported (`undo_kept_changed`); one the site refuses to remove (permission, content of
 * others linking to it) is reported (`undo_failed`) and can be tried again (retryImportUndo).
 */
export async function undoStep(ctx: StepContext, job: ImportJobRow): Promise<{ job: ImportJobRow; events: CommittedEvent[]; purgeTags: string[] }> {
  // The newest of each state by the (job_id, state, seq) index, merged: `state IN (…) ORDER BY seq`
  // read every created item of the job at each step (O(n) a step, O(n²) an undo).
  const newest = (state: string) => `SELECT * FROM (SELECT seq, kind, instance_id, version_id FROM import_items WHERE job_id = ? AND state = '${state}' AND kind <> 'model' AND site_id = ? ORDER BY seq DESC LIMIT ?)`;
  const created = (
    await rows<CreatedRow>(ctx.d1, UNDOABLE.map(newest).join(" UNION ALL "), UNDOABLE.flatMap(() => [job.id, ctx.site.id, UNDO_STEP_ITEMS + 1]))
  )
    .sort((a, b) => b.seq - a.seq)
    .slice(0, UNDO_STEP_ITEMS + 1);
  const batch = created.slice(0, UNDO_STEP_ITEMS);
  const findings: Finding[] = [];
  const events: CommittedEvent[] = [];
  const purgeTags: string[] = [];
  for (const item of batch) {
    const mark = (state: string) => statement("UPDATE import_items SET state = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [state, ctx.site.id, job.id, item.seq]);
    const entry = await firstRow<{ current_version_id: string | null; published_version_id: string | null; trashed_at: string | null }>(
      ctx.d1,
      "SELECT current_version_id, published_version_id, trashed_at FROM entries WHERE site_id = ? AND instance_id = ?",
      [ctx.site.id, item.instance_id],
    );
    if (!entry) {
      await commit(ctx.d1, [mark("undone")]);
      continue;
    }
    const changed = entry.current_version_id !== item.version_id || (entry.published_version_id !== null && entry.published_version_id !== item.version_id);
    if (changed) {
      findings.push({ item_seq: item.seq, code: "undo_kept_changed", message: "An editor changed this entry after the import; it is kept.", details: { instance_id: item.instance_id, current_version_id: entry.current_version_id } });
      await commit(ctx.d1, [mark("kept")]);
      continue;
    }
    try {
      if (entry.published_version_id !== null) {
        const withdrawn = await commitPlan(ctx, await unpublishEntry(ctx, { instance_id: item.instance_id, expected_published_version_id: entry.published_version_id }));
        events.push(...withdrawn.events);
        purgeTags.push(...withdrawn.purgeTags);
      }
      // This language alone: the import created each language on its own (a translation joined its
      // item's group), and moving the whole item refused while another language was still published.
      if (entry.trashed_at === null) events.push(...(await commitPlan(ctx, await trashEntry(ctx, { instance_id: item.instance_id, language_only: true }))).events);
      const purge = await purgeEntry(ctx, { instance_id: item.instance_id });
      purge.statements.push(mark("undone"));
      const purged = await commitPlan(ctx, purge);
      events.push(...purged.events);
      purgeTags.push(...purged.purgeTags);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      findings.push({ item_seq: item.seq, code: "undo_failed", message: `The entry could not be removed: ${error.message}`, details: { instance_id: item.instance_id, code: error.code } });
      await commit(ctx.d1, [mark("undo_failed")]);
    }
  }
  // Media items the import created go once no created entry is left (those entries used them).
  const media = batch.length === 0 ? await undoMedia(ctx, job, findings, purgeTags) : { more: await createdMediaLeft(ctx, job) };
  const more = created.length > UNDO_STEP_ITEMS || media.more;
  const set = { state: more ? ("undoing" as const) : ("undone" as const), findings_count: job.findings_count + findings.length };
  await commit(ctx.d1, [...findingStatements(ctx, job.id, job.findings_count, findings), ...moveJob(ctx, job, set)]);
  return { job: movedJob(ctx, job, set), events, purgeTags };
}

/**
 * Media items the import created (not those it found in the library: `media_created` 0), removed
 * through the media service (media:delete of whoever advances the undo). One still used — by an
 * entry the undo kept, or one an editor made since — is kept and reported (`undo_kept_changed`).
 */
async function undoMedia(ctx: StepContext, job: ImportJobRow, findings: Finding[], purgeTags: string[]): Promise<{ more: boolean }> {
  const created = await rows<{ seq: number; media_id: string }>(
    ctx.d1,
    "SELECT seq, media_id FROM import_items WHERE site_id = ? AND job_id = ? AND state = 'media' AND media_created = 1 ORDER BY seq DESC LIMIT ?",
    [ctx.site.id, job.id, UNDO_STEP_ITEMS + 1],
  );
  for (const item of created.slice(0, UNDO_STEP_ITEMS)) {
    const mark = (state: string) => statement("UPDATE import_items SET state = ? WHERE site_id = ? AND job_id = ? AND seq = ?", [state, ctx.site.id, job.id, item.seq]);
    try {
      const plan = await removeMedia(ctx, { media_id: item.media_id });
      plan.statements.push(mark("undone"));
      const removed = await commitPlan(ctx, plan);
      purgeTags.push(...removed.purgeTags);
      // The bytes are deleted once the row is gone (the site's object sweeps what a failed delete leaves).
      await Promise.all((plan.objectCleanup?.objectKeys ?? []).map((key) => ctx.files.delete(key).catch(() => undefined)));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === "not_found") {
        await commit(ctx.d1, [mark("undone")]);
        continue;
      }
      const kept = error.code === "media_in_use" || error.code === "media_usage_unreadable";
      findings.push({
        item_seq: item.seq,
        code: kept ? "undo_kept_changed" : "undo_failed",
        message: kept ? "The media item is used by content kept on the site; it is kept." : `The media item could not be removed: ${error.message}`,
        details: { media_id: item.media_id, code: error.code },
      });
      await commit(ctx.d1, [mark(kept ? "kept" : "undo_failed")]);
    }
  }
  return { more: created.length > UNDO_STEP_ITEMS };
}

async function createdMediaLeft(ctx: StepContext, job: ImportJobRow): Promise<boolean> {
  return (await firstRow(ctx.d1, "SELECT 1 AS one FROM import_items WHERE site_id = ? AND job_id = ? AND state = 'media' AND media_created = 1 LIMIT 1", [ctx.site.id, job.id])) !== undefined;
}

/** retryImportUndo: the items whose removal failed are tried again by the next undo steps. */
export async function retryUndoStatements(ctx: StepContext, job: ImportJobRow) {
  return [statement("UPDATE import_items SET state = CASE WHEN kind = 'attachment' THEN 'media' ELSE 'written' END WHERE site_id = ? AND job_id = ? AND state = 'undo_failed'", [ctx.site.id, job.id])];
}
