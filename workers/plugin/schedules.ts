import { decide } from "../../shared/auth/permissions";
import type { ScheduleCommand } from "../../schema/plugin-protocol";
import { delegateFrom, resolveDelegation } from "../../shared/auth/plugin-delegation";
import { createDb } from "../../shared/db/client";
import { AppError } from "../../shared/errors";
import type { ScheduleView } from "../../shared/services/schedules/schedules";
import { findGrantedEntry, requireCapability } from "../../shared/services/plugins/content";
import { RETENTION_LIFECYCLE_MS } from "../../objects/site/idempotency";
import type { IdempotencyRequest, WriteAnswer } from "../../objects/site/commands";
import { rateForCommand, settle, siteObject } from "../forward";
import { idempotencyKey, requestFingerprint } from "../manage/idempotency-key";
import { outcomeResponse } from "./outcome";
import type { PluginCall } from "./router";

const CAPABILITY = { publish: "workflow:publish", unpublish: "workflow:unpublish" } as const;
/** Spec 2 rule 11 / spec 3 "Publication by language": a plugin scheduling one language needs this too. */
const ONE_LANGUAGE = "workflow:locale" as const;

async function idempotencyOf(call: PluginCall, body: unknown): Promise<IdempotencyRequest | undefined> {
  if (!call.request.headers.has("idempotency-key")) return undefined;
  return { scope: `plugin:${call.installation.id}`, key: idempotencyKey(call.request), fingerprint: await requestFingerprint("POST", call.url.pathname, body), retentionMs: RETENTION_LIFECYCLE_MS };
}

/**
 * POST /content/{instance_id}/schedules (docs/scheduled-publishing.md, "Plugins"): the checks of a
 * transition — capability granted (403 capability_refused), entry in the grant (404
 * content_not_found), the delegation's person delegated the capability on the model and reads the
 * entry (403 requester_unauthorized) — plus `workflow:locale`, granted and delegated, for one
 * language alone; then the site's object makes the schedule as that person (`createSchedule`).
 */
export async function runSchedule(call: PluginCall, instanceId: string, command: ScheduleCommand): Promise<Response> {
  const idempotency = await idempotencyOf(call, command);
  const needed: (typeof CAPABILITY)[keyof typeof CAPABILITY] | typeof ONE_LANGUAGE extends infer C ? C[] : never = [CAPABILITY[command.kind], ...(command.language_only ? [ONE_LANGUAGE] : [])];
  for (const capability of needed) requireCapability(call.installation, capability);
  const db = createDb(call.d1);
  const entry = await findGrantedEntry(db, call.installation, instanceId);
  const rows = call.preread.delegation;
  const delegate = rows ? await delegateFrom(db, call.installation, rows, call.now) : await resolveDelegation(call.d1, call.installation, command.delegation_id, call.now);
  const missing = needed.filter((c) => !delegate.capabilities.includes(c));
  if (missing.length > 0 || !delegate.modelIds.includes(entry.model_id)) {
    throw new AppError("requester_unauthorized", `The person behind the delegation did not delegate ${missing.map((c) => `"${c}"`).join(", ") || "this model"}.`);
  }
  if (delegate.delegation.instance_id !== null && delegate.delegation.instance_id !== entry.instance_id) {
    throw new AppError("requester_unauthorized", "This delegation comes from a content action on another entry.");
  }
  if (!decide(delegate.actor.permissions, { operation: "read", modelId: entry.model_id, lang: entry.lang, actorId: delegate.actor.id }).allowed) {
    throw new AppError("requester_unauthorized", "The person behind the delegation may not read this entry.");
  }
  const outcome = await settle<WriteAnswer<ScheduleView>>(
    siteObject(call.env, call.installation.site_id).command("createSchedule", {
      siteId: call.installation.site_id,
      actor: delegate.actor,
      input: {
        entry_id: entry.instance_id,
        action: command.kind,
        at: command.at,
        ...(command.language_only !== undefined ? { language_only: command.language_only } : {}),
        ...(command.expected_version_id !== undefined ? { expected_version_id: command.expected_version_id } : {}),
      },
      ...(idempotency ? { idempotency } : {}),
      ...rateForCommand(call.rate),
    }),
  );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  return outcome.value.replayed
    ? outcomeResponse("idempotent_replay", "The command was already applied; this is its first result.", outcome.value.body)
    : outcomeResponse("ok", `The ${command.kind} was scheduled.`, outcome.value.body);
}
