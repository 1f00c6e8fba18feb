/**
 * The demo's showcase of rich text beyond paragraphs (docs/content-rules-rich-text.md): the first
 * published article, "Reading the Tide Tables", holds a table, a gallery of the seeded demo images
 * and a video embed from a built-in provider. It is written through the same lifecycle service as
 * every other article, so the seed proves the canonical markup passes the rules.
 */
import { mediaUrl } from "../../shared/services/media/media-view";
import type { LifecycleContext } from "../../shared/services/lifecycle";

/** A tide table, a gallery of library images and a YouTube embed: under 2000 characters. */
export async function tideTablesBody(ctx: LifecycleContext, mediaIds: readonly string[]): Promise<string> {
  const rows = mediaIds.length === 0 ? [] : await ctx.db.selectFrom("media").select(["id", "file_name", "object_key"]).where("site_id", "=", ctx.site.id).where("id", "in", [...mediaIds]).execute();
  const images = rows.map((row) => `<img src="${mediaUrl(row)}" data-media="${row.id}" alt="${row.file_name.replace(/\.png$/, "").replace(/-/g, " ")}">`);
  const gallery = images.length >= 2 ? `<figure data-gallery="">${images.slice(0, 24).join("")}<figcaption>The same beach at low and high water.</figcaption></figure>` : "";
  return (
    `<p>High water, low water and the numbers in between: a table gives the time and the height of each tide, in metres above chart datum.</p>` +
    `<table><caption>Tides for a spring week</caption>` +
    `<thead><tr><th scope="col">Day</th><th scope="col">High water</th><th scope="col">Low water</th><th scope="col">Range (m)</th></tr></thead>` +
    `<tbody><tr><th scope="row">Monday</th><td>06:12</td><td>12:25</td><td>4.1</td></tr>` +
    `<tr><th scope="row">Tuesday</th><td>06:58</td><td>13:10</td><td>4.4</td></tr>` +
    `<tr><th scope="row">Wednesday</th><td>07:41</td><td>13:52</td><td>4.6</td></tr></tbody>` +
    `<tfoot><tr><td colspan="4">Times are local; add an hour in summer.</td></tr></tfoot></table>` +
    gallery +
    `<h2>Watch the tide come in</h2>` +
    `<figure data-embed="https://www.youtube.com/embed/aqz-KE-bpKQ"><figcaption>A flood tide filmed over six hours.</figcaption></figure>`
  );
}
