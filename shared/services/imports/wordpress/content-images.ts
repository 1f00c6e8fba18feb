import { rows } from "../statements";
import type { StepContext } from "../job-step";
import { mediaRepository } from "../../../repositories/media-repository";
import { mediaUrl } from "../../media/media-view";

/**
 * Images inside a WordPress post's content (issue #28; docs/imports.md, "Images in content"): an
 * `<img>` whose attachment is in the file becomes a library image of the rich text
 * (`<img src="/media/{id}/{object id}/{file}" data-media="med_…">`, docs/rich-text.md), pointing at
 * the media item that attachment became. Which attachment: the block editor's and the classic
 * editor's `wp-image-<attachment id>` class first, else the `src` matched against the attachments'
 * `attachment_url` — query dropped (`?w=604`) and WordPress's resized names (`photo-300x200.jpg`,
 * `photo-scaled.jpg`) taken back to the original. An image of no attachment of the file stays as
 * it was (an external image the sanitiser keeps when its address is http or https). A link to a
 * linked image's full-size file (`<a href="…/photo.jpg">` around it) points at the library item too.
 */

const IMG_TAG = /<img\b[^>]*>/gi;
const HREF = /\shref\s*=\s*(["'])([^"']*)\1/gi;
const attribute = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, "i").exec(tag)?.slice(2).find((v) => v !== undefined);

/** One `<img>` of the content: its attachment id (`wp-image-N`) and `src`, as written. */
export interface ContentImage {
  tag: string;
  attachmentId: string | null;
  src: string | null;
}

export function contentImages(content: string): ContentImage[] {
  return [...content.matchAll(IMG_TAG)].map(([tag]) => ({ tag, attachmentId: /\bwp-image-(\d+)\b/.exec(attribute(tag, "class") ?? "")?.[1] ?? null, src: attribute(tag, "src") ?? null }));
}

/** An upload's original address: no query or fragment, WordPress's `-<w>x<h>` and `-scaled` suffixes removed. */
export function originalAddress(src: string): string | null {
  if (!URL.canParse(src)) return null;
  const url = new URL(src);
  url.search = "";
  url.hash = "";
  url.pathname = url.pathname.replace(/-(?:\d{1,5}x\d{1,5}|scaled)(\.[A-Za-z0-9]{1,8})$/, "$1");
  return url.toString();
}

/** An attachment item of the job, with the address it was exported under. */
export interface AttachmentItem {
  seq: number;
  source_key: string;
  state: string;
  media_id: string | null;
  url: string | null;
}

/**
 * The attachment items of this job for a content's images, in one read: by WordPress id
 * (`wp-image-N`) or by original address. `of` answers one image's (the id first).
 */
export async function attachmentsOf(ctx: StepContext, jobId: string, images: readonly ContentImage[]): Promise<{ of: (image: ContentImage) => AttachmentItem | undefined }> {
  const ids = [...new Set(images.flatMap((i) => (i.attachmentId ? [i.attachmentId] : [])))];
  const urls = [...new Set(images.flatMap((i) => (i.src ? [i.src, originalAddress(i.src)].filter((u): u is string => u !== null) : [])))];
  const found =
    ids.length + urls.length === 0
      ? []
      : await rows<AttachmentItem>(
          ctx.d1,
          `SELECT seq, source_key, state, media_id, json_extract(payload, '$.attachment_url') AS url FROM import_items
           WHERE site_id = ? AND job_id = ? AND kind = 'attachment'
             AND (source_key IN (${ids.map(() => "?").join(", ") || "NULL"}) OR json_extract(payload, '$.attachment_url') IN (${urls.map(() => "?").join(", ") || "NULL"}))`,
          [ctx.site.id, jobId, ...ids, ...urls],
        );
  const byId = new Map(found.map((a) => [a.source_key, a]));
  const byUrl = new Map(found.flatMap((a) => (a.url ? [[a.url, a] as const] : [])));
  return {
    of: (image) => (image.attachmentId ? byId.get(image.attachmentId) : undefined) ?? (image.src ? (byUrl.get(originalAddress(image.src) ?? "") ?? byUrl.get(image.src)) : undefined),
  };
}

/** The tag pointing at the library image `mediaId` (its current file's address), other attributes as written. */
function libraryTag(tag: string, src: string, mediaId: string): string {
  const cleaned = tag.replace(/\s(?:src|data-media)\s*=\s*("[^"]*"|'[^']*')/gi, "");
  return cleaned.replace(/^<img\b/i, `<img src="${src}" data-media="${mediaId}"`);
}

/**
 * The content with every image of an imported attachment turned into its library image. Runs
 * after the attachments were written (write-step.ts places them before the post, as a featured
 * image); an attachment that was not imported leaves its image as written.
 */
export async function linkContentImages(ctx: StepContext, jobId: string, content: string): Promise<{ content: string; linked: string[] }> {
  const images = contentImages(content);
  if (images.length === 0) return { content, linked: [] };
  const media = mediaRepository(ctx.db, ctx.scope);
  const attachments = await attachmentsOf(ctx, jobId, images);
  const replaced = new Map<string, string>();
  /** A linked image's original address → its library address: a link to the full-size file (`<a href>` around it) follows it. */
  const addresses = new Map<string, string>();
  const linked: string[] = [];
  for (const image of images) {
    if (replaced.has(image.tag)) continue;
    const attachment = attachments.of(image);
    const row = attachment?.media_id ? await media.findById(attachment.media_id) : undefined;
    if (!row) continue;
    replaced.set(image.tag, libraryTag(image.tag, mediaUrl(row), row.id));
    const original = image.src ? originalAddress(image.src) : null;
    if (original) addresses.set(original, mediaUrl(row));
    linked.push(row.id);
  }
  const withImages = content.replace(IMG_TAG, (tag) => replaced.get(tag) ?? tag);
  const withLinks = addresses.size === 0 ? withImages : withImages.replace(HREF, (whole, quote: string, href: string) => {
    const to = addresses.get(originalAddress(href) ?? "");
    return to ? ` href=${quote}${to}${quote}` : whole;
  });
  return { content: withLinks, linked: [...new Set(linked)] };
}
