import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { importJobView, requireImportPermission, type ImportJobRow, type ImportJobView, type ImportKind } from "./jobs";
import { firstRow, statement } from "./statements";

export interface ImportSourceView {
  id: string;
  kind: ImportKind;
  name: string;
  created_at: string;
}

export interface CreateImportSourceInput {
  kind: ImportKind;
  name: string;
}

/** createImportSource: one batch with its answer (spec 2, idempotency rule 3). */
export async function createImportSource(ctx: LifecycleContext, input: CreateImportSourceInput): Promise<WritePlan<{ source: ImportSourceView }>> {
  requireImportPermission(ctx);
  const id = newId("isr");
  const at = isoAt(ctx.clock.now());
  const source: ImportSourceView = { id, kind: input.kind, name: input.name, created_at: at };
  return {
    statements: [statement("INSERT INTO import_sources (id, site_id, kind, name, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)", [id, ctx.site.id, input.kind, input.name, ctx.actor.id, at])],
    answer: { source },
    events: [],
    purgeTags: [],
    audit: { action: "import.source.create", targetKind: "import_source", targetId: id, details: { kind: input.kind, name: input.name } },
    locks: [],
  };
}

export interface CreateImportInput {
  /** Made by the router with the R2 multipart upload it opened for the file (the object key names it). */
  job_id: string;
  source_id: string;
  file_name: string;
  object_key: string;
  upload_id: string;
}

/**
 * createImport: a job waiting for its file, in one batch with its answer (rule 3). The R2 multipart
 * upload was opened by the router before; a refusal here leaves it to be aborted by the router.
 */
export async function createImport(ctx: LifecycleContext, input: CreateImportInput): Promise<WritePlan<{ import: ImportJobView }>> {
  requireImportPermission(ctx);
  const source = await firstRow<{ id: string; kind: ImportKind }>(ctx.d1, "SELECT id, kind FROM import_sources WHERE site_id = ? AND id = ?", [ctx.site.id, input.source_id]);
  if (!source) throw new AppError("not_found", "No such import source.", { source_id: input.source_id });
  const at = isoAt(ctx.clock.now());
  const job: ImportJobRow = {
    id: input.job_id,
    site_id: ctx.site.id,
    source_id: source.id,
    kind: source.kind,
    state: "awaiting_upload",
    paused_from: null,
    position: 0,
    created_by: ctx.actor.id,
    file_name: input.file_name,
    object_key: input.object_key,
    upload_id: input.upload_id,
    file_bytes: null,
    file_sha256: null,
    parse_offset: 0,
    items_total: 0,
    items_done: 0,
    findings_count: 0,
    decisions: null,
    failure: null,
    created_at: at,
    updated_at: at,
  };
  const columns = Object.keys(job);
  return {
    statements: [statement(`INSERT INTO import_jobs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, Object.values(job))],
    answer: { import: importJobView(job) },
    events: [],
    purgeTags: [],
    audit: { action: "import.create", targetKind: "import", targetId: job.id, details: { source_id: source.id, file_name: input.file_name } },
    locks: [],
  };
}
