import * as v from "valibot";
import { PolicyResults } from "./policy-results";
import type { RouteSpec } from "./contract";

/**
 * Bulk actions on entries (spec 3, "Bulk actions"; docs/bulk-actions.md): seven named routes, at
 * most 25 ids each, one result per id in input order. The generic `/many` and `/bulk` paths of
 * every collection are retired (`RETIRED_BULK_SEGMENTS`): they answer 410 `bulk_route_gone`.
 */
const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
/** The cap itself is checked by the handler, so a 26th id is `bulk_limit_exceeded` naming it, not a bare schema issue. */
const Ids = v.pipe(v.array(Id), v.minLength(1), v.description("Entry ids (instance ids), 1 to 25, each at most once; more than 25: 400 bulk_limit_exceeded naming the cap. Results come back in this order."));
/** The cap (10, add and remove together) is checked by the handler too: an 11th is `bulk_limit_exceeded` naming it. */
const RelatedIds = v.pipe(v.array(Id), v.description("Related entries; add and remove together at most 10 (more: 400 bulk_limit_exceeded naming the cap)."));

export const BulkIdsBody = v.strictObject({ ids: Ids });
export const BulkMoveBody = v.strictObject({ ids: Ids, to: v.pipe(v.string(), v.minLength(1), v.maxLength(40), v.description("The workflow step each named language moves to (a move that neither publishes nor unpublishes).")) });
export const BulkAssignBody = v.strictObject({ ids: Ids, assignee_ids: v.pipe(v.array(Id), v.maxLength(50), v.description("Who acts next on each named language (replaces its assignees; [] clears them).")) });
export const BulkRelateBody = v.pipe(
  v.strictObject({
    ids: Ids,
    field: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("A relation field of each entry's model.")),
    add: v.optional(RelatedIds),
    remove: v.optional(RelatedIds),
  }),
  v.check((b) => (b.add?.length ?? 0) + (b.remove?.length ?? 0) > 0, "Name at least one entry to add or remove."),
  // One request cannot both add and remove an entry: which one wins would be a guess.
  v.check((b) => !(b.add ?? []).some((id) => (b.remove ?? []).includes(id)), "An entry is either added or removed, not both."),
);

const BulkResult = v.pipe(
  v.object({
    id: v.string(),
    status: v.pipe(v.number(), v.description("200 when this id was written; else the status its single route would answer.")),
    changed: v.pipe(v.array(v.object({ instance_id: v.string(), lang: v.string() })), v.description("The entry languages this id changed (publish and unpublish: every language of the item).")),
    code: v.optional(v.pipe(v.string(), v.description("The refusal's code, when refused (the single route's codes)."))),
    message: v.optional(v.string()),
    details: v.optional(v.record(v.string(), v.unknown())),
    policy_results: PolicyResults(
      "The content policies' results for this id's writes, as its single route answers them (docs/plugin-policies.md, \"Bulk actions\"): a transform, or an advisory policy that could not be asked.",
    ),
  }),
  v.title("BulkResult"),
);
const BulkAnswer = v.object({ action: v.picklist(["publish", "unpublish", "trash", "restore", "move", "assign", "relate"]), results: v.array(BulkResult), replayed: v.optional(v.boolean()) });

const bulkErrors = ["invalid_request", "bulk_limit_exceeded", "unauthorized", "creator_unauthorized", "insufficient_scope", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;
const route = (operationId: string, path: string, summary: string, scope: string, body: v.GenericSchema, extra: Partial<RouteSpec> = {}): RouteSpec => ({
  operationId,
  method: "post",
  path,
  summary,
  scope,
  idempotent: true,
  body,
  response: BulkAnswer,
  errors: bulkErrors,
  ...extra,
});

export const bulkRoutes: readonly RouteSpec[] = [
  route("bulkPublishEntries", "/entries/bulk-publish", "Publish every language of up to 25 items (each item all or nothing)", "lifecycle:publish", BulkIdsBody, { repeatable: true }),
  route("bulkUnpublishEntries", "/entries/bulk-unpublish", "Withdraw every language of up to 25 items from the public API", "lifecycle:publish", BulkIdsBody, { repeatable: true, destructive: true }),
  route("bulkTrashEntries", "/entries/bulk-trash", "Move up to 25 items (every language) to Trash", "content:trash", BulkIdsBody, { repeatable: true, destructive: true }),
  route("bulkRestoreEntries", "/entries/bulk-restore", "Bring up to 25 items (every language in Trash) back from Trash", "content:trash", BulkIdsBody, { repeatable: true }),
  route("bulkMoveEntries", "/entries/bulk-move", "A workflow step (neither publish nor unpublish) for up to 25 entry languages", "workflow:move", BulkMoveBody, { repeatable: true }),
  route("bulkAssignEntries", "/entries/bulk-assign", "Name who acts next on up to 25 entry languages", "workflow:assign", BulkAssignBody, { repeatable: true, destructive: true }),
  route("bulkRelateEntries", "/entries/bulk-relate", "Add or remove up to 10 related entries on one relation field of up to 25 entries (a new draft each)", "content:write", BulkRelateBody),
];

/** The last path segments of the retired generic bulk routes, under every collection of the surface. */
export const RETIRED_BULK_SEGMENTS = ["many", "bulk"] as const;
