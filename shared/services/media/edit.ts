import { requireMediaPermission } from "./media-permission";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { mediaRepository } from "../../repositories/media-repository";
import { mediaEditStatement } from "../../repositories/media-list";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { mediaItem, type MediaCrop, type MediaItem } from "./media-view";

/** The fields PUT /media/{id} may change (spec 2, Endpoints: at least one of them). */
export const MEDIA_EDIT_FIELDS = ["alt_texts", "default_focal", "crop", "loading", "fetch_priority"] as const;

/** PUT /media/{id} as a command: the route's closed body plus the id. Plain data for DO RPC. */
export interface UpdateMediaInput {
  media_id: string;
  expected_revision?: number;
  /** Language → text; `""` clears that language, a language omitted keeps its text. */
  alt_texts?: Record<string, string>;
  default_focal?: { x: number; y: number } | null;
  /** The kept rectangle (fractions of the picture; the schema checks it lies inside); null removes the crop. */
  crop?: MediaCrop | null;
  loading?: "eager" | "lazy";
  fetch_priority?: "high" | "low" | "auto";
}

export interface UpdateMediaAnswer {
  media: MediaItem;
}

/** Stored alt texts merged with the request's: `""` clears a language, others set theirs. */
export function mergeAltTexts(stored: Record<string, string>, sent: Record<string, string>): Record<string, string> {
  const next = { ...stored };
  for (const [lang, text] of Object.entries(sent)) {
    if (text === "") delete next[lang];
    else next[lang] = text;
  }
  return next;
}

/**
 * PUT /media/{id}, inside the site's object (docs/media.md, "PUT /media/{id}"): permission
 * `media:update`, the item of this site (else `not_found`), the revision, the languages, framing
 * only on an image; then the row (revision + 1), the `media.updated` event, the audit row and the
 * idempotency answer commit in one batch (commitPlan). Refusals write nothing.
 */
export async function updateMedia(ctx: LifecycleContext, input: UpdateMediaInput): Promise<WritePlan<UpdateMediaAnswer>> {
  requireMediaPermission(ctx, "media:update", "Editing media");
  const changed = MEDIA_EDIT_FIELDS.filter((field) => input[field] !== undefined);
  if (changed.length === 0) {
    throw new AppError("invalid_request", `Name at least one of ${MEDIA_EDIT_FIELDS.join(", ")}.`, { fields: [...MEDIA_EDIT_FIELDS] });
  }
  const row = await mediaRepository(ctx.db, ctx.scope).findById(input.media_id);
  if (!row) throw new AppError("not_found", "No such media item.");
  if (input.expected_revision !== undefined && input.expected_revision !== row.revision) {
    throw new AppError("media_changed", "The media item changed since you read it.", { current_revision: row.revision });
  }
  const current = mediaItem(row);
  if (input.alt_texts !== undefined) {
    // Clearing ("") a language the item still holds is allowed after the site dropped it; any other
    // text needs a language of the site.
    const sent = input.alt_texts;
    const unknown = Object.keys(sent).filter((lang) => !ctx.site.languages.includes(lang) && !(sent[lang] === "" && Object.hasOwn(current.alt_texts, lang)));
    if (unknown.length > 0) throw new AppError("unknown_locale", "alt_texts names languages the site does not have.", { languages: unknown });
  }
  // A focal point frames an image; null (no focal point) is what every other kind already has.
  if (input.default_focal != null && row.kind !== "image") {
    throw new AppError("media_framing_not_image", "Only an image has a focal point.", { kind: row.kind });
  }
  if (input.crop != null && row.kind !== "image") {
    throw new AppError("media_framing_not_image", "Only an image can be cropped.", { kind: row.kind });
  }

  const next = {
    ...row,
    alt_texts: input.alt_texts !== undefined ? JSON.stringify(mergeAltTexts(current.alt_texts, input.alt_texts)) : row.alt_texts,
    default_focal: input.default_focal !== undefined ? (input.default_focal === null ? null : JSON.stringify({ x: input.default_focal.x, y: input.default_focal.y })) : row.default_focal,
    crop: input.crop !== undefined ? (input.crop === null ? null : JSON.stringify({ x: input.crop.x, y: input.crop.y, width: input.crop.width, height: input.crop.height })) : row.crop,
    loading: input.loading ?? row.loading,
    fetch_priority: input.fetch_priority ?? row.fetch_priority,
    revision: row.revision + 1,
    updated_at: isoAt(ctx.clock.now()),
  };
  return {
    statements: [mediaEditStatement(ctx.db, ctx.scope, row.revision, next)],
    answer: { media: mediaItem(next) },
    events: [{ name: "media.updated", payload: { media_id: row.id, kind: row.kind, changed, revision: next.revision } }],
    purgeTags: [],
    audit: { action: "media.update", targetKind: "media", targetId: row.id, details: { changed, revision: next.revision } },
  };
}
