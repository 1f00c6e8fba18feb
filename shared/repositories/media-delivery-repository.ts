import type { SiteScope } from "../db/site-scope";
import { assertScope } from "../db/site-scope";

/** A published item pinning an object: what decides whether, and for whom, public delivery serves it. */
export interface DeliveryPin {
  file_name: string;
  model_id: string;
  translation_group_id: string;
  /** 1 when the pinning item's model is public; else only a site token naming the model reads it. */
  is_public: number;
}

/** At most this many pins are read for one object (their tags go into one Cache-Tag header). */
export const MAX_PINS_READ = 50;

/**
 * Reads of public media delivery (docs/media.md, "Public delivery"). Every key is built here from the
 * scope's site id and the path's ids, so a request can only ever name its own site's objects.
 */
export function mediaDeliveryRepository(d1: D1Database, scope: SiteScope) {
  const siteId = assertScope(scope);
  const keyOf = (mediaId: string, objectId: string) => `${siteId}/${mediaId}/${objectId}`;
  return {
    keyOf,

    /** The published items of this site pinning exactly this object, public models first. */
    async pins(mediaId: string, objectId: string): Promise<DeliveryPin[]> {
      const result = await d1
        .prepare(
          `SELECT p.file_name, i.model_id, i.translation_group_id, m.is_public
           FROM published_media p
           JOIN published_items i ON i.site_id = p.site_id AND i.instance_id = p.instance_id
           JOIN models m ON m.site_id = i.site_id AND m.id = i.model_id
           WHERE p.site_id = ? AND p.object_key = ? AND p.media_id = ?
           ORDER BY m.is_public DESC
           LIMIT ${MAX_PINS_READ}`,
        )
        .bind(siteId, keyOf(mediaId, objectId), mediaId)
        .all<DeliveryPin>();
      return result.results;
    },

    /** A linked external item's address, when `objectId` is its file (docs/media.md, "Linked items"); undefined for a stored file. */
    async linkedAddress(mediaId: string, objectId: string): Promise<string | undefined> {
      const row = await d1
        .prepare("SELECT external_url FROM media WHERE site_id = ? AND id = ? AND object_key = ? AND external_url IS NOT NULL")
        .bind(siteId, mediaId, keyOf(mediaId, objectId))
        .first<{ external_url: string }>();
      return row?.external_url ?? undefined;
    },

    /** The item's current file, when `objectId` is it (the public library serves only that). */
    async currentFile(mediaId: string, objectId: string): Promise<{ file_name: string } | undefined> {
      const row = await d1
        .prepare("SELECT file_name FROM media WHERE site_id = ? AND id = ? AND object_key = ?")
        .bind(siteId, mediaId, keyOf(mediaId, objectId))
        .first<{ file_name: string }>();
      return row ?? undefined;
    },
  };
}
