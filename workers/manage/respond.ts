import { AppError } from "../../shared/errors";
import type { CommandAnswer, CommandInput, CommandName } from "../../objects/site/command-registry";
import { rateForCommand, settle, siteObject } from "../forward";
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

/** A command's answer as the site's object gave it (see {@link sendCommand}). */
export interface CommandResult<K extends CommandName> {
  status: number;
  body: CommandAnswer<K>;
  replayed: boolean;
  purge: { tags: string[]; evicted: boolean; reason?: string };
  /** A media removal's R2 deletes after its commit (objects/site/media-cleanup.ts); absent on a replay. */
  cleanup?: "complete" | "pending";
}

/**
 * What running a command needs of a call: a management call, or an admin session's (the admin
 * streamed upload, workers/admin/media-upload.ts) with its own idempotency.
 */
export type CommandCall = Pick<ManageCall, "env" | "request" | "site" | "actor" | "ctx" | "idempotency"> & Partial<Pick<ManageCall, "rate">>;

/**
 * Runs a registered command in the site's object with the call's idempotency key; a refusal is
 * thrown as its AppError. For handlers that must act on the answer before sending it (an upload
 * deletes its stored object unless the answer names it); others use {@link runCommand}.
 */
export async function sendCommand<K extends CommandName>(call: CommandCall, name: K, input: CommandInput<K>): Promise<CommandResult<K>> {
  const leaseToken = call.request.headers.get("x-editing-token");
  const outcome = await settle<CommandResult<K>>(
    siteObject(call.env, call.site.id).command(name, {
      siteId: call.site.id,
      actor: call.actor,
      input,
      ...(call.idempotency ? { idempotency: call.idempotency } : {}),
      // The editing lease the caller took (POST /entries/{id}/editing): a taken-over lease is lock_lost.
      ...(leaseToken ? { leaseToken } : {}),
      // The call's unspent rate window travels with its first command (one site-object request).
      ...rateForCommand(call.rate),
    }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return outcome.value;
}

/**
 * The answer of a command: the first answer's status and body, with `replayed: true` on a replay;
 * when the write changed cached public answers that could not be evicted, `cache` says so.
 */
export function commandResponse<K extends CommandName>(result: CommandResult<K>): Response {
  const { status, replayed, purge } = result;
  const body = replayed ? withoutDependents(result.body) : result.body;
  const extra: Record<string, unknown> = {};
  if (replayed) extra.replayed = true;
  if (purge.tags.length > 0 && !purge.evicted && purge.reason !== "caching_off") extra.cache = { evicted: false, reason: purge.reason };
  return json({ ...(body as object), ...extra }, status);
}

/** Runs a registered command in the site's object with the call's idempotency key, and answers it. */
export async function runCommand<K extends CommandName>(call: ManageCall, name: K, input: CommandInput<K>): Promise<Response> {
  return commandResponse(await sendCommand(call, name, input));
}

/** A handler that does nothing but run one command: its call's rate window is spent by that command. */
export type CommandHandler = ((call: ManageCall) => Promise<Response>) & { readonly soleCommand: true };

/** The handler of a route that only runs command `name` with the input `input` builds from the call. */
export function commandHandler<K extends CommandName>(name: K, input: (call: ManageCall) => CommandInput<K>): CommandHandler {
  return Object.assign((call: ManageCall) => runCommand(call, name, input(call)), { soleCommand: true as const });
}

export function isCommandHandler(handler: unknown): handler is CommandHandler {
  return typeof handler === "function" && "soleCommand" in handler && handler.soleCommand === true;
}
