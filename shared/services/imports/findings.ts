import type { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import type { LifecycleContext } from "../lifecycle/context";
import { rows, statement } from "./statements";

/**
 * Finding codes (docs/imports.md, "Findings"). A finding is kept for the job and never stops it,
 * except `import_file_invalid` and `import_archive_invalid`, which fail the job before anything is written.
 */
export type FindingCode =
  | "import_file_invalid"
  | "import_archive_invalid"
  | "rich_markup_dropped"
  | "slug_taken"
  | "permission_denied"
  | "item_refused"
  | "item_skipped"
  | "item_too_large"
  | "date_not_kept"
  | "model_conflict"
  | "status_kept_as_draft"
  | "media_not_imported"
  | "category_parent_missing"
  | "undo_kept_changed"
  | "undo_failed"
  | "policy_transformed"
  | "policy_unavailable";

export interface Finding {
  item_seq: number | null;
  code: FindingCode;
  message: string;
  details: Record<string, unknown>;
}

export interface FindingView extends Finding {
  seq: number;
  created_at: string;
}

/**
 * The rows of new findings, numbered after the `count` the job holds (steps of one job run one at a
 * time in the site's write queue, so the numbers never collide; the primary key would refuse it).
 */
export function findingStatements(ctx: Pick<LifecycleContext, "site" | "clock">, jobId: string, count: number, findings: readonly Finding[]): CompiledQuery[] {
  const at = isoAt(ctx.clock.now());
  return findings.map((f, i) =>
    statement("INSERT INTO import_findings (job_id, seq, site_id, item_seq, code, message, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
      jobId,
      count + i + 1,
      ctx.site.id,
      f.item_seq,
      f.code,
      f.message,
      JSON.stringify(f.details),
      at,
    ]),
  );
}

/** Findings pages: at most this many a page. */
export const FINDINGS_PAGE = 100;

/** One page of a job's findings after `after` (a finding's seq), oldest first. */
export async function findingsPage(ctx: Pick<LifecycleContext, "d1" | "site">, jobId: string, after: number, limit: number): Promise<{ findings: FindingView[]; next_cursor: string | null }> {
  const found = await rows<{ seq: number; item_seq: number | null; code: string; message: string; details: string; created_at: string }>(
    ctx.d1,
    "SELECT seq, item_seq, code, message, details, created_at FROM import_findings WHERE site_id = ? AND job_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    [ctx.site.id, jobId, after, limit + 1],
  );
  const page = found.slice(0, limit);
  return {
    findings: page.map((f) => ({ seq: f.seq, item_seq: f.item_seq, code: f.code as FindingCode, message: f.message, details: JSON.parse(f.details) as Record<string, unknown>, created_at: f.created_at })),
    next_cursor: found.length > limit ? String(page[page.length - 1]?.seq ?? after) : null,
  };
}
