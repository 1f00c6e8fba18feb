import { isoAt } from "../../../shared/clock";
import { decide } from "../../../shared/auth/permissions";
import { AppError } from "../../../shared/errors";
import { authorize } from "../../../shared/services/lifecycle/authorize";
import { entryRepository } from "../../../shared/repositories/entry-repository";
import { siteObject } from "../../forward";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/**
 * Editing leases (schema/manage-editing.ts). The holder is the person the credential acts for, so
 * the same person in the admin and through a credential holds one lease. Taking or taking over a
 * lease needs update (ownership for update:own) or create on the model, in the entry's language
 * (spec 3, "Editing locks"); every write the lease guards is checked in the site's object
 * (objects/site/write-runner.ts, docs/content-rules.md "Editing locks").
 */

interface LeaseLike {
  resource: string;
  holder: string;
  token: string;
  expiresAt: number;
}

function view(lease: LeaseLike) {
  return { instance_id: lease.resource, token: lease.token, holder: lease.holder, expires_at: isoAt(lease.expiresAt) };
}

async function editableEntry(call: ManageCall): Promise<string> {
  const entry = await entryRepository(call.ctx.db, call.ctx.scope).find(call.params.id ?? "");
  if (!entry || entry.trashed_at !== null) throw new AppError("not_found", "No such entry.");
  // An entry the credential may not read is "not found" (as GET /entries/{id}), not a 403 that tells it exists.
  if (!decide(call.actor.permissions, { operation: "read", modelId: entry.model_id, lang: entry.lang }).allowed) throw new AppError("not_found", "No such entry.");
  // Update, or else create, in the entry's language; an own-only role must own the entry either way.
  const update = { operation: "update", modelId: entry.model_id, lang: entry.lang, ownerId: entry.owner_id } as const;
  const create = { operation: "create", modelId: entry.model_id, lang: entry.lang } as const;
  const updating = decide(call.actor.permissions, { ...update, actorId: call.actor.id });
  if (updating.allowed) return entry.instance_id;
  if (updating.code !== "not_owner" && decide(call.actor.permissions, create).allowed) return entry.instance_id;
  // The refusal: update's (not_owner, locale_denied), or create's when the role has no update at all.
  authorize(call.actor, updating.code === "missing_permission" ? create : update);
  return entry.instance_id;
}

/** POST /entries/{id}/editing */
export async function startEditing(call: ManageCall): Promise<Response> {
  const instanceId = await editableEntry(call);
  const result = await siteObject(call.env, call.site.id).acquireLease(instanceId, call.actor.id);
  if (result.ok) return json({ lease: view(result.lease) }, 201);
  if (result.reason === "locked") throw new AppError("locked", "Someone else is editing this entry.", { held_by: result.heldBy, expires_at: isoAt(result.expiresAt) });
  throw new AppError("too_many_leases", "You hold too many editing leases; release some first.");
}

/** PUT /entries/{id}/editing */
export async function renewEditing(call: ManageCall): Promise<Response> {
  const instanceId = await editableEntry(call);
  const { token } = call.body as { token: string };
  const result = await siteObject(call.env, call.site.id).renewLease(instanceId, token);
  if (!result.ok) throw new AppError("lock_lost", "Your editing lease was taken over or expired; take it again.");
  return json({ lease: view(result.lease) });
}

/** DELETE /entries/{id}/editing */
export async function stopEditing(call: ManageCall): Promise<Response> {
  const instanceId = await editableEntry(call);
  const { token } = call.body as { token: string };
  return json({ released: await siteObject(call.env, call.site.id).releaseLease(instanceId, token) });
}

/** POST /entries/{id}/editing/take-over */
export async function takeOverEditing(call: ManageCall): Promise<Response> {
  const instanceId = await editableEntry(call);
  return json({ lease: view(await siteObject(call.env, call.site.id).takeOverLease(instanceId, call.actor.id)) });
}
