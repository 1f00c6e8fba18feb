import { AppError } from "../../shared/errors";
import { mediaRepository } from "../../shared/repositories/media-repository";
import { contentDisposition, DELIVERY_CSP } from "../../shared/services/media/delivery";
import type { SiteCall } from "./auth";

/**
 * GET (and HEAD) /api/media/{id}/file (docs/admin-ui-media.md): the item's current file for the admin UI's
 * thumbnails and details, to any member of the site (the library is site-wide, as `GET /media`).
 * Public delivery serves a file only while published content pins it (or the library is public),
 * so a fresh upload has no address a browser may load; this route is the admin's own view of it.
 * Headers as public delivery's (stored type, nosniff, sandboxing CSP, inline only for raster images,
 * audio and video), but never cached: the answer depends on the session.
 */
export async function mediaFile(call: SiteCall): Promise<Response> {
  const [id = ""] = call.params;
  const notFound = () => new AppError("not_found", "No such media item on this site.");
  const row = await mediaRepository(call.ctx.db, call.ctx.scope).findById(id);
  if (!row) throw notFound();
  // A linked external item (docs/media.md, "Linked items"): its file is at the plugin's address.
  if (row.external_url) return new Response(null, { status: 302, headers: { location: row.external_url, "cache-control": "private, no-store", "referrer-policy": "no-referrer" } });
  // HEAD (answered like GET, RFC 9110 §9.3.2) reads the object's metadata only: no body opened to be dropped.
  const full = call.request.method === "HEAD" ? null : await call.env.MEDIA.get(row.object_key);
  const object = full ?? (await call.env.MEDIA.head(row.object_key));
  if (!object) throw notFound();
  const type = object.httpMetadata?.contentType ?? row.mime_type;
  return new Response(full?.body ?? null, {
    headers: {
      "content-type": type,
      "content-length": String(object.size),
      "content-disposition": contentDisposition(type, row.file_name),
      "content-security-policy": DELIVERY_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "x-media-object-id": row.object_key.split("/").pop() ?? "",
    },
  });
}
