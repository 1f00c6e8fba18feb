/**
 * Single-entry models (spec 3, "Single-entry model"; docs/content-rules-reverse-single-unique.md): a
 * `single` model holds at most one item (one translation group, any number of its languages), Trash
 * counted. The pre-checks run in the site's object like every write; a guard in the batch holds the
 * rule even against a write the object did not serialise.
 */
import type { CompiledQuery } from "kysely";
import { guard } from "../../db/batch";
import { AppError } from "../../errors";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import { revealEntry } from "./load";

/** Refuses a new item in a single model that already has one (409 single_entry_exists, naming it when readable). */
export async function requireSingleFree(ctx: LifecycleContext, model: Model): Promise<void> {
  if (model.kind !== "single") return;
  const existing = await ctx.db
    .selectFrom("entries")
    .select(["instance_id", "model_id", "lang"])
    .where("site_id", "=", ctx.site.id)
    .where("model_id", "=", model.id)
    .executeTakeFirst();
  if (existing) {
    const details = revealEntry(ctx, existing);
    throw new AppError("single_entry_exists", `Model "${model.slug}" is single and already has an entry.`, details.instance_id ? details : undefined);
  }
}

/** A guard aborting a new item's batch when the single model got an item meanwhile. */
export function singleFreeGuard(ctx: LifecycleContext, model: Model): CompiledQuery[] {
  if (model.kind !== "single") return [];
  return [guard(ctx.db, "single_entry_exists", "NOT EXISTS (SELECT 1 FROM entries WHERE site_id = ? AND model_id = ?)", [ctx.site.id, model.id])];
}

/**
 * A model apply turning a collection into a single model: only while it holds at most one item,
 * Trash counted (409 single_entry_conflict with the count), with a guard in the apply's batch.
 */
export async function singleKindChange(ctx: LifecycleContext, before: Model, after: Pick<Model, "kind">): Promise<CompiledQuery[]> {
  if (before.kind === after.kind || after.kind !== "single") return [];
  const row = await ctx.d1
    .prepare("SELECT count(DISTINCT translation_group_id) AS n FROM entries WHERE site_id = ? AND model_id = ?")
    .bind(ctx.site.id, before.id)
    .first<{ n: number }>();
  const items = row?.n ?? 0;
  if (items > 1) {
    throw new AppError("single_entry_conflict", `Model "${before.slug}" has ${items} items (Trash included); a single model holds at most one.`, {
      items,
      suggestion: "Delete the other items for good (Trash counts) first, then make the model single.",
    });
  }
  return [guard(ctx.db, "single_entry_conflict", "(SELECT count(DISTINCT translation_group_id) FROM entries WHERE site_id = ? AND model_id = ?) <= 1", [ctx.site.id, before.id])];
}
