import * as v from "valibot";
import { notReservedFieldKey } from "./field-types";
import type { RouteSpec } from "./contract";

/** Personal recovery drafts (docs/recovery-drafts.md): per person and entry language, 30 days. */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const EntryPath = v.strictObject({ id: Id });

export const RecoveryDraft = v.pipe(
  v.object({
    instance_id: v.string(),
    lang: v.string(),
    values: v.pipe(v.record(v.string(), v.unknown()), v.description("The text as the refused save sent it (or the editor kept it), by field key.")),
    slug: v.nullable(v.string()),
    base_version_id: v.pipe(v.nullable(v.string()), v.description("The version the text was written on.")),
    reason: v.pipe(v.picklist(["lock_lost", "version_conflict", "unsaved"]), v.description("lock_lost: a save refused after a take-over; version_conflict: someone saved first; unsaved: the admin editor's text kept while typing.")),
    saved_at: v.string(),
    expires_at: v.string(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("RecoveryDraft"),
);

const common = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited", "not_found"] as const;

export const recoveryRoutes: readonly RouteSpec[] = [
  {
    operationId: "getRecoveryDraft",
    method: "get",
    path: "/entries/{id}/recovery-draft",
    summary: "Your recovery draft of this entry language: the text of your save refused with lock_lost (or kept by the editor), for 30 days; only yours",
    scope: "content:read",
    params: EntryPath,
    response: RecoveryDraft,
    errors: [...common],
  },
  {
    operationId: "keepRecoveryDraft",
    method: "put",
    path: "/entries/{id}/recovery-draft",
    summary: "Keep your unsaved text of this entry language as your recovery draft (replaces the one you had)",
    scope: "content:write",
    idempotent: true,
    params: EntryPath,
    body: v.strictObject({
      // The values are an entry's, by field key: a reserved JavaScript name is 422 invalid_field_key as in entry writes.
      values: v.record(v.pipe(v.string(), v.check(notReservedFieldKey, "This name cannot be a field key.")), v.unknown()),
      slug: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200)))),
      base_version_id: v.optional(v.nullable(Id)),
      reason: v.pipe(v.picklist(["lock_lost", "version_conflict", "unsaved"]), v.description("unsaved: text kept while typing, before any save (an editor's continuous recovery draft).")),
    }),
    response: RecoveryDraft,
    errors: [...common, "invalid_field_key", "idempotency_in_progress", "idempotency_key_reused"],
  },
  {
    operationId: "deleteRecoveryDraft",
    destructive: true,
    method: "delete",
    path: "/entries/{id}/recovery-draft",
    summary: "Drop your recovery draft of this entry language (restored and saved, or discarded)",
    scope: "content:write",
    idempotent: true,
    params: EntryPath,
    response: v.object({ instance_id: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }),
    errors: [...common, "idempotency_in_progress", "idempotency_key_reused"],
  },
];
