import { altText } from "../ui/media-picker";
import type { MediaSummary } from "../ui/media-thumb";
import { escapeAttribute as attribute } from "./dom-html";

/** One library image as canonical HTML: its id (`data-media`, what the service checks), its address when known, its alt text in the field's language. */
function imageHtml(media: MediaSummary & { url?: string }, lang: string): string {
  const src = media.url ? ` src="${attribute(media.url)}"` : "";
  return `<img${src} alt="${attribute(altText(media, lang))}" data-media="${attribute(media.id)}">`;
}

/**
 * What "Insert image from library" puts into the document (docs/content-rules-rich-text.md): one
 * image is an inline library image; two to 24 become a gallery (`<figure data-gallery>`, the
 * service's rule); more than 24 are cut to 24. The editor keeps both as labelled atoms.
 */
export function libraryImagesHtml(chosen: readonly (MediaSummary & { url?: string })[], lang: string): { type: string; attrs: Record<string, string> } | null {
  const images = chosen.slice(0, 24);
  if (images.length === 0) return null;
  if (images.length === 1) return { type: "preservedImage", attrs: { html: imageHtml(images[0] as MediaSummary, lang) } };
  return { type: "preservedBlock", attrs: { kind: "gallery", html: `<figure data-gallery="">${images.map((m) => imageHtml(m, lang)).join("")}</figure>` } };
}
