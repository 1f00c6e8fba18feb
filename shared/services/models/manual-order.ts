import type { CompiledQuery } from "kysely";
import { MAX_MANUAL_ORDER } from "../../../schema/admin-bodies";
import { isoAt } from "../../clock";
import { AppError } from "../../errors";
import { decide, hasSystemPermission } from "../../auth/permissions";
import { chunk } from "../../db/chunks";
import { modelRepository, type Model } from "../../repositories/model-repository";
import { cacheTag, type LifecycleContext, type WritePlan } from "../lifecycle/context";
import { UNPLACED } from "../lifecycle/snapshot";

export interface ManualOrderInput {
  model_id: string;
  /** Items (translation group ids, or any instance id of the item) in the order lists show them. */
  items: string[];
}

/** At most this many items can be placed by hand; the rest follow by date (declared with the admin body). */
export { MAX_MANUAL_ORDER };

/**
 * Sets a model's manual order (`order=manual`), one order shared by all languages. Items not named
 * come after the named ones, newest first. Published rows get their position in the same batch.
 */
export async function setManualOrder(ctx: LifecycleContext, input: ManualOrderInput): Promise<WritePlan<Model>> {
  if (!hasSystemPermission(ctx.actor.permissions, "model:apply")) throw new AppError("missing_permission", "Ordering a model's items needs model:apply.");
  const model = await modelRepository(ctx.db, ctx.scope).findById(input.model_id);
  // Authorise first, then reveal: a model the person may not read is as unknown as a made-up one.
  if (!model || !decide(ctx.actor.permissions, { operation: "read", modelId: model.id }).allowed) throw new AppError("not_found", "No such model.");
  if (input.items.length > MAX_MANUAL_ORDER) throw new AppError("invalid_request", `At most ${MAX_MANUAL_ORDER} items can be placed by hand.`);
  const groups: string[] = [];
  const unknown: string[] = [];
  for (const part of chunk(input.items, 90)) {
    const rows = await ctx.db
      .selectFrom("entries")
      .select(["instance_id", "translation_group_id", "lang"])
      .where("site_id", "=", ctx.site.id)
      .where("model_id", "=", model.id)
      .where((eb) => eb.or([eb("instance_id", "in", part), eb("translation_group_id", "in", part)]))
      .execute();
    for (const id of part) {
      // Only items the person may read in some language count: naming an unreadable one answers
      // like naming nothing, so the order is no oracle for entries they cannot see.
      const row = rows.find((r) => (r.instance_id === id || r.translation_group_id === id) && decide(ctx.actor.permissions, { operation: "read", modelId: model.id, lang: r.lang }).allowed);
      if (!row) unknown.push(id);
      else if (!groups.includes(row.translation_group_id)) groups.push(row.translation_group_id);
    }
  }
  if (unknown.length > 0) throw new AppError("not_found", "Some items are not items of this model.", { ids: unknown });

  const at = isoAt(ctx.clock.now());
  // One statement whatever the count: each published row takes its group's index in the JSON list.
  const statements: CompiledQuery[] = [
    ctx.db.updateTable("models").set({ manual_order: JSON.stringify(groups), updated_at: at }).where("site_id", "=", ctx.site.id).where("id", "=", model.id).compile(),
    {
      ...ctx.db.updateTable("published_items").set({ manual_position: UNPLACED }).compile(),
      sql: `UPDATE published_items SET manual_position = COALESCE((SELECT CAST(key AS INTEGER) FROM json_each(?) WHERE value = published_items.translation_group_id), ${UNPLACED}) WHERE site_id = ? AND model_id = ?`,
      parameters: [JSON.stringify(groups), ctx.site.id, model.id],
    },
    // The served lists carry the position too (shared/services/lifecycle/served-view.ts).
    {
      ...ctx.db.updateTable("served_items").set({ manual_position: UNPLACED }).compile(),
      sql: `UPDATE served_items SET manual_position = COALESCE((SELECT CAST(key AS INTEGER) FROM json_each(?) WHERE value = served_items.translation_group_id), ${UNPLACED}) WHERE site_id = ? AND model_id = ?`,
      parameters: [JSON.stringify(groups), ctx.site.id, model.id],
    },
  ];
  return {
    statements,
    answer: { ...model, manual_order: groups, updated_at: at },
    events: [{ name: "model.manual_order_changed", payload: { model_id: model.id, items: groups.length } }],
    purgeTags: [cacheTag.list(model.id)],
    audit: { action: "model.manual_order", targetKind: "model", targetId: model.id, details: { items: groups } },
  };
}
