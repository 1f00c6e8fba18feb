import type { CompiledQuery } from "kysely";
import { sql } from "kysely";
import { isoAt } from "../../clock";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * Rows of the sync change log (migration 0043, docs/sync.md), built as statements for the batch of
 * the write that makes the change: a change and its row commit together or not at all.
 */

/** Cursors older than this answer `reset: true` (the documented retention window). */
export const SYNC_RETENTION_DAYS = 30;
/** Rows are kept a day longer than cursors are honoured, so an honoured cursor never meets a pruned gap. */
export const SYNC_PRUNE_AFTER_DAYS = SYNC_RETENTION_DAYS + 1;

type LogContext = Pick<LifecycleContext, "db" | "site" | "clock">;

const now = (ctx: LogContext) => isoAt(ctx.clock.now());

/** An item language served from now on with `body` (publish, re-render). */
export function entryChanged(ctx: LogContext, entry: { instance_id: string; model_id: string; lang: string }, item: { model: string }, body: string): CompiledQuery {
  return ctx.db
    .insertInto("sync_changes")
    .values({ site_id: ctx.site.id, kind: "entry", ref_id: entry.instance_id, model_id: entry.model_id, model_slug: item.model, lang: entry.lang, body, changed_at: now(ctx) })
    .compile();
}

/**
 * An item language leaving the public API: a `deleted` row only when it is served now (read from
 * its published row inside the batch, so an entry that was never published logs nothing). Must
 * run before the statements deleting the published row.
 */
export function entryWithdrawn(ctx: LogContext, instanceId: string): CompiledQuery {
  return sql`INSERT INTO sync_changes (site_id, kind, ref_id, model_id, model_slug, lang, body, changed_at)
    SELECT site_id, 'deleted', instance_id, model_id, json_extract(body, '$.model'), lang, NULL, ${now(ctx)}
    FROM published_items WHERE site_id = ${ctx.site.id} AND instance_id = ${instanceId}`.compile(ctx.db);
}

/** The media items an item language pins now: each gets a `media` row (rendered at read time). Before the pins change. */
export function pinnedMediaChanged(ctx: LogContext, instanceId: string): CompiledQuery {
  return sql`INSERT INTO sync_changes (site_id, kind, ref_id, model_id, model_slug, lang, body, changed_at)
    SELECT DISTINCT site_id, 'media', media_id, NULL, NULL, NULL, NULL, ${now(ctx)}
    FROM published_media WHERE site_id = ${ctx.site.id} AND instance_id = ${instanceId}`.compile(ctx.db);
}

/** Media items about to be pinned (after a publish writes its pins). */
export function mediaChanged(ctx: LogContext, mediaIds: readonly string[]): CompiledQuery[] {
  return [...new Set(mediaIds)].map((id) =>
    ctx.db.insertInto("sync_changes").values({ site_id: ctx.site.id, kind: "media", ref_id: id, model_id: null, model_slug: null, lang: null, body: null, changed_at: now(ctx) }).compile(),
  );
}

/**
 * A change the log cannot express item by item (a model's visibility, fields or slug; a language
 * removed): every cursor from before it answers `reset: true`. `reason` is kept for operators.
 */
export function syncReset(ctx: LogContext, reason: string): CompiledQuery {
  return ctx.db
    .insertInto("sync_changes")
    .values({ site_id: ctx.site.id, kind: "reset", ref_id: reason, model_id: null, model_slug: null, lang: null, body: null, changed_at: now(ctx) })
    .compile();
}

/** Drops the site's rows older than the prune window (run with the site's publishing writes). */
export function pruneSyncLog(ctx: LogContext): CompiledQuery {
  const cutoff = isoAt(ctx.clock.now() - SYNC_PRUNE_AFTER_DAYS * 86_400_000);
  return ctx.db.deleteFrom("sync_changes").where("site_id", "=", ctx.site.id).where("changed_at", "<", cutoff).compile();
}
