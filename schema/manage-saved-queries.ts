import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
/** A query's public address segment: /v1/_queries/{name}. */
export const QueryName = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{0,63}$/, "1..64 characters: lower-case letters, digits and -, starting with a letter"));
const FieldKey = v.pipe(v.string(), v.regex(/^[a-z][a-zA-Z0-9_]{0,63}$/));
const Filter = v.strictObject({
  kind: v.pipe(v.picklist(["relation", "tag"]), v.description("relation: the field links to the item <value> (an instance or translation group id); tag: to an item served at the slug <value>")),
  field: FieldKey,
  value: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
});
const Definition = {
  filters: v.optional(v.pipe(v.array(Filter), v.maxLength(16))),
  order: v.optional(v.picklist(["asc", "desc", "manual"])),
  fields: v.optional(v.pipe(v.array(FieldKey), v.maxLength(50), v.description("Field keys each item keeps; absent: every public field"))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
};

export const CreateSavedQueryBody = v.strictObject({ name: QueryName, model_id: Id, ...Definition });
export const UpdateSavedQueryBody = v.strictObject({ name: v.optional(QueryName), expected_revision: Revision, ...Definition });

export const SavedQuery = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    model_id: v.string(),
    model_slug: v.string(),
    filters: v.array(v.object({ kind: v.string(), field: v.string(), value: v.string() })),
    order: v.string(),
    fields: v.nullable(v.array(v.string())),
    limit: v.number(),
    revision: v.number(),
    created_at: v.string(),
    updated_at: v.string(),
    replayed: v.optional(v.boolean()),
  }),
  v.title("SavedQuery"),
);

const QueryPath = v.strictObject({ id: Id });
const common = ["unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;

/** Saved queries (docs/saved-queries.md): served publicly at GET /v1/_queries/{name}. */
export const savedQueryRoutes: readonly RouteSpec[] = [
  { operationId: "listSavedQueries", method: "get", path: "/saved-queries", summary: "The site's saved queries, by name", scope: "content:read", response: v.strictObject({ data: v.array(SavedQuery) }), errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  { operationId: "createSavedQuery", method: "post", path: "/saved-queries", summary: "Save a named list query of one model, served at GET /v1/_queries/{name}", scope: "settings:write", idempotent: true, body: CreateSavedQueryBody, status: 201, response: SavedQuery, errors: ["invalid_request", ...common, "private_field_on_public_route", "saved_query_name_taken"] },
  { operationId: "updateSavedQuery", destructive: true, method: "put", path: "/saved-queries/{id}", summary: "Replace a saved query's definition (and optionally its name)", scope: "settings:write", idempotent: true, params: QueryPath, body: UpdateSavedQueryBody, response: SavedQuery, errors: ["invalid_request", ...common, "saved_query_not_found", "saved_query_changed", "private_field_on_public_route", "saved_query_name_taken"] },
  { operationId: "deleteSavedQuery", destructive: true, method: "delete", path: "/saved-queries/{id}", summary: "Delete a saved query (its public address answers 404)", scope: "settings:write", idempotent: true, params: QueryPath, response: v.object({ id: v.string(), name: v.string(), deleted: v.literal(true), replayed: v.optional(v.boolean()) }), errors: [...common, "saved_query_not_found"] },
];
