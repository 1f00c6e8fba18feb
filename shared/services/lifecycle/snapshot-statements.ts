// The rows a published item is stored as: its published row, filter rows, media pins and search
// documents, written (or withdrawn) in the publishing write's batch.
import type { CompiledQuery } from "kysely";
import type { EntryRow, VersionRow } from "../../db/database";
import type { Model } from "../../repositories/model-repository";
import { indexStatements, unindexStatements } from "../../search/index-statements";
import type { LifecycleContext } from "./context";
import { entryChanged, entryWithdrawn, mediaChanged, pinnedMediaChanged } from "../sync/change-log";
import type { MediaPin, RenderedSnapshot } from "./snapshot";
import { servedGroupStatements } from "./served-view";

/** Items outside the model's manual order sort after every placed item. */
export const UNPLACED = 2147483647;

/** Position of a translation group in its model's manual order (shared by all languages). */
export function manualPosition(model: Model, groupId: string): number {
  const index = model.manual_order.indexOf(groupId);
  return index === -1 ? UNPLACED : index;
}

/** Statements replacing an instance's published row and its filter index rows. */
export function snapshotStatements(
  ctx: LifecycleContext,
  entry: EntryRow,
  version: VersionRow,
  rendered: RenderedSnapshot,
  model: Model,
): CompiledQuery[] {
  const siteId = ctx.site.id;
  // The served sort key and the stored one are one value, so a client can check the order.
  const sortAt = rendered.item.first_published_at;
  const body = JSON.stringify(rendered.item);
  const statements: CompiledQuery[] = [
    ctx.db.deleteFrom("published_items").where("site_id", "=", siteId).where("instance_id", "=", entry.instance_id).compile(),
    ctx.db
      .insertInto("published_items")
      .values({
        site_id: siteId,
        instance_id: entry.instance_id,
        model_id: entry.model_id,
        translation_group_id: entry.translation_group_id,
        lang: entry.lang,
        slug: version.slug,
        label: version.label,
        version_id: version.id,
        published_at: rendered.item.published_at,
        sort_at: sortAt,
        manual_position: manualPosition(model, entry.translation_group_id),
        body,
        mentions: JSON.stringify(rendered.mentions),
      })
      .compile(),
    // The sync log's row for this body, in the same batch (docs/sync.md).
    entryChanged(ctx, entry, rendered.item, body),
    ctx.db.deleteFrom("published_relations").where("site_id", "=", siteId).where("instance_id", "=", entry.instance_id).compile(),
  ];
  const seen = new Set<string>();
  for (const row of rendered.relationRows) {
    const key = `${row.field}|${row.target_group_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    statements.push(
      ctx.db
        .insertInto("published_relations")
        .values({ site_id: siteId, instance_id: entry.instance_id, model_id: entry.model_id, lang: entry.lang, translation_group_id: entry.translation_group_id, sort_at: sortAt, ...row })
        .compile(),
    );
  }
  // The served lists of every language this instance can serve, from the rows just written.
  statements.push(...servedGroupStatements(ctx.db, ctx.site, entry.translation_group_id, entry.lang));
  statements.push(...pinStatements(ctx, entry.instance_id, rendered.mediaPins));
  statements.push(...indexStatements(ctx, entry, version.id, rendered.item, model));
  return statements;
}

/**
 * Statements replacing an instance's media pins (`published_media`): written and cleared wherever its
 * `published_items` row is, in the same batch, so public delivery serves exactly what is published.
 */
function pinStatements(ctx: LifecycleContext, instanceId: string, pins: readonly MediaPin[]): CompiledQuery[] {
  const statements: CompiledQuery[] = [
    // Media pinned before and after both change for sync readers (docs/sync.md): logged around the rewrite.
    pinnedMediaChanged(ctx, instanceId),
    ctx.db.deleteFrom("published_media").where("site_id", "=", ctx.site.id).where("instance_id", "=", instanceId).compile(),
    ...mediaChanged(ctx, pins.map((p) => p.media_id)),
  ];
  const seen = new Set<string>();
  for (const pin of pins) {
    if (seen.has(pin.object_key)) continue;
    seen.add(pin.object_key);
    statements.push(ctx.db.insertInto("published_media").values({ site_id: ctx.site.id, instance_id: instanceId, ...pin }).compile());
  }
  return statements;
}

/** Statements withdrawing an instance from the public API. */
export function withdrawStatements(ctx: LifecycleContext, entry: Pick<EntryRow, "instance_id" | "translation_group_id" | "lang">): CompiledQuery[] {
  const instanceId = entry.instance_id;
  return [
    // Before the row goes: a `deleted` sync row names what was served (docs/sync.md).
    entryWithdrawn(ctx, instanceId),
    ctx.db.deleteFrom("published_items").where("site_id", "=", ctx.site.id).where("instance_id", "=", instanceId).compile(),
    ctx.db.deleteFrom("published_relations").where("site_id", "=", ctx.site.id).where("instance_id", "=", instanceId).compile(),
    // Its languages' lists serve the group's next chain language, or nothing.
    ...servedGroupStatements(ctx.db, ctx.site, entry.translation_group_id, entry.lang),
    ...pinStatements(ctx, instanceId, []),
    ...unindexStatements(ctx, instanceId),
  ];
}
