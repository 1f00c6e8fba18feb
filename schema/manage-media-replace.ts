import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { MEDIA_UPLOAD_FORM_OVERHEAD_BYTES, MEDIA_UPLOAD_MAX_BYTES, MediaItem, UploadMediaFields } from "./manage-media";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/**
 * Text fields of `POST /media/{id}/replace` (multipart/form-data; each a string; unknown fields are
 * refused): the upload's `name`, `type`, `width`, `height`, `aspectRatio`, and `expected_revision`.
 */
export const ReplaceMediaFields = v.strictObject({
  name: UploadMediaFields.entries.name,
  type: UploadMediaFields.entries.type,
  width: UploadMediaFields.entries.width,
  height: UploadMediaFields.entries.height,
  aspectRatio: UploadMediaFields.entries.aspectRatio,
  expected_revision: v.optional(v.pipe(v.string(), v.regex(/^(?:0|[1-9][0-9]{0,14})$/), v.description("The item's revision as read; a stale one is 409 media_changed"))),
});
export type ReplaceMediaFields = v.InferOutput<typeof ReplaceMediaFields>;

/** Replace of a media item's file (docs/media.md, "Replace"). Kept apart from manage-media.ts. */
export const mediaReplaceRoutes: readonly RouteSpec[] = [
  {
    operationId: "replaceMedia",
    destructive: true,
    method: "post",
    path: "/media/{id}/replace",
    summary: "Replace the file of a media item with one of the same kind (multipart/form-data, at most 32 MiB); keeps id and metadata, bumps revision; read the new url",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id }),
    body: ReplaceMediaFields,
    multipart: { file: "file", maxFileBytes: MEDIA_UPLOAD_MAX_BYTES, maxBodyBytes: MEDIA_UPLOAD_MAX_BYTES + MEDIA_UPLOAD_FORM_OVERHEAD_BYTES },
    status: 200,
    response: v.object({ media: MediaItem, unchanged: v.optional(v.literal(true)), replayed: v.optional(v.boolean()) }),
    errors: [
      "invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited",
      "executable_file", "unsupported_media_type", "media_changed", "media_kind_mismatch", "media_linked",
    ],
  },
];
