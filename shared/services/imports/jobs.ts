import type { CompiledQuery } from "kysely";
import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { guard } from "../../db/batch";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";
import { firstRow, statement } from "./statements";

/** Where content comes from: a WordPress export file (WXR) or a Driftwood export (docs/exports.md). */
export type ImportKind = "wordpress" | "driftwood";

/**
 * States of an import job (docs/imports.md, "States"):
 * awaiting_upload → uploaded → parsing → review → writing → done; paused (from parsing, review or
 * writing), cancelled, failed (the file was refused); done → undoing → undone.
 */
export const IMPORT_STATES = ["awaiting_upload", "uploaded", "parsing", "review", "writing", "paused", "done", "cancelled", "failed", "undoing", "undone"] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/** The largest import file: 20 parts of 5 MiB (docs/imports.md, "Limits"). */
export const IMPORT_PART_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_PARTS = 20;
export const IMPORT_MAX_BYTES = IMPORT_PART_BYTES * IMPORT_MAX_PARTS;

export interface ImportJobRow {
  id: string;
  site_id: string;
  source_id: string;
  kind: ImportKind;
  state: ImportState;
  paused_from: ImportState | null;
  position: number;
  created_by: string;
  file_name: string;
  object_key: string;
  upload_id: string | null;
  file_bytes: number | null;
  file_sha256: string | null;
  parse_offset: number;
  items_total: number;
  items_done: number;
  findings_count: number;
  decisions: string | null;
  failure: string | null;
  created_at: string;
  updated_at: string;
}

/** The job as every import operation answers it. */
export interface ImportJobView {
  id: string;
  source_id: string;
  kind: ImportKind;
  state: ImportState;
  paused_from: ImportState | null;
  position: number;
  file: { name: string; bytes: number | null; sha256: string | null };
  progress: { items_total: number; items_done: number; findings: number; parsed_bytes: number };
  /** What the client may do next (`advance`, `decide`, `upload`, `resume`, `undo`…). */
  next: string[];
  failure: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
}

export function importJobView(job: ImportJobRow): ImportJobView {
  return {
    id: job.id,
    source_id: job.source_id,
    kind: job.kind,
    state: job.state,
    paused_from: job.paused_from,
    position: job.position,
    file: { name: job.file_name, bytes: job.file_bytes, sha256: job.file_sha256 },
    progress: { items_total: job.items_total, items_done: job.items_done, findings: job.findings_count, parsed_bytes: job.parse_offset },
    next: nextActions(job.state),
    failure: job.failure ? (JSON.parse(job.failure) as { code: string; message: string }) : null,
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}

function nextActions(state: ImportState): string[] {
  switch (state) {
    case "awaiting_upload":
      return ["upload", "complete_upload", "cancel"];
    case "uploaded":
    case "parsing":
    case "writing":
      return ["advance", "pause", "cancel"];
    case "review":
      return ["decide", "advance", "pause", "cancel"];
    case "paused":
      return ["resume", "cancel"];
    case "done":
    // A cancelled job keeps what it wrote "until undone" (docs/imports.md): undo is what may come next.
    case "cancelled":
      return ["undo"];
    case "undoing":
      return ["undo"];
    default:
      return [];
  }
}

/** The `data:import` permission every import operation asks of its caller now (spec 2, Scopes). */
export function requireImportPermission(ctx: Pick<LifecycleContext, "actor">): void {
  if (!hasSystemPermission(ctx.actor.permissions, "data:import")) {
    throw new AppError("missing_permission", "Imports need the data:import permission.", { permission: "data:import" });
  }
}

export async function loadImportJob(ctx: Pick<LifecycleContext, "d1" | "site">, jobId: string): Promise<ImportJobRow> {
  const job = await firstRow<ImportJobRow>(ctx.d1, "SELECT * FROM import_jobs WHERE site_id = ? AND id = ?", [ctx.site.id, jobId]);
  if (!job) throw new AppError("not_found", "No such import job.");
  return job;
}

/** Refuses a step the job's state does not allow, naming the state. */
export function requireState(job: ImportJobRow, allowed: readonly ImportState[], doing: string): void {
  if (!allowed.includes(job.state)) {
    throw new AppError("import_state_conflict", `${doing} is not possible while the import is ${job.state}.`, { state: job.state, position: job.position });
  }
}

/**
 * The statement that moves the job: sets the given columns and adds one to its position, only if
 * the position is still the one the step read (a guard: a concurrent move aborts the batch).
 */
export function moveJob(ctx: Pick<LifecycleContext, "site" | "clock" | "db">, job: ImportJobRow, set: Partial<Omit<ImportJobRow, "id" | "site_id" | "position">>): CompiledQuery[] {
  const entries = Object.entries({ ...set, updated_at: isoAt(ctx.clock.now()) });
  const assignments = entries.map(([column]) => `${column} = ?`).join(", ");
  const unmoved = guard(ctx.db, "import_state_conflict", "EXISTS (SELECT 1 FROM import_jobs WHERE site_id = ? AND id = ? AND position = ?)", [ctx.site.id, job.id, job.position]);
  return [unmoved, statement(`UPDATE import_jobs SET ${assignments}, position = position + 1 WHERE site_id = ? AND id = ? AND position = ?`, [
    ...entries.map(([, value]) => value),
    ctx.site.id,
    job.id,
    job.position,
  ])];
}

/** The job after {@link moveJob} with the same columns, for the step's answer. */
export function movedJob(ctx: Pick<LifecycleContext, "clock">, job: ImportJobRow, set: Partial<ImportJobRow>): ImportJobRow {
  return { ...job, ...set, position: job.position + 1, updated_at: isoAt(ctx.clock.now()) };
}
