import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { MEDIA_UPLOAD_FORM_OVERHEAD_BYTES, MEDIA_UPLOAD_MAX_BYTES, UploadMediaFields } from "./manage-media";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Lang = v.pipe(v.string(), v.minLength(1), v.maxLength(35), v.description("A language of the site (else 422 unknown_locale)"));
const ObjectPointer = v.pipe(v.string(), v.maxLength(64));

/** One original of a media item (spec 2, Resources: "Originals by language"). */
export const MediaOriginal = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.description("Object id: what expected_object_id names")),
    lang: v.pipe(v.nullable(v.string()), v.description("null: the default original (the item's own file)")),
    url: v.pipe(v.nullable(v.string()), v.description("/media/{media id}/{object id}/{file name}; null while private (no published content pins the object)")),
    file_name: v.string(),
    mime_type: v.string(),
    byte_length: v.number(),
    sha256: v.string(),
    width: v.nullable(v.number()),
    height: v.nullable(v.number()),
  }),
  v.title("MediaOriginal"),
);

/**
 * Text fields of `PUT /media/{id}/originals/{lang}` (multipart/form-data; each a string; unknown
 * fields refused): the upload's `name`, `type`, `width`, `height`, `aspectRatio`, and the required
 * `expected_object_id` (`""` when the language has no override yet).
 */
export const SetMediaOriginalFields = v.strictObject({
  name: UploadMediaFields.entries.name,
  type: UploadMediaFields.entries.type,
  width: UploadMediaFields.entries.width,
  height: UploadMediaFields.entries.height,
  aspectRatio: UploadMediaFields.entries.aspectRatio,
  expected_object_id: v.pipe(ObjectPointer, v.description("The language's current override object id, or empty when it has none; else 409 media_changed")),
});
export type SetMediaOriginalFields = v.InferOutput<typeof SetMediaOriginalFields>;

/** Body of `DELETE /media/{id}/originals/{lang}`: the override's object id as read (non-empty). */
export const RemoveMediaOriginalBody = v.strictObject({
  expected_object_id: v.pipe(ObjectPointer, v.minLength(1), v.description("The language's current override object id; else 409 media_changed")),
});

const writeErrors = ["invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "unknown_locale", "media_changed", "idempotency_in_progress", "idempotency_key_reused", "rate_limited"] as const;

/** Originals by language of a media item (docs/media.md, "Originals by language"; spec 2 rule 7). */
export const mediaOriginalRoutes: readonly RouteSpec[] = [
  {
    operationId: "listMediaOriginals",
    method: "get",
    path: "/media/{id}/originals",
    summary: "The originals of a media item (its own file and one override per language) and, per language of the site, the original it resolves to",
    scope: "content:read",
    params: v.strictObject({ id: Id }),
    response: v.object({
      media_id: v.string(),
      originals: v.pipe(v.array(MediaOriginal), v.description("The default original (lang null) first, then the overrides by language")),
      by_language: v.pipe(
        v.array(v.object({ lang: v.string(), id: v.string(), from_lang: v.nullable(v.string()) })),
        v.description("Per language of the site: the original's object id, and the language of the override used (itself or along the fallback order); null: the default original"),
      ),
    }),
    errors: ["unauthorized", "creator_unauthorized", "insufficient_scope", "not_found", "rate_limited"],
  },
  {
    operationId: "setMediaOriginal",
    method: "put",
    path: "/media/{id}/originals/{lang}",
    summary: "Set the original of one language to a file of the item's kind (multipart/form-data, at most 32 MiB), with the pointer read: 201 for the language's first override (empty pointer), 200 when it replaces one",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id, lang: Lang }),
    body: SetMediaOriginalFields,
    multipart: { file: "file", maxFileBytes: MEDIA_UPLOAD_MAX_BYTES, maxBodyBytes: MEDIA_UPLOAD_MAX_BYTES + MEDIA_UPLOAD_FORM_OVERHEAD_BYTES },
    status: 201,
    response: v.object({ media_id: v.string(), original: MediaOriginal, previous_object_id: v.nullable(v.string()), replayed: v.optional(v.boolean()) }),
    errors: [...writeErrors, "executable_file", "unsupported_media_type", "media_kind_mismatch", "media_linked"],
  },
  {
    operationId: "removeMediaOriginal",
    method: "delete",
    path: "/media/{id}/originals/{lang}",
    summary: "Remove the override of one language (it falls back again); its object is kept",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id, lang: Lang }),
    body: RemoveMediaOriginalBody,
    status: 200,
    response: v.object({ media_id: v.string(), removed: MediaOriginal, replayed: v.optional(v.boolean()) }),
    errors: [...writeErrors],
  },
];
