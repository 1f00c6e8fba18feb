import { useEffect, useState } from "preact/hooks";
import { currentSiteId } from "../state/session";

/** A media item as the management API lists it. */
export type MediaSummary = { id: string; kind: string; file_name: string; mime_type: string; alt_texts: Record<string, string>; width: number | null; height: number | null; external_url?: string | null };

/** Blob addresses of thumbnails already fetched, by media id (revoked never: a page holds few). */
const THUMBS = new Map<string, Promise<string | null>>();

/**
 * An image's bytes through the admin host (`GET /api/media/{id}/file`, the media library's route:
 * workers/admin/media-file.ts, under the session and X-Site-Id): media addresses (`/media/…`)
 * belong to the site's public host and serve only published or public-library files, so the admin
 * reads the file itself and shows it from a blob address. A linked item (a plugin's media source,
 * mode reference) is shown from its `external_url`: the route would only redirect there, and the
 * page may fetch only its own host (img-src allows http(s)).
 */
function thumbnail(id: string, external?: string | null): Promise<string | null> {
  if (external) return Promise.resolve(external);
  let found = THUMBS.get(id);
  if (!found) {
    found = fetch(`/api/media/${encodeURIComponent(id)}/file`, { headers: { "x-site-id": currentSiteId.value ?? "" }, credentials: "same-origin" })
      .then(async (response) => (response.ok ? URL.createObjectURL(await response.blob()) : null))
      .catch(() => null);
    THUMBS.set(id, found);
    // A failed load may be tried again (a network fault, the route not there yet).
    void found.then((url) => {
      if (url === null) THUMBS.delete(id);
    });
  }
  return found;
}

const KIND_MARK: Record<string, string> = { image: "🖼", document: "📄", audio: "🎵", video: "🎞", file: "📦" };

/** A square preview: the image itself for raster images, else a mark and the kind in words. */
export function MediaThumb({ media, alt }: { media: MediaSummary; alt: string }) {
  const raster = media.kind === "image" && media.mime_type !== "image/svg+xml";
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!raster) return;
    let live = true;
    void thumbnail(media.id, media.external_url).then((url) => {
      if (live) setSrc(url);
    });
    return () => {
      live = false;
    };
  }, [media.id]);
  return (
    <span class="media-thumb">
      {raster && src ? (
        <img src={src} alt={alt} loading="lazy" />
      ) : (
        <span class="media-thumb-kind">
          <span aria-hidden="true">{KIND_MARK[media.kind] ?? "📦"}</span>
          <span>{media.kind}</span>
        </span>
      )}
    </span>
  );
}
