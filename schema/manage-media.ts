import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { wellFormed } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Dimension = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,4}$/), v.description("Pixels, 1 to 99999; used only when the image's header gives no dimensions"));

/** The whole-file limit of an upload through the management API (spec 2, Limits): 32 MiB. */
export const MEDIA_UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
/** Room for the text fields, boundaries and part headers around the file. */
export const MEDIA_UPLOAD_FORM_OVERHEAD_BYTES = 256 * 1024;

/** Text fields of `POST /media` (multipart/form-data; each a string). Unknown fields are refused. */
export const UploadMediaFields = v.strictObject({
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(255), wellFormed(), v.description("File name; default: the file part's name"))),
  type: v.optional(v.pipe(v.string(), v.maxLength(255), wellFormed(), v.description("Declared media type; the bytes decide, a program or markup type is refused"))),
  alt_texts: v.optional(v.pipe(v.string(), v.maxLength(64 * 1024), v.description("JSON object: alt text by language code"))),
  width: v.optional(Dimension),
  height: v.optional(Dimension),
  aspectRatio: v.optional(v.pipe(v.string(), v.regex(/^\d{1,5}(?:\.\d{1,6})?(?:[:/]\d{1,5}(?:\.\d{1,6})?)?$/), v.description("width/height as a number, W:H or W/H"))),
  on_duplicate: v.optional(v.picklist(["ask", "use_existing", "copy"])),
  folder_id: v.optional(v.pipe(v.string(), v.maxLength(64), v.description("Empty for Unfiled"))),
  edited_from: v.optional(Id),
});
export type UploadMediaFields = v.InferOutput<typeof UploadMediaFields>;

/** A media item (spec 2, "Media item"): the same shape in every answer and list. */
export const MediaItem = v.pipe(
  v.object({
    id: v.string(),
    kind: v.picklist(["image", "document", "audio", "video", "file"]),
    file_name: v.string(),
    mime_type: v.string(),
    byte_length: v.number(),
    sha256: v.string(),
    width: v.nullable(v.number()),
    height: v.nullable(v.number()),
    alt_texts: v.record(v.string(), v.string()),
    default_focal: v.nullable(v.object({ x: v.number(), y: v.number() })),
    /** The kept rectangle (fractions of the picture), or null (docs/media.md, "Crop"). */
    crop: v.nullable(v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() })),
    loading: v.picklist(["eager", "lazy"]),
    fetch_priority: v.picklist(["high", "low", "auto"]),
    folder_id: v.nullable(v.string()),
    tags: v.array(v.string()),
    credit: v.nullable(v.string()),
    edited_from: v.nullable(v.string()),
    revision: v.number(),
    object_id: v.string(),
    url: v.string(),
    created_at: v.string(),
    updated_at: v.string(),
  }),
  v.title("MediaItem"),
);

/** The answer of an upload (201, or 200 with `reused: true`): the management upload and the admin streamed upload. */
export const MediaAnswer = v.object({ media: MediaItem, reused: v.optional(v.literal(true)), replayed: v.optional(v.boolean()) });

/** Media library operations of the management API (docs/media.md). */
export const mediaRoutes: readonly RouteSpec[] = [
  {
    operationId: "uploadMedia",
    method: "post",
    path: "/media",
    summary: "Upload a file (multipart/form-data, at most 32 MiB); 200 with reused: true when on_duplicate is use_existing and the bytes are held",
    scope: "media:write",
    idempotent: true,
    body: UploadMediaFields,
    multipart: { file: "file", maxFileBytes: MEDIA_UPLOAD_MAX_BYTES, maxBodyBytes: MEDIA_UPLOAD_MAX_BYTES + MEDIA_UPLOAD_FORM_OVERHEAD_BYTES },
    status: 201,
    otherStatuses: [{ status: 200, description: "Reused: on_duplicate is use_existing and the site already holds these bytes ({ media, reused: true }); nothing stored" }],
    response: MediaAnswer,
    errors: [
      "invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "idempotency_in_progress", "idempotency_key_reused", "rate_limited",
      "executable_file", "unsupported_media_type", "unknown_locale", "media_duplicate", "media_edit_source_not_found", "media_folder_not_found",
    ],
  },
  {
    operationId: "getMedia",
    method: "get",
    path: "/media/{id}",
    summary: "One media item, in list shape",
    scope: "content:read",
    params: v.strictObject({ id: Id }),
    response: v.object({ media: MediaItem }),
    errors: ["unauthorized", "creator_unauthorized", "not_found", "rate_limited"],
  },
];
