import * as v from "valibot";
import type { RouteSpec } from "./contract";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Status = v.picklist(["pending", "approved", "rejected", "spam"]);

export const Comment = v.pipe(
  v.object({
    id: v.string(),
    model_id: v.string(),
    translation_group_id: v.pipe(v.string(), v.description("The item commented on")),
    instance_id: v.pipe(v.string(), v.description("The language instance the reader commented on")),
    lang: v.string(),
    author_name: v.string(),
    body: v.string(),
    status: Status,
    revision: v.number(),
    moderated_by: v.nullable(v.string()),
    moderated_at: v.nullable(v.string()),
    created_at: v.string(),
  }),
  v.title("Comment"),
);

export const CommentSettingsBody = v.strictObject({
  enabled: v.pipe(v.boolean(), v.description("Readers may post (the public comment routes answer 404 while off)")),
  model_ids: v.pipe(v.array(Id), v.maxLength(50), v.description("Models whose published items take comments")),
  moderation: v.pipe(v.picklist(["pending", "approved"]), v.description("Where a new comment starts: pending (a moderator approves it) or approved")),
  difficulty: v.pipe(v.number(), v.integer(), v.minValue(8), v.maxValue(24), v.description("Proof-of-work: leading zero bits of SHA-256(challenge:nonce); 18 takes a browser about a quarter second")),
  max_length: v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(10000), v.description("Longest comment body, in characters")),
  per_hour: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000), v.description("Comments one client address may post per hour")),
  expected_revision: v.optional(Revision),
});

const CommentSettingsOut = v.strictObject({ enabled: v.boolean(), model_ids: v.array(v.string()), moderation: v.string(), difficulty: v.number(), max_length: v.number(), per_hour: v.number() });
const CommentPath = v.strictObject({ id: Id });
const caller = ["unauthorized", "creator_unauthorized", "insufficient_scope", "rate_limited"] as const;

/** Comments (issue #29 item 5; docs/comments.md): moderation and the site's comment settings. */
export const commentRoutes: readonly RouteSpec[] = [
  {
    operationId: "listComments",
    method: "get",
    path: "/comments",
    summary: "The site's comments, newest first, on models the caller may read",
    scope: "content:read",
    query: v.strictObject({ status: v.optional(Status), entry_id: v.optional(v.pipe(Id, v.description("An item's instance id or translation group id"))), cursor: v.optional(v.string()), limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/), v.description("1 to 100; default 50"))) }),
    response: v.strictObject({ data: v.array(Comment), next_cursor: v.nullable(v.string()) }),
    errors: ["invalid_request", ...caller],
  },
  {
    operationId: "moderateComment",
    method: "post",
    path: "/comments/{id}/moderate",
    summary: "Approve, reject or mark a comment as spam; moderating it to the state it has (a repeat after commit) is 409 conflict with the comment as it is",
    scope: "content:write",
    idempotent: true,
    destructive: true,
    params: CommentPath,
    body: v.strictObject({ status: v.picklist(["approved", "rejected", "spam"]) }),
    response: Comment,
    errors: ["invalid_request", ...caller, "not_found", "missing_permission", "locale_denied", "conflict", "idempotency_key_reused"],
  },
  {
    operationId: "deleteComment",
    method: "delete",
    path: "/comments/{id}",
    summary: "Delete a comment for good; a repeat is 404 not_found",
    scope: "content:trash",
    idempotent: true,
    destructive: true,
    params: CommentPath,
    response: v.object({ id: v.string(), deleted: v.literal(true) }),
    errors: [...caller, "not_found", "missing_permission", "locale_denied", "idempotency_key_reused"],
  },
  { operationId: "getCommentSettings", method: "get", path: "/settings/comments", summary: "The site's comment settings", scope: "content:read", response: v.object({ comments: CommentSettingsOut, revision: v.number() }), errors: ["unauthorized", "creator_unauthorized", "rate_limited"] },
  {
    operationId: "putCommentSettings",
    method: "put",
    path: "/settings/comments",
    summary: "Replace the site's comment settings (docs/comments.md)",
    scope: "settings:write",
    idempotent: true,
    destructive: true,
    body: CommentSettingsBody,
    response: v.object({ comments: CommentSettingsOut, revision: v.number(), replayed: v.optional(v.boolean()) }),
    errors: ["invalid_request", ...caller, "missing_permission", "settings_changed", "idempotency_in_progress", "idempotency_key_reused"],
  },
];
