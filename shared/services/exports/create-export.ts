import { modelOperations, readableLanguages, readsWholeModel } from "../../auth/permissions";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { modelRepository } from "../../repositories/model-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { statement } from "../imports/statements";
import { exportJobView, requireExportPermission, type ExportFilter, type ExportJobRow, type ExportJobView } from "./jobs";

export interface CreateExportInput {
  model_ids?: string[] | null;
  languages?: string[] | null;
}

/**
 * createExport (one batch with its answer, rule 3). A whole-site export needs a role reading every
 * model whole, in every language: a role narrowing reading (models, fields or languages) is 403
 * `export_limited_role` (spec 3). An export filtered to models and languages the caller reads is
 * allowed; fields its role may not read are left out of it.
 */
export async function createExport(ctx: LifecycleContext, input: CreateExportInput): Promise<WritePlan<{ export: ExportJobView }>> {
  requireExportPermission(ctx);
  const models = await modelRepository(ctx.db, ctx.scope).list();
  const perms = ctx.actor.permissions;
  const languages = ctx.site.languages;
  const filter: ExportFilter = { model_ids: input.model_ids ?? null, languages: input.languages ?? null };
  if (filter.model_ids === null && filter.languages === null) {
    const narrowed = models.filter((m) => !readsWholeModel(perms, m.id)).map((m) => m.id);
    if (narrowed.length > 0 || readableLanguages(perms, languages).length < languages.length) {
      throw new AppError("export_limited_role", "Your role narrows what it reads; a whole-site export needs every model, field and language. Export the models and languages you read instead.", { models: narrowed });
    }
  } else {
    const known = new Set(models.map((m) => m.id));
    for (const id of filter.model_ids ?? []) {
      if (!known.has(id) || !modelOperations(perms, id).includes("read")) throw new AppError("not_found", "No such model, or your role does not read it.", { model_id: id });
    }
    const readable = readableLanguages(perms, languages);
    for (const lang of filter.languages ?? []) {
      if (!readable.includes(lang)) throw new AppError("locale_denied", "Your role does not read this language (or the site has none such).", { lang });
    }
  }
  const at = isoAt(ctx.clock.now());
  const job: ExportJobRow = {
    id: newId("exp"),
    site_id: ctx.site.id,
    state: "building",
    position: 0,
    created_by: ctx.actor.id,
    filter: JSON.stringify(filter),
    cursor: JSON.stringify({ section: "header", after: "" }),
    pages: 0,
    total_bytes: 0,
    sha256: null,
    created_at: at,
    updated_at: at,
  };
  const columns = Object.keys(job);
  return {
    statements: [statement(`INSERT INTO export_jobs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, Object.values(job))],
    answer: { export: exportJobView(job) },
    events: [],
    purgeTags: [],
    audit: { action: "export.create", targetKind: "export", targetId: job.id, details: { filter } },
    locks: [],
  };
}
