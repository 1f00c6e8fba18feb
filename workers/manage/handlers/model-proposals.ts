import type * as v from "valibot";
import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { modelRepository, type Model } from "../../../shared/repositories/model-repository";
import { findModelProposal, isStale, modelProposalView, type ModelProposalRow } from "../../../shared/services/proposals/model-proposals";
import { proposalSourceOf } from "../../../shared/services/proposals/entry-proposals";
import type { CreateModelProposalBody } from "../../../schema/manage-model-proposals";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

/** POST /models/proposals */
export async function createModelProposal(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof CreateModelProposalBody>;
  return runCommand(call, "createModelProposal", {
    mode: body.mode,
    ...(body.model_id !== undefined ? { model_id: body.model_id } : {}),
    ...(body.base_updated_at !== undefined ? { base_updated_at: body.base_updated_at } : {}),
    // The model part as given (one shape of a definition; keys left out keep the model's values).
    definition: { model: body.definition.model, fields: body.definition.fields },
    ...(body.note !== undefined ? { note: body.note } : {}),
    source: proposalSourceOf(call.caller),
  });
}

async function modelsById(call: ManageCall): Promise<Map<string, Model>> {
  return new Map((await modelRepository(call.ctx.db, call.ctx.scope).list()).map((m) => [m.id, m]));
}

const view = (row: ModelProposalRow, models: Map<string, Model>) => modelProposalView(row, isStale(row, row.model_id ? models.get(row.model_id) : undefined));

/** An update-mode proposal is seen only by an actor that may read its model (create-mode ones name no model). */
const visible = (call: ManageCall, row: Pick<ModelProposalRow, "mode" | "model_id">) =>
  row.mode !== "update" || (row.model_id !== null && decide(call.actor.permissions, { operation: "read", modelId: row.model_id }).allowed);

/** GET /models/proposals */
export async function listModelProposals(call: ManageCall): Promise<Response> {
  const q = call.query as { state?: "open" | "applied" | "dismissed" };
  let query = call.ctx.db
    .selectFrom("model_proposals")
    .select(["id", "mode", "model_id", "base_updated_at", "definition", "note", "source", "state", "changes", "revision", "created_by", "decided_by", "created_at", "updated_at"])
    .where("site_id", "=", call.site.id);
  if (q.state) query = query.where("state", "=", q.state);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
  const models = await modelsById(call);
  return json({ data: rows.filter((r) => visible(call, r)).map((r) => view(r, models)) });
}

/** GET /models/proposals/{id} */
export async function getModelProposal(call: ManageCall): Promise<Response> {
  const row = await findModelProposal(call.ctx, call.params.id ?? "");
  if (!row || !visible(call, row)) throw new AppError("not_found", "No such model proposal.");
  return json(view(row, await modelsById(call)));
}
