import { decide } from "../../shared/auth/permissions";
import type { TransitionCommand } from "../../schema/plugin-protocol";
import { delegateFrom, resolveDelegation } from "../../shared/auth/plugin-delegation";
import { createDb } from "../../shared/db/client";
import { AppError } from "../../shared/errors";
import type { EntryView } from "../../shared/services/lifecycle";
import { findGrantedEntry, requireCapability, toSummary } from "../../shared/services/plugins/content";
import { installationGrant } from "../../shared/services/plugins/installations";
import { RETENTION_LIFECYCLE_MS } from "../../objects/site/idempotency";
import type { IdempotencyRequest, WriteAnswer } from "../../objects/site/commands";
import { rateForCommand, settle, siteObject } from "../forward";
import { idempotencyKey, requestFingerprint } from "../manage/idempotency-key";
import { outcomeResponse } from "./outcome";
import type { PluginCall } from "./router";

const CAPABILITY = { publish: "workflow:publish", unpublish: "workflow:unpublish" } as const;

/** The idempotency claim of a transition: optional, scoped to the installation (old and new tokens alike). */
async function idempotencyOf(call: PluginCall, body: unknown): Promise<IdempotencyRequest | undefined> {
  if (!call.request.headers.has("idempotency-key")) return undefined;
  return {
    scope: `plugin:${call.installation.id}`,
    key: idempotencyKey(call.request),
    fingerprint: await requestFingerprint("POST", call.url.pathname, body),
    retentionMs: RETENTION_LIFECYCLE_MS,
  };
}

/**
 * POST /content/{instance_id}/transitions. Checks, in order: the Idempotency-Key's shape (400) →
 * the capability is granted (403 capability_refused) → the entry is in the grant (404
 * content_not_found) → the delegation's person still holds the authority, was delegated the
 * capability on this model, for a content action launched it on this entry, and may read the entry
 * now (403 requester_unauthorized) → the site's object runs the lifecycle's publish or unpublish with the
 * optimistic checks, guarded so that none of what was checked changed before the commit
 * (shared/services/plugins/transitions.ts). Refusals become protocol outcomes (./outcome.ts).
 */
export async function runTransition(call: PluginCall, instanceId: string, command: TransitionCommand): Promise<Response> {
  const idempotency = await idempotencyOf(call, command);
  const capability = CAPABILITY[command.kind];
  requireCapability(call.installation, capability);
  const db = createDb(call.d1);
  const entry = await findGrantedEntry(db, call.installation, instanceId);
  // The delegation's rows came with the installation's (./request-reads.ts).
  const rows = call.preread.delegation;
  const delegate = rows ? await delegateFrom(db, call.installation, rows, call.now) : await resolveDelegation(call.d1, call.installation, command.delegation_id, call.now);
  if (!delegate.capabilities.includes(capability) || !delegate.modelIds.includes(entry.model_id)) {
    throw new AppError("requester_unauthorized", `The person behind the delegation did not delegate "${capability}" on this model.`);
  }
  if (delegate.delegation.instance_id !== null && delegate.delegation.instance_id !== entry.instance_id) {
    throw new AppError("requester_unauthorized", "This delegation comes from a content action on another entry.");
  }
  // The person must read the entry now, as a read with the delegation asks (shared/services/plugins/content.ts):
  // without this the lifecycle's own "not found" would answer content_not_found for an entry the
  // plugin's grant shows it.
  if (!decide(delegate.actor.permissions, { operation: "read", modelId: entry.model_id, lang: entry.lang, actorId: delegate.actor.id }).allowed) {
    throw new AppError("requester_unauthorized", "The person behind the delegation may not read this entry.");
  }
  const site = siteObject(call.env, call.installation.site_id);
  const base = { siteId: call.installation.site_id, actor: delegate.actor, ...(idempotency ? { idempotency } : {}), ...rateForCommand(call.rate) };
  const guarded = { instance_id: entry.instance_id, basis: delegate.basis, checked_at: call.now };
  const outcome =
    command.kind === "publish"
      ? await settle<WriteAnswer<EntryView>>(
          site.command("pluginPublish", { ...base, input: { ...guarded, command: { expected_version_id: command.expected_current_version_id, expected_workflow_revision: command.expected_workflow_revision } } }),
        )
      : await settle<WriteAnswer<EntryView>>(
          site.command("pluginUnpublish", {
            ...base,
            input: { ...guarded, command: { expected_published_version_id: command.expected_published_version_id, expected_workflow_revision: command.expected_workflow_revision, refuse_if_dependents: true } },
          }),
        );
  if (!outcome.ok) throw AppError.fromFailure(outcome.error);
  const view: EntryView = outcome.value.body;
  const withWorkflow = installationGrant(call.installation).capabilities.includes("workflow:read");
  const data = toSummary({ ...view, workflow_state: view.workflow.state, workflow_revision: view.workflow.revision }, withWorkflow);
  return outcome.value.replayed
    ? outcomeResponse("idempotent_replay", "The command was already applied; this is its first result.", data)
    : outcomeResponse("transition_applied", `The entry was ${command.kind === "publish" ? "published" : "unpublished"}.`, data);
}
