import type { CompiledQuery } from "kysely";
import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { guard } from "../../db/batch";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { firstRow, statement } from "../imports/statements";

/** The export file format this version writes (docs/exports.md). */
export const EXPORT_FORMAT = "driftwood-export";
export const EXPORT_FORMAT_VERSION = 1;
export const EXPORT_CONTENT_TYPE = "application/x-ndjson";

export interface ExportFilter {
  model_ids: string[] | null;
  languages: string[] | null;
}

/** Where the next build step continues: which section, after which id. */
export interface ExportCursor {
  section: "header" | "entries" | "media" | "end" | "seal";
  after: string;
}

export interface ExportJobRow {
  id: string;
  site_id: string;
  state: "building" | "finished" | "cancelled";
  position: number;
  created_by: string;
  filter: string;
  cursor: string;
  pages: number;
  total_bytes: number;
  sha256: string | null;
  created_at: string;
  updated_at: string;
}

export interface ExportJobView {
  id: string;
  state: ExportJobRow["state"];
  position: number;
  filter: ExportFilter;
  format: { name: string; version: number; content_type: string };
  pages: number;
  total_bytes: number;
  sha256: string | null;
  section: ExportCursor["section"];
  created_at: string;
  updated_at: string;
}

export function exportJobView(job: ExportJobRow): ExportJobView {
  return {
    id: job.id,
    state: job.state,
    position: job.position,
    filter: JSON.parse(job.filter) as ExportFilter,
    format: { name: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION, content_type: EXPORT_CONTENT_TYPE },
    pages: job.pages,
    total_bytes: job.total_bytes,
    sha256: job.sha256,
    section: (JSON.parse(job.cursor) as ExportCursor).section,
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}

export function requireExportPermission(ctx: Pick<LifecycleContext, "actor">): void {
  if (!hasSystemPermission(ctx.actor.permissions, "data:export")) {
    throw new AppError("missing_permission", "Exports need the data:export permission.", { permission: "data:export" });
  }
}

export async function loadExportJob(ctx: Pick<LifecycleContext, "d1" | "site">, id: string): Promise<ExportJobRow> {
  const job = await firstRow<ExportJobRow>(ctx.d1, "SELECT * FROM export_jobs WHERE site_id = ? AND id = ?", [ctx.site.id, id]);
  if (!job) throw new AppError("not_found", "No such export.");
  return job;
}

/** Moves the export (position + 1), guarded on the position read. */
export function moveExport(ctx: Pick<LifecycleContext, "site" | "clock" | "db">, job: ExportJobRow, set: Partial<ExportJobRow>): CompiledQuery[] {
  const entries = Object.entries({ ...set, updated_at: isoAt(ctx.clock.now()) });
  return [
    guard(ctx.db, "export_state_conflict", "EXISTS (SELECT 1 FROM export_jobs WHERE site_id = ? AND id = ? AND position = ?)", [ctx.site.id, job.id, job.position]),
    statement(`UPDATE export_jobs SET ${entries.map(([c]) => `${c} = ?`).join(", ")}, position = position + 1 WHERE site_id = ? AND id = ?`, [...entries.map(([, v]) => v), ctx.site.id, job.id]),
  ];
}

export const movedExport = (ctx: Pick<LifecycleContext, "clock">, job: ExportJobRow, set: Partial<ExportJobRow>): ExportJobRow => ({ ...job, ...set, position: job.position + 1, updated_at: isoAt(ctx.clock.now()) });

export const exportPageKey = (siteId: string, jobId: string, page: number) => `exports/${siteId}/${jobId}/page-${page}`;
