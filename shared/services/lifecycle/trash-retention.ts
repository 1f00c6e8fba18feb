import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS } from "../../auth/permissions";
import { isoAt } from "../../clock";
import type { SiteSettings } from "../../content/site-settings";
import type { Actor, LifecycleContext, WritePlan } from "./context";
import { purgeEntry, type PurgeAnswer } from "./trash";

/** Spec 3, Limits: "Trash retention: 30 days". The site's `retention.trash_days` may only shorten it. */
export const TRASH_RETENTION_DAYS = 30;
/** Items purged per alarm run at most; more wait for the next run, moments later. */
export const TRASH_PURGE_BATCH = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Who purges expired Trash: the site itself, with the right to delete anything (audited as `system` / `trash_retention`). */
export const RETENTION_ACTOR: Actor = {
  kind: "system",
  id: "trash_retention",
  permissions: { models: { "*": [...ALL_MODEL_OPERATIONS] }, system: [...ALL_SYSTEM_PERMISSIONS] },
};

/** How long the site keeps Trash: 30 days, or its `trash_days` when shorter. */
export function trashWindowMs(settings: Pick<SiteSettings, "retention">): number {
  const days = Math.min(TRASH_RETENTION_DAYS, settings.retention?.trash_days ?? TRASH_RETENTION_DAYS);
  return Math.max(1, days) * DAY_MS;
}

/** One item (translation group) with Trash content older than the window, by one of its languages. */
export interface ExpiredTrash {
  instance_id: string;
  translation_group_id: string;
}

/**
 * What the site's Trash holds past its window (at most TRASH_PURGE_BATCH items, oldest first), and
 * when the oldest remaining language expires (null: Trash holds nothing else).
 */
export async function findExpiredTrash(ctx: Pick<LifecycleContext, "d1" | "site">, now: number): Promise<{ due: ExpiredTrash[]; more: boolean; nextDueAt: number | null }> {
  const cutoff = isoAt(now - trashWindowMs(ctx.site.settings));
  const rows = await ctx.d1
    .prepare(
      `SELECT instance_id, translation_group_id FROM entries WHERE site_id = ? AND trashed_at IS NOT NULL AND trashed_at <= ?
       ORDER BY trashed_at, instance_id LIMIT ?`,
    )
    .bind(ctx.site.id, cutoff, TRASH_PURGE_BATCH * 4)
    .all<ExpiredTrash>();
  const byGroup = new Map<string, ExpiredTrash>();
  for (const row of rows.results) if (!byGroup.has(row.translation_group_id)) byGroup.set(row.translation_group_id, row);
  const due = [...byGroup.values()].slice(0, TRASH_PURGE_BATCH);
  const more = byGroup.size > TRASH_PURGE_BATCH || rows.results.length === TRASH_PURGE_BATCH * 4;
  const next = await ctx.d1
    .prepare("SELECT MIN(trashed_at) AS t FROM entries WHERE site_id = ? AND trashed_at IS NOT NULL AND trashed_at > ?")
    .bind(ctx.site.id, cutoff)
    .first<{ t: string | null }>();
  const nextDueAt = next?.t ? Date.parse(next.t) + trashWindowMs(ctx.site.settings) : null;
  return { due, more, nextDueAt };
}

export interface RetentionPurgeInput {
  instance_id: string;
  /** Only Trash content moved there at or before this time goes (a language trashed later stays). */
  trashed_before: string;
}

/**
 * The permanent deletion of expired Trash: the ordinary purge (relation rows of either side,
 * media usage, unique claims, relation index, versions), limited to the languages past the window,
 * audited and announced as retention.
 */
export async function purgeExpiredTrash(ctx: LifecycleContext, input: RetentionPurgeInput): Promise<WritePlan<PurgeAnswer>> {
  const plan = await purgeEntry(ctx, { instance_id: input.instance_id, trashed_before: input.trashed_before });
  return {
    ...plan,
    events: plan.events.map((e) => ({ ...e, payload: { ...e.payload, reason: "trash_retention" } })),
    audit: { ...plan.audit, details: { ...plan.audit.details, reason: "trash_retention" } },
  };
}
