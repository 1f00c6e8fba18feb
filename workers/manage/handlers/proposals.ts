import type * as v from "valibot";
import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { decodeCursor, encodeCursor } from "../../../shared/public/cursor";
import { signingSecret } from "../../../shared/public/signing-keys";
import { sha256Hex } from "../../../shared/crypto/digest";
import { entryRepository } from "../../../shared/repositories/entry-repository";
import { modelRepository } from "../../../shared/repositories/model-repository";
import { createPreview } from "../../../shared/services/preview";
import { eligibleAssignees, findProposal, proposalView, type ProposalRow } from "../../../shared/services/proposals";
import type { AssignmentBody, CreateProposalBody, PreviewBody } from "../../../schema/manage-proposals";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const id = (call: ManageCall) => call.params.id ?? "";

/** The proposal's entry may be read by the actor; other proposals are "not found". */
async function readableInstances(call: ManageCall, instanceIds: readonly string[]): Promise<Set<string>> {
  if (instanceIds.length === 0) return new Set();
  const entries = await entryRepository(call.ctx.db, call.ctx.scope).findMany([...new Set(instanceIds)]);
  return new Set(entries.filter((e) => decide(call.actor.permissions, { operation: "read", modelId: e.model_id, lang: e.lang }).allowed).map((e) => e.instance_id));
}

/** POST /entries/{id}/proposals */
export async function createEntryProposal(call: ManageCall): Promise<Response> {
  const body = call.body as v.InferOutput<typeof CreateProposalBody>;
  return runCommand(call, "createProposal", {
    instance_id: id(call),
    base_version_id: body.base_version_id,
    fields: body.fields,
    ...(body.note !== undefined ? { note: body.note } : {}),
    source: { kind: "management", id: call.credential.id, label: call.credential.name },
  });
}

/** GET /proposals */
export async function listProposals(call: ManageCall): Promise<Response> {
  const q = call.query as { state?: string; instance_id?: string; cursor?: string; limit?: string };
  const limit = Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const shape = (await sha256Hex(JSON.stringify(["proposals", q.state ?? null, q.instance_id ?? null]))).slice(0, 16);
  const secret = await signingSecret(call.env.DB, "cursor");
  let query = call.ctx.db.selectFrom("entry_proposals").selectAll().where("site_id", "=", call.site.id);
  if (q.state === "open" || q.state === "applied" || q.state === "rejected") query = query.where("state", "=", q.state);
  if (q.instance_id) query = query.where("instance_id", "=", q.instance_id);
  if (q.cursor) {
    const state = await decodeCursor(secret, q.cursor);
    if (!state || state.q !== shape) throw new AppError("invalid_request", "This cursor is not valid for this list.", { parameter: "cursor" });
    const f = { s: state.s, g: state.g };
    query = query.where((eb) => eb.or([eb("created_at", "<", f.s), eb.and([eb("created_at", "=", f.s), eb("id", "<=", f.g)])]));
  }
  // Proposals on entries the role may not read are left out; read a page's worth until one fills.
  const rows: ProposalRow[] = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(MAX_LIMIT * 5).execute();
  const readable = await readableInstances(call, rows.map((r) => r.instance_id));
  const visible = rows.filter((r) => readable.has(r.instance_id));
  const page = visible.slice(0, limit);
  const next = visible[limit];
  return json({
    data: page.map(proposalView),
    page: { limit, has_more: next !== undefined, next_cursor: next ? await encodeCursor(secret, { q: shape, s: next.created_at, g: next.id }) : null },
  });
}

/** GET /proposals/{id} */
export async function getProposal(call: ManageCall): Promise<Response> {
  const row = await findProposal(call.ctx, id(call));
  if (!row || !(await readableInstances(call, [row.instance_id])).has(row.instance_id)) throw new AppError("not_found", "No such proposal.");
  return json(proposalView(row));
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
