/** PUT /models/{id}/folder: a model's display folder. */
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { loadModel } from "../lifecycle/load";
import { needApply } from "./model-write-checks";

export interface ModelFolderInput {
  model_id: string;
  folder: string | null;
}

/** PUT /models/{id}/folder: display only; revision and updated_at unchanged. */
export async function setModelFolder(ctx: LifecycleContext, input: ModelFolderInput): Promise<WritePlan<{ model_id: string; slug: string; folder: string | null }>> {
  needApply(ctx);
  const model = await loadModel(ctx, input.model_id);
  return {
    statements: [ctx.db.updateTable("models").set({ folder: input.folder }).where("site_id", "=", ctx.site.id).where("id", "=", model.id).compile()],
    answer: { model_id: model.id, slug: model.slug, folder: input.folder },
    events: [{ name: "model.folder_changed", payload: { model_id: model.id, slug: model.slug, folder: input.folder } }],
    purgeTags: [],
    audit: { action: "model.folder", targetKind: "model", targetId: model.id, details: { from: model.folder, to: input.folder } },
  };
}
