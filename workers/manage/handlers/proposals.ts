import type * as v from "valibot";
import { newestFirst } from "../newest-first";
import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { entryRepository } from "../../../shared/repositories/entry-repository";
import { modelRepository, type Model } from "../../../shared/repositories/model-repository";
import { createPreview } from "../../../shared/services/preview/entry-preview";
import { eligibleAssignees, findProposal, proposalSourceOf, readerProposalView, type ProposalRow } from "../../../shared/services/proposals/entry-proposals";
import type { AssignmentBody, CreateProposalBody, PreviewBody } from "../../../schema/manage-proposals";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const id = (call: ManageCall) => call.params.id ?? "";

/** Models whose entries the actor may read, by id. */
async function readableModels(call: ManageCall): Promise<Map<string, Model>> {
  const models = await modelRepository(call.ctx.db, call.ctx.scope).list();
  return new Map(models.filter((m) => decide(call.actor.permissions, { operation: "read", modelId: m.id }).allowed).map((m) => [m.id, m]));
}

/** A proposal as the actor may see it (values of fields its role may not read left out). */
const readerView = (call: ManageCall, row: ProposalRow, model: Model) => readerProposalView(row, call.actor.permissions, model);

/** POST /entries/{id}/proposals */
export async function createEntryProposal(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof CreateProposalBody>;
  return runCommand(call, "createProposal", {
    instance_id: id(call),
    base_version_id: body.base_version_id,
    fields: body.fields,
    ...(body.note !== undefined ? { note: body.note } : {}),
    source: proposalSourceOf(call.caller),
  });
}

/** GET /proposals */
export async function listProposals(call: ManageCall): Promise<Response> {
  const q = call.query as { state?: string; instance_id?: string; cursor?: string; limit?: string };
  const limit = Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const pages = await newestFirst(call.ctx.d1, call.site.id, ["proposals", q.state ?? null, q.instance_id ?? null], q.cursor);
  // Proposals on entries the role may not read (model or language) are left out in the query
  // itself, so every page is full and the cursor never skips a readable proposal.
  const models = await readableModels(call);
  const readLanguages = call.actor.permissions.limits?.languages?.read;
  let rows: (ProposalRow & { model_id: string })[] = [];
  if (models.size > 0 && (readLanguages === undefined || readLanguages.length > 0)) {
    let query = call.ctx.db
      .selectFrom("entry_proposals")
      .innerJoin("entries", (join) => join.onRef("entries.site_id", "=", "entry_proposals.site_id").onRef("entries.instance_id", "=", "entry_proposals.instance_id"))
      .selectAll("entry_proposals")
      .select("entries.model_id")
      .where("entry_proposals.site_id", "=", call.site.id)
      .where("entries.model_id", "in", [...models.keys()]);
    if (readLanguages !== undefined) query = query.where("entries.lang", "in", readLanguages);
    if (q.state === "open" || q.state === "applied" || q.state === "rejected") query = query.where("entry_proposals.state", "=", q.state);
    if (q.instance_id) query = query.where("entry_proposals.instance_id", "=", q.instance_id);
    const from = pages.from;
    if (from) {
      query = query.where((eb) => eb.or([eb("entry_proposals.created_at", "<", from.createdAt), eb.and([eb("entry_proposals.created_at", "=", from.createdAt), eb("entry_proposals.id", "<=", from.id)])]));
    }
    rows = await query.orderBy("entry_proposals.created_at", "desc").orderBy("entry_proposals.id", "desc").limit(limit + 1).execute();
  }
  const page = rows.slice(0, limit);
  const next = rows[limit];
  return json({
    data: page.flatMap(({ model_id, ...row }) => {
      const model = models.get(model_id);
      return model ? [readerView(call, row, model)] : [];
    }),
    page: { limit, has_more: next !== undefined, next_cursor: next ? await pages.cursorAt(next) : null },
  });
}

/** GET /proposals/{id} */
export async function getProposal(call: ManageCall): Promise<Response> {
  const row = await findProposal(call.ctx, id(call));
  const entry = row ? await entryRepository(call.ctx.db, call.ctx.scope).find(row.instance_id) : undefined;
  const model = entry ? await modelRepository(call.ctx.db, call.ctx.scope).findById(entry.model_id) : undefined;
  if (!row || !entry || !model || !decide(call.actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed) throw new AppError("not_found", "No such proposal.");
  return json(readerView(call, row, model));
}

/** PUT /entries/{id}/assignment */
export const assignEntry = (call: ManageCall) => {
  const body = call.body as v.InferOutput<typeof AssignmentBody>;
  return runCommand(call, "assignEntry", {
    instance_id: id(call),
    assignee_ids: body.assignee_ids,
    ...(body.expected_workflow_revision !== undefined ? { expected_workflow_revision: body.expected_workflow_revision } : {}),
  });
};

/** GET /entries/{id}/assignees */
export async function listEntryAssignees(call: ManageCall): Promise<Response> {
  const entry = await entryRepository(call.ctx.db, call.ctx.scope).find(id(call));
  const model = entry ? await modelRepository(call.ctx.db, call.ctx.scope).findById(entry.model_id) : undefined;
  if (!entry || !model || !decide(call.actor.permissions, { operation: "read", modelId: model.id, lang: entry.lang }).allowed) throw new AppError("not_found", "No such entry.");
  const may = decide(call.actor.permissions, { operation: "update", modelId: model.id, lang: entry.lang });
  if (!may.allowed) throw new AppError(may.code, may.message);
  const assignedIds = JSON.parse(entry.assignee_ids) as string[];
  const people = assignedIds.length === 0 ? [] : await call.ctx.db.selectFrom("persons").select(["id", "name", "email"]).where("id", "in", assignedIds).execute();
  const byId = new Map(people.map((p) => [p.id, p]));
  return json({
    assigned: assignedIds.flatMap((pid) => {
      const p = byId.get(pid);
      return p ? [{ id: p.id, name: p.name, email: p.email }] : [];
    }),
    eligible: await eligibleAssignees(call.ctx, model, entry.lang),
  });
}

/** POST /entries/{id}/preview: writes nothing lasting, so it needs no Idempotency-Key. */
export async function previewEntry(call: ManageCall): Promise<Response> {
  const body = (call.body ?? {}) as v.InferOutput<typeof PreviewBody>;
  return json(await createPreview(call.ctx, { instance_id: id(call), ...(body.minutes !== undefined ? { minutes: body.minutes } : {}) }));
}
