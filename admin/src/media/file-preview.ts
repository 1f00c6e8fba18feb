import { useEffect, useState } from "preact/hooks";
import { requestHeaders } from "../api/client";
import type { MediaItem } from "./types";

/**
 * Pictures of media items for the admin. An item's `url` is its public delivery address, served
 * only while published content pins it (docs/media.md, "Public delivery"), so a fresh upload has
 * nothing a browser may show. The admin route `GET /api/media/{id}/file` (workers/admin/media-file.ts)
 * answers the current file to a member; it needs the X-Site-Id header, so it is fetched here and
 * shown through an object URL, kept per object id (an object's bytes never change) for the page's
 * life. A linked item's picture comes from its `external_url`.
 */
const cache = new Map<string, Promise<string | null>>();
/** Pictures kept at most; the oldest are let go (their object URLs revoked) past this. */
const CACHE_MAX = 200;

/** Images larger than this get a kind badge rather than a picture (no resizing exists yet). */
export const PREVIEW_MAX_BYTES = 8 * 1024 * 1024;

/** Whether the admin shows a picture of the item (raster images within the size above). */
export function hasPreview(item: Pick<MediaItem, "kind" | "mime_type" | "byte_length">): boolean {
  return item.kind === "image" && item.mime_type !== "image/svg+xml" && item.byte_length <= PREVIEW_MAX_BYTES;
}

function load(item: MediaItem): Promise<string | null> {
  // A linked item (a plugin's media source, mode reference) has no bytes here: the admin route
  // would only redirect to the plugin's address, which the page's connect-src may not fetch. The
  // picture is shown from that address itself (img-src allows http(s); docs/media.md "Linked items").
  if (item.external_url) return Promise.resolve(item.external_url);
  const known = cache.get(item.object_id);
  if (known) return known;
  const loading = fetch(`/api/media/${encodeURIComponent(item.id)}/file`, { headers: requestHeaders("GET"), credentials: "same-origin" })
    .then(async (response) => (response.ok ? URL.createObjectURL(await response.blob()) : null))
    .catch(() => null);
  cache.set(item.object_id, loading);
  while (cache.size > CACHE_MAX) {
    const [oldest, url] = cache.entries().next().value as [string, Promise<string | null>];
    cache.delete(oldest);
    void url.then((u) => u && URL.revokeObjectURL(u));
  }
  // A failed load may be tried again later (e.g. after a network fault).
  void loading.then((url) => {
    if (url === null) cache.delete(item.object_id);
  });
  return loading;
}

/** The object URL of the item's picture, `undefined` while loading, `null` when there is none. */
export function useFilePreview(item: MediaItem | null): string | null | undefined {
  const wanted = item !== null && hasPreview(item);
  const [url, setUrl] = useState<string | null | undefined>(wanted ? undefined : null);
  useEffect(() => {
    if (!item || !wanted) {
      setUrl(null);
      return;
    }
    let live = true;
    setUrl(undefined);
    void load(item).then((found) => {
      if (live) setUrl(found);
    });
    return () => {
      live = false;
    };
  }, [item?.object_id, wanted]);
  return url;
}
