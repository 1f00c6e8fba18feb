/**
 * The demo's relations (docs/content-rules-relations.md): a parent hierarchy of categories and
 * ordered many-to-many "related articles", written through the lifecycle like every demo write.
 * Each changed item is published again in every language (a shared list is copied to all of them).
 */
import type { Model } from "../../shared/repositories/model-repository";
import { entryRepository } from "../../shared/repositories/entry-repository";
import { publishEntry, saveDraft, type LifecycleContext } from "../../shared/services/lifecycle";
import { replaceModelDefinition } from "../../shared/services/models/apply-model";
import type { WritePlan } from "../../shared/services/lifecycle";

type Apply = <T>(ctx: LifecycleContext, plan: Promise<WritePlan<T>>) => Promise<T>;

/** Category children: [child key's instance, parent key's instance] pairs are given by the caller. */
export const CATEGORY_PARENTS = [
  ["photography", "travel"],
  ["ecology", "coast"],
] as const;

/** Adds the article's ordered `related` field (a many_to_many link to articles). */
export async function addRelatedField(ctx: LifecycleContext, apply: Apply, article: Model): Promise<void> {
  await apply(
    ctx,
    replaceModelDefinition(ctx, {
      model_id: article.id,
      expected_revision: article.revision,
      definition: { fields: [...article.fields, { key: "related", label: "Related articles", type: "relation", relation: "many_to_many", multiple: true, targets: [article.id], validation: { max_items: 4 } }] },
    }),
  );
}

/** Saves `fields` on an item's `instanceId` and publishes every language of it whose draft changed. */
async function saveAndPublish(ctx: LifecycleContext, apply: Apply, instanceId: string, fields: Record<string, unknown>): Promise<void> {
  const entries = entryRepository(ctx.db, ctx.scope);
  const entry = await entries.find(instanceId);
  if (!entry?.current_version_id) throw new Error(`demo: no entry ${instanceId}`);
  await apply(ctx, saveDraft(ctx, { instance_id: instanceId, expected_version_id: entry.current_version_id, fields }));
  for (const language of await entries.findGroup(entry.translation_group_id)) {
    if (language.published_version_id !== null && language.current_version_id !== language.published_version_id) {
      await apply(ctx, publishEntry(ctx, { instance_id: language.instance_id }));
    }
  }
}

/** Sets each child category's parent (the hierarchy field `parent`). */
export async function seedCategoryParents(ctx: LifecycleContext, apply: Apply, categoryIds: ReadonlyMap<string, string>): Promise<void> {
  for (const [child, parent] of CATEGORY_PARENTS) {
    const childId = categoryIds.get(child);
    const parentId = categoryIds.get(parent);
    if (childId && parentId) await saveAndPublish(ctx, apply, childId, { parent: parentId });
  }
}

/**
 * Links each of the first published articles to the two that follow it, in order, written with
 * connect and positions: the next one is connected, then the one after is placed before it.
 */
export async function seedRelatedArticles(ctx: LifecycleContext, apply: Apply, articleIds: readonly string[]): Promise<number> {
  let linked = 0;
  for (let i = 0; i + 2 < articleIds.length && i < 8; i += 1) {
    const [next, after] = [articleIds[i + 1], articleIds[i + 2]];
    if (!next || !after || !articleIds[i]) continue;
    await saveAndPublish(ctx, apply, articleIds[i] as string, { related: { connect: [next, { id: after, position: { before: next } }] } });
    linked += 1;
  }
  return linked;
}
