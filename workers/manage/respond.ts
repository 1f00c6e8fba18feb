import { AppError } from "../../shared/errors";
import type { CommandAnswer, CommandInput, CommandName } from "../../objects/site/command-registry";
import { settle, siteObject } from "../forward";
import { json } from "../http/respond";
import type { ManageCall } from "./context";

/**
 * Spec 2 (Resources, models): `dependents.complete` reports what this run re-rendered, so a replay,
 * which re-renders nothing, answers without it.
 */
function withoutDependents<T>(body: T): T {
  if (body === null || typeof body !== "object" || !("dependents" in body)) return body;
  const { dependents: _dropped, ...rest } = body as Record<string, unknown>;
  return rest as T;
}

/**
 * Runs a registered command in the site's object with the call's idempotency key, and answers it:
 * the first answer's status and body, with `replayed: true` on a replay; when the write changed
 * cached public answers that could not be evicted, `cache` says so.
 */
export async function runCommand<K extends CommandName>(call: ManageCall, name: K, input: CommandInput<K>): Promise<Response> {
  const leaseToken = call.request.headers.get("x-editing-token");
  const outcome = await settle<{ status: number; body: CommandAnswer<K>; replayed: boolean; purge: { tags: string[]; evicted: boolean; reason?: string } }>(
    siteObject(call.env, call.site.id).command(name, {
      siteId: call.site.id,
      actor: call.actor,
      input,
      ...(call.idempotency ? { idempotency: call.idempotency } : {}),
      // The editing lease the caller took (POST /entries/{id}/editing): a taken-over lease is lock_lost.
      ...(leaseToken ? { leaseToken } : {}),
    }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  const { status, replayed, purge } = outcome.value;
  const body = replayed ? withoutDependents(outcome.value.body) : outcome.value.body;
  const extra: Record<string, unknown> = {};
  if (replayed) extra.replayed = true;
  if (purge.tags.length > 0 && !purge.evicted && purge.reason !== "caching_off") extra.cache = { evicted: false, reason: purge.reason };
  return json({ ...(body as object), ...extra }, status);
}
