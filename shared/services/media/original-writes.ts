import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { mediaOriginalsRepository, type MediaOriginalRow } from "../../repositories/media-originals-repository";
import { mediaRepository, type MediaRow } from "../../repositories/media-repository";
import type { LifecycleContext, WritePlan } from "../lifecycle/context";
import { objectFacts, requireMediaPermission, type StoredFile } from "./media-permission";
import { objectIdOf } from "./object-keys";
import { originalView, overrideOriginal, type OriginalView } from "./originals";
import { assertReplaceable } from "./replace";

/**
 * PUT /media/{id}/originals/{lang}: a file the router checked and stored in R2 under a new key of the
 * item, for one language, with the pointer the caller read (`""`: no override yet). Plain data for DO RPC.
 */
export interface SetMediaOriginalInput extends StoredFile {
  lang: string;
  expected_object_id: string;
}

/** DELETE /media/{id}/originals/{lang}: the pointer the caller read (never empty). */
export interface RemoveMediaOriginalInput {
  media_id: string;
  lang: string;
  expected_object_id: string;
}

export interface SetMediaOriginalAnswer {
  media_id: string;
  original: OriginalView;
  /** The override this one superseded (its object is kept), null for the first. */
  previous_object_id: string | null;
}

export interface RemoveMediaOriginalAnswer {
  media_id: string;
  /** The override as it was; the language now falls back (docs/media.md, "Originals by language"). */
  removed: OriginalView;
}

/** Originals are edits of an item: `media:update`, asked by the router before storing bytes and again here. */
export function assertMaySetOriginal(ctx: Pick<LifecycleContext, "actor">): void {
  requireMediaPermission(ctx, "media:update", "Changing originals by language");
}

/** `lang` must be a language of the site, else 422 `unknown_locale` (as alt texts). */
export function assertSiteLanguage(site: { languages: readonly string[] }, lang: string): void {
  if (!site.languages.includes(lang)) throw new AppError("unknown_locale", `"${lang}" is not a language of the site.`, { languages: [lang] });
}

/**
 * The pointer check of rule 7: `expected` must name the language's current override (its object id),
 * or be empty exactly when there is none; anything else is 409 `media_changed` with the current one.
 */
export function assertPointer(current: MediaOriginalRow | undefined, expected: string): void {
  const currentId = current ? objectIdOf(current.object_key) : null;
  if ((currentId ?? "") !== expected) {
    throw new AppError("media_changed", "The original for this language changed since you read it.", { current_object_id: currentId });
  }
}

/** What the router and the object check before an originals write: permission, item (404), language (422). */
export async function originalTarget(ctx: LifecycleContext, mediaId: string, lang: string): Promise<MediaRow> {
  assertMaySetOriginal(ctx);
  const row = assertReplaceable(await mediaRepository(ctx.db, ctx.scope).findById(mediaId), undefined);
  assertSiteLanguage(ctx.site, lang);
  return row;
}

/**
 * PUT /media/{id}/originals/{lang}, inside the site's object: permission, item, language, pointer
 * (`media_changed`), the file's kind equal to the item's (`media_kind_mismatch`). Then the language's
 * override names the new object; the ledger records it (role `original`); event
 * `media.original.updated`, audit `media.original.update` and the idempotency answer in the same batch.
 * 201 for a language's first override, 200 for a replaced one (whose object is kept).
 */
export async function setMediaOriginal(ctx: LifecycleContext, input: SetMediaOriginalInput): Promise<WritePlan<SetMediaOriginalAnswer>> {
  const row = await originalTarget(ctx, input.media_id, input.lang);
  const originals = mediaOriginalsRepository(ctx.db, ctx.scope);
  const current = await originals.find(row.id, input.lang);
  assertPointer(current, input.expected_object_id);
  assertReplaceable(row, undefined, input.kind);

  const at = isoAt(ctx.clock.now());
  const next: MediaOriginalRow = {
    site_id: row.site_id,
    media_id: row.id,
    lang: input.lang,
    ...objectFacts(input),
    created_by: ctx.actor.id,
    created_at: at,
  };
  const objectId = objectIdOf(next.object_key);
  const previousObjectId = current ? objectIdOf(current.object_key) : null;
  const { site_id: _site, ...values } = next;
  return {
    statements: [
      originals.guardCurrent(row.id, input.lang, current?.object_key ?? null),
      originals.put(values),
      mediaRepository(ctx.db, ctx.scope).recordObject({
        object_key: next.object_key,
        media_id: row.id,
        role: "original",
        lang: input.lang,
        byte_length: next.byte_length,
        mime_type: next.mime_type,
        created_at: at,
        file_name: next.file_name,
      }),
    ],
    // A new object is pinned by nothing yet: private, no url.
    answer: { media_id: row.id, original: originalView(row.id, overrideOriginal(next), new Set()), previous_object_id: previousObjectId },
    events: [{ name: "media.original.updated", payload: { media_id: row.id, lang: input.lang, object_id: objectId, previous_object_id: previousObjectId } }],
    purgeTags: [],
    audit: {
      action: "media.original.update",
      targetKind: "media",
      targetId: row.id,
      details: { lang: input.lang, object_id: objectId, previous_object_id: previousObjectId, sha256: next.sha256 },
    },
    status: current ? 200 : 201,
  };
}

/**
 * DELETE /media/{id}/originals/{lang}, inside the site's object: permission, item, language, pointer
 * (`media_changed`; none to remove is stale too). Removes the override row only: its object stays
 * in R2 and the ledger (published content may pin it). Event `media.original.removed`, audit
 * `media.original.remove`, idempotency answer, one batch.
 */
export async function removeMediaOriginal(ctx: LifecycleContext, input: RemoveMediaOriginalInput): Promise<WritePlan<RemoveMediaOriginalAnswer>> {
  const row = await originalTarget(ctx, input.media_id, input.lang);
  const originals = mediaOriginalsRepository(ctx.db, ctx.scope);
  const current = await originals.find(row.id, input.lang);
  assertPointer(current, input.expected_object_id);
  if (!current) throw new AppError("media_changed", "This language has no override.", { current_object_id: null });

  const objectId = objectIdOf(current.object_key);
  const pinned = await originals.pinnedKeys([row.id]);
  return {
    statements: [originals.guardCurrent(row.id, input.lang, current.object_key), originals.remove(row.id, input.lang)],
    answer: { media_id: row.id, removed: originalView(row.id, overrideOriginal(current), pinned) },
    events: [{ name: "media.original.removed", payload: { media_id: row.id, lang: input.lang, object_id: objectId } }],
    purgeTags: [],
    audit: { action: "media.original.remove", targetKind: "media", targetId: row.id, details: { lang: input.lang, object_id: objectId } },
    status: 200,
  };
}
