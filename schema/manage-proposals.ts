import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { Page } from "./common";
import { notReservedFieldKey } from "./field-types";
import { noteText } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const EntryPath = v.strictObject({ id: Id });

/** POST /entries/{id}/proposals body; the 50-field and 64 KiB limits are checked by the service (400). */
export const CreateProposalBody = v.strictObject({
  base_version_id: Id,
  // A key that is a reserved JavaScript name is 422 invalid_field_key, as on entry writes (no model has such a field).
  fields: v.pipe(
    v.record(v.pipe(v.string(), v.check(notReservedFieldKey, "This name cannot be a field key.")), v.unknown()),
    v.description("Proposed values by field key (at most 50 fields, 64 KiB as JSON)."),
  ),
  note: v.optional(noteText(2000)),
});
export const AssignmentBody = v.strictObject({
  assignee_ids: v.pipe(v.array(Id), v.maxLength(50)),
  expected_workflow_revision: v.optional(Revision),
});
export const PreviewBody = v.strictObject({
  minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(60))),
});

export const Proposal = v.pipe(
  v.object({
    id: v.string(),
    instance_id: v.string(),
    base_version_id: v.string(),
    fields: v.record(v.string(), v.unknown()),
    original_fields: v.record(v.string(), v.unknown()),
    note: v.nullable(v.string()),
    source: v.object({ kind: v.picklist(["management", "person", "plugin", "ai"]), id: v.string(), label: v.string(), requested_by: v.optional(v.string()) }),
    state: v.picklist(["open", "applied", "rejected"]),
    revision: v.number(),
    created_by: v.string(),
    decided_by: v.nullable(v.string()),
    created_at: v.string(),
    updated_at: v.string(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("Proposal"),
);

const Person = v.object({ id: v.string(), name: v.string(), email: v.string() });

const commonWriteErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;

/** Entry field proposals, assignment and preview links of the management API. */
export const proposalRoutes: readonly RouteSpec[] = [
  { operationId: "createEntryProposal", method: "post", path: "/entries/{id}/proposals", summary: "Propose field values for a person to apply or reject", scope: "content:propose", idempotent: true, params: EntryPath, body: CreateProposalBody, status: 201, response: Proposal, errors: [...commonWriteErrors, "field_validation_failed", "proposal_field_unsupported", "field_denied", "locale_denied", "entry_in_trash"] },
  {
    operationId: "listProposals",
    method: "get",
    path: "/proposals",
    summary: "Entry proposals, newest first (entries the role may not read are left out)",
    scope: "content:read",
    query: v.strictObject({
      state: v.optional(v.picklist(["open", "applied", "rejected"])),
      instance_id: v.optional(Id),
      cursor: v.optional(v.string()),
      limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/))),
    }),
    response: v.strictObject({ data: v.array(Proposal), page: Page }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "rate_limited"],
  },
  { operationId: "getProposal", method: "get", path: "/proposals/{id}", summary: "One entry proposal", scope: "content:read", params: v.strictObject({ id: Id }), response: Proposal, errors: ["unauthorized", "creator_unauthorized", "not_found", "rate_limited"] },
  { operationId: "assignEntry", destructive: true, method: "put", path: "/entries/{id}/assignment", summary: "Name who acts next on an entry", scope: "workflow:assign", idempotent: true, params: EntryPath, body: AssignmentBody, response: v.object({ instance_id: v.string(), assignee_ids: v.array(v.string()), workflow_revision: v.number(), replayed: v.optional(v.boolean()) }), errors: [...commonWriteErrors, "assignee_not_eligible", "workflow_conflict", "missing_permission", "locale_denied", "entry_in_trash", "locked", "lock_lost"] },
  { operationId: "listEntryAssignees", method: "get", path: "/entries/{id}/assignees", summary: "Who is assigned, and who could be", scope: "workflow:assign", params: EntryPath, response: v.strictObject({ assigned: v.array(Person), eligible: v.array(v.object({ id: v.string(), name: v.string(), email: v.string(), role: v.string() })) }), errors: ["unauthorized", "creator_unauthorized", "not_found", "missing_permission", "rate_limited"] },
  { operationId: "previewEntry", method: "post", path: "/entries/{id}/preview", summary: "A preview link serving the entry's current draft on the public host (no Idempotency-Key)", scope: "content:read", noKey: true, params: EntryPath, body: PreviewBody, response: v.object({ preview: v.string(), expires_at: v.string(), url: v.string() }), errors: ["invalid_request", "unauthorized", "creator_unauthorized", "not_found", "invalid_slug", "rate_limited"] },
];
