import type { StepContext } from "../job-step";
import type { ImportJobRow } from "../jobs";
import { firstRow, rows } from "../statements";
import { mediaOfAttachment } from "./attachments";
import { convertContent } from "./content";
import { linkContentImages } from "./content-images";
import type { FieldPlan, MappedKind } from "./mapping";
import type { StagedRow } from "./write-grouping";
import type { WxrPost, WxrTerm } from "./wxr-items";

/**
 * The field values of a staged WordPress item in its mapped model (write-step.ts): its title,
 * converted content, excerpt, date, featured image, and its parent, categories and tags as the
 * entries already written for them.
 */

/** WordPress dates are `YYYY-MM-DD HH:MM:SS` in UTC (`post_date_gmt`); `0000-00-00 00:00:00` for none. */
export function gmtDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m || m[1] === "0000") return null;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * A published item's first publication from its `post_date_gmt`: kept when it is a date not after
 * `now`; a future one (`9999-12-31`: the post would head every newest-first list for ever) or one
 * that does not parse is not kept, and says so (`reason`). No date (empty, WordPress's
 * `0000-00-00 00:00:00`) is simply none. Without one the entry's first publication is the import's.
 */
export function firstPublication(value: string, nowMs: number): { at: string | null; notKept?: { post_date_gmt: string; reason: "future" | "invalid" } } {
  if (value.trim() === "" || value.startsWith("0000-00-00")) return { at: null };
  const at = gmtDate(value);
  if (at === null) return { at: null, notKept: { post_date_gmt: value, reason: "invalid" } };
  if (Date.parse(at) > nowMs) return { at: null, notKept: { post_date_gmt: value, reason: "future" } };
  return { at };
}

/** The created entry of an item of the file (a category by its slug, a page by its post id), if any. */
async function createdOf(ctx: StepContext, jobId: string, kind: string, sourceKey: string): Promise<string | undefined> {
  const row = await firstRow<{ instance_id: string }>(ctx.d1, "SELECT instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND source_key = ? AND instance_id IS NOT NULL", [ctx.site.id, jobId, kind, sourceKey]);
  return row?.instance_id;
}

async function createdMany(ctx: StepContext, jobId: string, kind: string, keys: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += 90) {
    const part = keys.slice(i, i + 90);
    if (part.length === 0) continue;
    const found = await rows<{ source_key: string; instance_id: string }>(
      ctx.d1,
      `SELECT source_key, instance_id FROM import_items WHERE site_id = ? AND job_id = ? AND kind = ? AND instance_id IS NOT NULL AND source_key IN (${part.map(() => "?").join(",")})`,
      [ctx.site.id, jobId, kind, ...part],
    );
    const byKey = new Map(found.map((f) => [f.source_key, f.instance_id]));
    for (const k of part) {
      const id = byKey.get(k);
      if (id) out.push(id);
    }
  }
  return out;
}

/** The field values of one item in its model, with what its content dropped. */
export async function valuesOf(ctx: StepContext, job: ImportJobRow, item: StagedRow, kind: MappedKind, plan: FieldPlan): Promise<{ fields: Record<string, unknown>; dropped: string[] }> {
  const fields: Record<string, unknown> = {};
  if (kind === "category" || kind === "tag") {
    const term = JSON.parse(item.payload) as WxrTerm;
    if (plan.title) fields[plan.title] = term.name;
    if (plan.excerpt && term.description) fields[plan.excerpt] = term.description;
    if (plan.parent && term.parent) {
      const parent = await createdOf(ctx, job.id, kind, term.parent);
      if (parent) fields[plan.parent] = parent;
    }
    return { fields, dropped: [] };
  }
  const post = JSON.parse(item.payload) as WxrPost;
  if (plan.title) fields[plan.title] = post.title;
  let dropped: string[] = [];
  if (plan.body) {
    const withImages = await linkContentImages(ctx, job.id, post.content);
    const converted = convertContent(withImages.content);
    fields[plan.body] = converted.html;
    dropped = converted.dropped;
  }
  if (plan.excerpt && post.excerpt) fields[plan.excerpt] = post.excerpt;
  // A term and its Polylang translations may be one entry (translations.ts): listed once.
  if (plan.categories && post.categories.length > 0) fields[plan.categories] = [...new Set(await createdMany(ctx, job.id, "category", post.categories))];
  if (plan.tags && post.tags.length > 0) fields[plan.tags] = [...new Set(await createdMany(ctx, job.id, "tag", post.tags))];
  if (plan.parent && post.post_parent && post.post_parent !== "0") {
    const parent = await createdOf(ctx, job.id, kind, post.post_parent);
    if (parent) fields[plan.parent] = parent;
  }
  const date = gmtDate(post.post_date_gmt);
  if (plan.date && date) fields[plan.date] = date;
  if (plan.image && post.thumbnail_id) {
    const image = await mediaOfAttachment(ctx, job.id, post.thumbnail_id);
    if (image) fields[plan.image] = image;
  }
  return { fields, dropped };
}
