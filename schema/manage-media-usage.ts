import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { MediaItem } from "./manage-media";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** An entry that uses a media file, as the caller may see it (docs/media.md, "Usage"). */
export const MediaUser = v.pipe(
  v.strictObject({
    instance_id: v.string(),
    model_id: v.string(),
    lang: v.string(),
    label: v.pipe(v.nullable(v.string()), v.description("Null when the caller may not read the entry's title field")),
    field_ids: v.pipe(v.array(v.string()), v.description("The fields (ids) that reference the file, those the caller may read")),
    current: v.pipe(v.boolean(), v.description("The entry's current (working) version references the file")),
    published: v.pipe(v.boolean(), v.description("Its published version references the file")),
    in_trash: v.pipe(v.boolean(), v.description("The entry is in Trash; a restore brings the reference back")),
  }),
  v.title("MediaUser"),
);

/**
 * The usage answer of a file (spec 2, "Usage answer of a file"): entries the caller may read (at
 * most 50), `hidden` (entries using it that it may not read), `at_least` (entries counted),
 * `total` (null when capped or unreadable), `more`, `unreadable`.
 */
const MediaUsageEntries = {
    used_by: v.pipe(v.array(MediaUser), v.maxLength(50)),
    hidden: v.pipe(v.number(), v.description("Entries using the file that the caller may not read (model, language or field limits)")),
    at_least: v.pipe(v.number(), v.description("Entries counted: used_by's full count plus hidden; the true number is at least this")),
    total: v.pipe(v.nullable(v.number()), v.description("Every entry using the file; null when the answer is capped (more) or unreadable")),
    more: v.pipe(v.boolean(), v.description("More readable entries use the file than used_by lists, or the count was capped")),
    unreadable: v.pipe(v.boolean(), v.description("The caller may read no content of the site, so it is told nothing about usage")),
};
export const MediaUsage = v.pipe(v.strictObject(MediaUsageEntries), v.title("MediaUsage"));

/** POST /media/{id}/remove body: closed, optional `expected_revision` (stale → 409 media_changed). */
export const RemoveMediaBody = v.strictObject({
  expected_revision: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER), v.description("The item's revision as read; a stale one is 409 media_changed"))),
});

/** Usage and removal of media files (docs/media.md, "Usage", "Remove"). */
export const mediaUsageRoutes: readonly RouteSpec[] = [
  {
    operationId: "getMediaUsage",
    method: "get",
    path: "/media/{id}/usage",
    summary: "Entries whose current or published version (in or out of Trash) uses this file: readable ones listed (at most 50), others counted",
    scope: "content:read",
    params: v.strictObject({ id: Id }),
    response: v.object({ media_id: v.string(), ...MediaUsageEntries }),
    errors: ["unauthorized", "creator_unauthorized", "not_found", "rate_limited"],
  },
  {
    operationId: "removeMedia",
    method: "post",
    path: "/media/{id}/remove",
    summary: "Remove a file no content uses (needs media:delete): the row, its ledger and every R2 object it had; storage_cleanup says whether the deletes are done",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id }),
    body: RemoveMediaBody,
    status: 200,
    response: v.object({ media: MediaItem, storage_cleanup: v.picklist(["complete", "pending"]), replayed: v.optional(v.boolean()) }),
    errors: [
      "invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited",
      "media_changed", "media_in_use", "media_usage_unreadable",
    ],
  },
];
