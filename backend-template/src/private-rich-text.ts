/**
 * `privateRichText(html, endpoint, rowId)` (spec 3 "Resources and their fields"): a private rich
 * text as the CMS stores it (canonical HTML) keeps each library image's bytes behind a
 * `src="private-file:<key>"` marker; this maps every such image to the same-origin file route,
 * `<endpoint>/<row id>?media=<media id>` (endpoint: `/api/<model>/files/<field>`), which re-checks
 * the reader's access on every request. A marker that names no library image is emptied, so a
 * storage key never reaches a page.
 */

const escapeAttribute = (text: string): string => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function privateRichText(html: string, endpoint: string, rowId: string): string {
  const base = `${endpoint.replace(/\/+$/, "")}/${encodeURIComponent(rowId)}`;
  const images = html.replace(/<img\b[^>]*>/gi, (tag) => {
    const media = /\sdata-media="([^"]*)"/i.exec(tag)?.[1];
    if (media === undefined) return tag;
    return tag.replace(/(\ssrc=")private-file:[^"]*(")/i, (_all, open: string, close: string) => `${open}${escapeAttribute(`${base}?media=${encodeURIComponent(media)}`)}${close}`);
  });
  return images.replace(/="private-file:[^"]*"/g, '=""');
}
