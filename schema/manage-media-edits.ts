import * as v from "valibot";
import type { RouteSpec } from "./contract";
import { Page } from "./common";
import { MediaItem } from "./manage-media";
import { noControls, textsByLanguage, wellFormed } from "./text";

const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const Revision = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Fraction = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

/** The smallest side of a crop, as a fraction of the picture (1 %): a crop narrower is a slip of the pointer. */
export const MEDIA_CROP_MIN = 0.01;
const CropSide = v.pipe(v.number(), v.minValue(MEDIA_CROP_MIN), v.maxValue(1));

/**
 * A crop of an image (docs/media.md, "Crop"): the kept rectangle as fractions 0..1 of the picture's
 * width and height, wholly inside it. Stored on the item; delivery applies it when responsive images come.
 */
export const MediaCrop = v.pipe(
  v.strictObject({ x: Fraction, y: Fraction, width: CropSide, height: CropSide }),
  v.check((c) => c.x + c.width <= 1 + 1e-9 && c.y + c.height <= 1 + 1e-9, "The crop must lie inside the picture: x + width and y + height at most 1."),
  v.description("Kept rectangle as fractions 0..1 of width and height (x, y: top-left corner; width, height at least 0.01), inside the picture; images only (else 400 media_framing_not_image); null: the whole picture"),
);

/** Longest alt text in one language (the upload's limit too). */
export const MEDIA_ALT_TEXT_MAX = 1000;

/**
 * PUT /media/{id} body (spec 2 rule 5): at least one of `alt_texts`, `default_focal`, `crop`, `loading`,
 * `fetch_priority` (checked by the handler: 400 `invalid_request`). In `alt_texts` a language
 * omitted keeps its text and `""` clears it.
 */
export const UpdateMediaBody = v.strictObject({
  expected_revision: v.optional(Revision),
  alt_texts: v.optional(
    textsByLanguage(
      MEDIA_ALT_TEXT_MAX,
      "Alt text by language of the site; a language omitted keeps its text, an empty string clears it (also a language the site dropped that the item still holds)",
    ),
  ),
  default_focal: v.optional(
    v.nullable(v.pipe(v.strictObject({ x: Fraction, y: Fraction }), v.description("Focal point as fractions 0..1 of width and height; images only (else 400 media_framing_not_image)"))),
  ),
  crop: v.optional(v.nullable(MediaCrop)),
  loading: v.optional(v.picklist(["eager", "lazy"])),
  fetch_priority: v.optional(v.picklist(["high", "low", "auto"])),
});
export type UpdateMediaBody = v.InferOutput<typeof UpdateMediaBody>;

/** GET /media query: newest first, cursor pages like the other management lists. */
export const ListMediaQuery = v.strictObject({
  kind: v.optional(v.picklist(["image", "document", "audio", "video", "file"])),
  folder_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('A folder id, or "unfiled" for files in no folder'))),
  q: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(255), wellFormed(), noControls(), v.description("Case-insensitive substring of the file name; % and _ match themselves; no control characters")),
  ),
  cursor: v.optional(v.string()),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/), v.description("1 to 100 (larger values give 100); default 20"))),
});

/** List and edit of the media library (docs/media.md). Kept apart from manage-media.ts (upload, read). */
export const mediaEditRoutes: readonly RouteSpec[] = [
  {
    operationId: "listMedia",
    method: "get",
    path: "/media",
    summary: "Media items of the site, newest first; filters kind, folder_id (or unfiled), q (file name)",
    scope: "content:read",
    query: ListMediaQuery,
    response: v.strictObject({ data: v.array(MediaItem), page: Page }),
    errors: ["invalid_request", "unauthorized", "creator_unauthorized", "rate_limited"],
  },
  {
    operationId: "updateMedia",
    destructive: true,
    method: "put",
    path: "/media/{id}",
    summary: "Edit alt texts, focal point, crop, loading or fetch priority; bumps revision",
    scope: "media:write",
    idempotent: true,
    params: v.strictObject({ id: Id }),
    body: UpdateMediaBody,
    response: v.object({ media: MediaItem, replayed: v.optional(v.boolean()) }),
    errors: [
      "invalid_request", "unauthorized", "creator_unauthorized", "insufficient_scope", "missing_permission", "not_found", "idempotency_in_progress", "idempotency_key_reused", "rate_limited",
      "unknown_locale", "media_framing_not_image", "media_changed",
    ],
  },
];
