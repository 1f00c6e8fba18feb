import type * as v from "valibot";
import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { authoriseModelWrite } from "../../../shared/services/models/apply-model";
import { modelRepository, type Model } from "../../../shared/repositories/model-repository";
import type { CreateModelBody, ModelFolderBody, RemoveModelBody, ReplaceDefinitionBody, UpdateModelBody } from "../../../schema/manage-models";
import { planModelDefinition as plan } from "../../../shared/services/models/plan-definition";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

function readable(call: ManageCall, model: Model): boolean {
  return decide(call.actor.permissions, { operation: "read", modelId: model.id }).allowed;
}

function modelView(model: Model) {
  return {
    id: model.id,
    slug: model.slug,
    name: model.name,
    description: model.description,
    kind: model.kind,
    is_public: model.is_public,
    i18n: model.i18n,
    folder: model.folder,
    settings: model.settings,
    // The same complete definition POST /models and PUT /models/{id}/definition take (spec 2).
    definition: {
      model: { name: model.name, slug: model.slug, description: model.description, kind: model.kind, is_public: model.is_public, enableI18n: model.i18n, settings: model.settings, unique_combinations: model.unique_combinations },
      fields: model.fields,
    },
    updated_at: model.updated_at,
    revision: model.revision,
  };
}

/** GET /models */
export async function listModels(call: ManageCall): Promise<Response> {
  const models = (await modelRepository(call.ctx.db, call.ctx.scope).list()).filter((m) => readable(call, m));
  return json({ data: models.map(modelView) });
}

/** GET /models/{id}: a model the credential may not read is "not found". */
export async function getModel(call: ManageCall): Promise<Response> {
  const model = await modelRepository(call.ctx.db, call.ctx.scope).findById(call.params.id ?? "");
  if (!model || !readable(call, model)) throw new AppError("not_found", "No such model.");
  return json(modelView(model));
}

/** Writes name a model by id; one the credential may not read is "not found" before anything runs. */
async function writable(call: ManageCall, write: "change" | "remove" = "change"): Promise<string> {
  const id = call.params.id ?? "";
  // Authorise first, then reveal: the write's own permissions are asked before the model is looked
  // at, so an unreadable model and a made-up id get the same refusal.
  authoriseModelWrite(call.ctx, write);
  const model = await modelRepository(call.ctx.db, call.ctx.scope).findById(id);
  // A missing model goes on to the command: a replay of a removal answers, anything else is "not found" there.
  if (model && !readable(call, model)) throw new AppError("not_found", "No such model.");
  return id;
}

export const createModel = (call: ManageCall) => runCommand(call, "createModelDefinition", call.body as v.InferOutput<typeof CreateModelBody>);
export const updateModel = async (call: ManageCall) => runCommand(call, "updateModelSettings", { model_id: await writable(call), ...(call.body as v.InferOutput<typeof UpdateModelBody>) });
export const replaceModelDefinition = async (call: ManageCall) =>
  runCommand(call, "replaceModelDefinition", { model_id: await writable(call), ...(call.body as v.InferOutput<typeof ReplaceDefinitionBody>) });
export const setModelFolder = async (call: ManageCall) => runCommand(call, "setModelFolder", { model_id: await writable(call), ...(call.body as v.InferOutput<typeof ModelFolderBody>) });
export const removeModel = async (call: ManageCall) => runCommand(call, "removeModel", { model_id: await writable(call, "remove"), ...(call.body as v.InferOutput<typeof RemoveModelBody>) });

/** POST /models/{id}/definition/plan: the replace's checks in the worker, nothing written. */
export async function planModelDefinition(call: ManageCall): Promise<Response> {
  const model_id = await writable(call);
  return json(await plan(call.ctx, { model_id, ...(call.body as v.InferOutput<typeof ReplaceDefinitionBody>) }));
}
