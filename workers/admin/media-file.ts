import { AppError } from "../../shared/errors";
import { mediaRepository } from "../../shared/repositories/media-repository";
import { contentDisposition, DELIVERY_CSP } from "../../shared/services/media/delivery";
import type { SiteCall } from "./auth";

/**
 * GET /api/media/{id}/file (docs/admin-ui-fields.md, "Thumbnails"): the media item's current file
 * for the admin UI's previews, to any member of the X-Site-Id site (as `getMedia` is). Media
 * addresses (`/media/…`) belong to the site's public host and serve only published files or a
 * public library, so the admin cannot show a draft's image from there. Streamed from R2 with the
 * public delivery's protections (the sandboxing CSP, nosniff, `attachment` for anything that is
 * not a raster image, audio or video) and never cached (`private, no-store`): a removed file or a
 * member removed from the site stops being served at once.
 */
export async function mediaFile(call: SiteCall): Promise<Response> {
  const id = call.params[0] ?? "";
  const row = await mediaRepository(call.ctx.db, call.ctx.scope).findById(id);
  if (!row) throw new AppError("not_found", "No such media item.");
  const object = await call.env.MEDIA.get(row.object_key);
  if (!object) throw new AppError("not_found", "The media item's file is not stored.");
  return new Response(object.body, {
    headers: {
      "content-type": row.mime_type,
      "content-length": String(object.size),
      "content-disposition": contentDisposition(row.mime_type, row.file_name),
      "content-security-policy": DELIVERY_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
}
