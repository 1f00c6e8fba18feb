/** POST /models/{id}/remove: removing an empty model that no relation targets, and what it leaves behind. */
import { CompiledQuery } from "kysely";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { modelRepository } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { loadModel } from "../lifecycle/load";
import { checkRoleGrants, checkTokenScopes } from "./model-grant-checks";
import type { ModelWriteAnswer } from "./apply-model-change";
import { authoriseModelWrite, checkRevision } from "./model-write-checks";
import { requireNoBoundQueries } from "../saved-queries/bound-queries";

export interface RemoveModelInput {
  model_id: string;
  expected_revision: number;
  confirm: string;
}

/** POST /models/{id}/remove: only a model without any entry (Trash included) and not a relation target. */
export async function removeModel(ctx: LifecycleContext, input: RemoveModelInput): Promise<WritePlan<ModelWriteAnswer>> {
  authoriseModelWrite(ctx, "remove");
  const model = await loadModel(ctx, input.model_id);
  if (input.confirm !== model.id) throw new AppError("invalid_request", "confirm must repeat the model id.", { parameter: "confirm" });
  checkRevision(model, input.expected_revision);
  const row = await ctx.d1.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND model_id = ?").bind(ctx.site.id, model.id).first<{ n: number }>();
  const entries = row?.n ?? 0;
  if (entries > 0) throw new AppError("model_not_empty", "The model still has entries (Trash included).", { entries });
  const targeting = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => m.id !== model.id && m.fields.some((f) => (f.targets ?? []).includes(model.id)));
  if (targeting.length > 0) {
    throw new AppError("dependent_content", "Relation fields of other models target this model.", { models: targeting.map((m) => m.slug) });
  }
  await checkRoleGrants(ctx, model.id, "model");
  await checkTokenScopes(ctx, model.id);
  await requireNoBoundQueries(ctx, model.id);
  const at = isoAt(ctx.clock.now());
  return {
    statements: [
      ctx.db.deleteFrom("models").where("site_id", "=", ctx.site.id).where("id", "=", model.id).where("revision", "=", input.expected_revision).compile(),
      CompiledQuery.raw("DELETE FROM search_documents WHERE site_id = ? AND model_id = ?", [ctx.site.id, model.id]),
      // Permission migration (spec 2 rule 9): plugin grants name models by id; a removed model leaves them.
      CompiledQuery.raw(
        `UPDATE plugin_installations SET granted_model_ids = (SELECT json_group_array(j.value) FROM json_each(plugin_installations.granted_model_ids) j WHERE j.value != ?)
         WHERE site_id = ? AND EXISTS (SELECT 1 FROM json_each(plugin_installations.granted_model_ids) j WHERE j.value = ?)`,
        [model.id, ctx.site.id, model.id],
      ),
    ],
    answer: { model_id: model.id, slug: model.slug, revision: model.revision, updated_at: at, created_field_ids: [], renamed_from: null, dependents: { complete: true } },
    events: [{ name: "model.deleted", payload: { model_id: model.id, slug: model.slug } }],
    purgeTags: [cacheTag.model(model.id), cacheTag.list(model.id)],
    audit: { action: "model.delete", targetKind: "model", targetId: model.id, details: { slug: model.slug, definition: model.fields } },
  };
}
