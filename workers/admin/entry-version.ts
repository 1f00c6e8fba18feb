import { decide } from "../../shared/auth/permissions";
import { AppError } from "../../shared/errors";
import { entryRepository } from "../../shared/repositories/entry-repository";
import { modelRepository } from "../../shared/repositories/model-repository";
import { entryView, readableLabel } from "../../shared/services/lifecycle/entry-view";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";

/**
 * GET /api/entries/{id}/versions/{version_id}: one version's values, for the versions screen's
 * diff (the management API lists versions without their values). Read like GET /entries/{id}: an
 * entry the person may not read, or a version of another entry, is 404; fields beyond the
 * person's read limit are left out, as in the entry view.
 */
export async function getEntryVersion(call: SiteCall): Promise<Response> {
  const [entryId = "", versionId = ""] = call.params;
  const entries = entryRepository(call.ctx.db, call.ctx.scope);
  const entry = await entries.find(entryId);
  const model = entry ? await modelRepository(call.ctx.db, call.ctx.scope).findById(entry.model_id) : undefined;
  const actor = call.ctx.actor;
  if (!entry || !model || !decide(actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed) throw new AppError("not_found", "No such entry.");
  const version = await entries.findVersion(versionId);
  if (!version || version.instance_id !== entry.instance_id) throw new AppError("not_found", "No such version of this entry.");
  const view = entryView(entry, model, version, actor);
  return json({
    id: version.id,
    instance_id: entry.instance_id,
    number: version.number,
    slug: version.slug,
    label: readableLabel(version.label, model, actor.permissions),
    created_by: version.created_by,
    restored_from: version.restored_from,
    created_at: version.created_at,
    fields: view.fields,
  });
}
