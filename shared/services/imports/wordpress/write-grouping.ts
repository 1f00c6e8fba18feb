import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { firstRow } from "../statements";
import { attachmentsOf, contentImages } from "./content-images";
import { termGroupsStaged } from "./translations";
import type { WxrPost, WxrTerm } from "./wxr-items";

/**
 * Which staged items a WordPress write step takes together, and in what order (write-step.ts):
 * what an item reads — its parent, its featured and content images, its translation group — is
 * written before it, and only items that read nothing the step writes share a batch.
 */

/** A staged item of the file, as a write step reads it. */
export interface StagedRow {
  seq: number;
  kind: string;
  source_key: string;
  payload: string;
}

/** How many ancestors a step writes ahead of an item whose parent comes later in the file. */
const PARENT_CHAIN_MAX = 5;

/**
 * The step's items with each one's unwritten parent (a page's `post_parent`, a category's
 * `parent`) placed before it, ancestors first: WordPress may list a child page before its parent.
 */
export async function withParentsFirst(ctx: StepContext, job: ImportJobRow, items: StagedRow[]): Promise<StagedRow[]> {
  const out: StagedRow[] = [];
  const seen = new Set<number>();
  for (const item of items) {
    const chain: StagedRow[] = [];
    let current: StagedRow = item;
    for (let depth = 0; depth < PARENT_CHAIN_MAX; depth++) {
      const payload = JSON.parse(current.payload) as Partial<WxrPost & WxrTerm>;
      // A post's or page's featured image is an attachment written before it, like a parent.
      const image = (current.kind === "post" || current.kind === "page") && payload.thumbnail_id ? payload.thumbnail_id : undefined;
      if (image && depth === 0) {
        const attachment = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'attachment' AND source_key = ? AND state = 'staged'", [ctx.site.id, job.id, image]);
        if (attachment && !seen.has(attachment.seq)) chain.unshift(attachment);
      }
      // So are the attachments of the images inside its content (content-images.ts).
      if ((current.kind === "post" || current.kind === "page") && depth === 0 && typeof payload.content === "string") {
        const images = contentImages(payload.content);
        const attachments = images.length > 0 ? await attachmentsOf(ctx, job.id, images) : undefined;
        for (const img of images) {
          const found = attachments?.of(img);
          if (!found || found.state !== "staged" || seen.has(found.seq) || chain.some((c) => c.seq === found.seq)) continue;
          const row = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND seq = ?", [ctx.site.id, job.id, found.seq]);
          if (row) chain.unshift(row);
        }
      }
      const parentKey = current.kind === "page" ? payload.post_parent : current.kind === "category" ? payload.parent : undefined;
      if (!parentKey || parentKey === "0") break;
      const parent = await firstRow<StagedRow>(ctx.d1, "SELECT seq, kind, source_key, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND source_key = ? AND state = 'staged'", [ctx.site.id, job.id, current.kind, parentKey]);
      if (!parent || seen.has(parent.seq) || parent.seq === item.seq) break;
      chain.unshift(parent);
      current = parent;
    }
    for (const row of [...chain, item]) {
      if (seen.has(row.seq)) continue;
      seen.add(row.seq);
      out.push(row);
    }
  }
  return out;
}

/**
 * Whether an item may be written in one batch with the other items of its kind around it: it reads
 * nothing another item of the step writes — no parent, no translation group, no featured or content
 * image (those are looked up in the rows their own writes commit). Any other item is written alone,
 * after the items before it are committed (and published), as a step of one.
 */
export async function writtenTogether(ctx: StepContext, job: ImportJobRow, item: StagedRow, payload: WxrPost & WxrTerm): Promise<boolean> {
  if (item.kind === "post" || item.kind === "page") {
    const noParent = !payload.post_parent || payload.post_parent === "0";
    return noParent && !payload.translation_group && !payload.thumbnail_id && contentImages(payload.content ?? "").length === 0;
  }
  if (item.kind === "category" || item.kind === "tag") return !payload.parent && !(await termGroupsStaged(ctx, job));
  return false;
}
