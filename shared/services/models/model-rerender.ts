/** Re-rendering after a model change: the published items whose served shape changed, and items of other models linking to them. */
import type { CompiledQuery } from "kysely";
import type { FieldDefinition } from "../../../schema/model-definition";
import { modelRepository, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { renderSnapshot, snapshotStatements } from "../lifecycle/snapshot";
import { targetShape } from "../lifecycle/relation-targets";

/** What the public API serves from a model: changes here need published items re-rendered. */
function servedShape(model: Model): string {
  // A component's nested fields (their keys, types, privacy) are part of what it serves.
  const nested = (fields: readonly FieldDefinition[] | undefined): unknown => fields?.map((f) => [f.key, f.type, f.private ?? false, nested(f.fields)]) ?? null;
  return JSON.stringify([model.slug, model.fields.map((f) => [f.id, f.key, f.type, f.private ?? false, nested(f.fields)])]);
}

/**
 * Re-renders the model's published items when what they serve changed, and items of other models
 * linking to them when what those show of the model changed (its slug, whether it is public, whether
 * its title is private). Answers the re-rendered groups and the models whose filtered lists change.
 */
export async function rerenderStatements(ctx: LifecycleContext, before: Model, after: Model): Promise<{ statements: CompiledQuery[]; groups: string[]; listModels: string[] }> {
  const statements: CompiledQuery[] = [];
  const groups = new Set<string>();
  const listModels = new Set<string>();
  // Rendering reads models from D1, where this batch has not changed the model yet.
  const changedModels = [after];
  const rows = await ctx.db
    .selectFrom("entries")
    .innerJoin("published_items", (join) => join.onRef("published_items.instance_id", "=", "entries.instance_id").onRef("published_items.site_id", "=", "entries.site_id"))
    .selectAll("entries")
    .select(["published_items.sort_at as sort_at"])
    .where("entries.site_id", "=", ctx.site.id)
    .where("entries.model_id", "=", after.id)
    .execute();
  for (const row of servedShape(before) === servedShape(after) ? [] : rows) {
    if (!row.published_version_id || !row.published_at) continue;
    const version = await ctx.db.selectFrom("versions").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", row.published_version_id).executeTakeFirst();
    if (!version) continue;
    const rendered = await renderSnapshot(ctx, row, version, after, { publishedAt: row.published_at, firstPublishedAt: row.sort_at, changedModels, keepPinned: true });
    statements.push(...snapshotStatements(ctx, row, version, rendered, after));
    groups.add(row.translation_group_id);
  }
  if (targetShape(before) !== targetShape(after)) {
    // Items of other models linking to this model's items show its slug, and link to them only while it is public.
    const sources = await ctx.db
      .selectFrom("published_items")
      .innerJoin("entries", (join) => join.onRef("entries.instance_id", "=", "published_items.instance_id").onRef("entries.site_id", "=", "published_items.site_id"))
      .selectAll("entries")
      .select(["published_items.sort_at as sort_at"])
      .where("published_items.site_id", "=", ctx.site.id)
      .where("published_items.model_id", "<>", after.id)
      .where(({ exists, selectFrom }) =>
        exists(
          // The published version's links, not the filter index: a link to a private model's item has no index row.
          selectFrom("relation_links as rl")
            .innerJoin("entries as t", (join) => join.onRef("t.translation_group_id", "=", "rl.target_group_id").onRef("t.site_id", "=", "rl.site_id"))
            .select("rl.version_id")
            .whereRef("rl.version_id", "=", "entries.published_version_id")
            .whereRef("rl.site_id", "=", "entries.site_id")
            .where("t.model_id", "=", after.id),
        ),
      )
      .execute();
    const models = modelRepository(ctx.db, ctx.scope);
    for (const source of sources) {
      if (!source.published_version_id || !source.published_at) continue;
      const version = await ctx.db.selectFrom("versions").selectAll().where("site_id", "=", ctx.site.id).where("id", "=", source.published_version_id).executeTakeFirst();
      const model = await models.findById(source.model_id);
      if (!version || !model) continue;
      const rendered = await renderSnapshot(ctx, source, version, model, { publishedAt: source.published_at, firstPublishedAt: source.sort_at, changedModels, keepPinned: true });
      statements.push(...snapshotStatements(ctx, source, version, rendered, model));
      groups.add(source.translation_group_id);
      // Their filter index rows change too: a filtered list that did not hold them may hold them now.
      listModels.add(model.id);
    }
  }
  return { statements, groups: [...groups], listModels: [...listModels] };
}
