import { titleField } from "../../content/validate-fields";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";

/** A published instance of a translation group, as relation targets resolve to. */
export interface PublishedTarget {
  instance_id: string;
  group_id: string;
  model_id: string;
  lang: string;
  slug: string | null;
  label: string | null;
}

/**
 * Publication changes not yet committed: resolution sees them as if they were, so a batch that
 * publishes or withdraws an item renders its dependents against the new state.
 */
export type PendingTargets = Map<string, PublishedTarget | null>; // key: `${group}|${lang}`

export const pendingKey = (groupId: string, lang: string) => `${groupId}|${lang}`;

/**
 * Published instances of the given groups, with pending changes applied. `stored`: the groups'
 * published rows already read (lifecycle/publish-reads.ts), taken instead of a read.
 */
export async function publishedTargets(
  ctx: LifecycleContext,
  groupIds: readonly string[],
  pending: PendingTargets,
  stored?: readonly PublishedTarget[],
): Promise<PublishedTarget[]> {
  const rows =
    groupIds.length === 0
      ? []
      : stored ?? await ctx.db
          .selectFrom("published_items")
          .select(["instance_id", "translation_group_id as group_id", "model_id", "lang", "slug", "label"])
          .where("site_id", "=", ctx.site.id)
          .where("translation_group_id", "in", [...groupIds])
          .execute();
  const byKey = new Map<string, PublishedTarget>(rows.map((r) => [pendingKey(r.group_id, r.lang), r]));
  for (const [key, value] of pending) {
    if (!groupIds.includes(key.split("|")[0] ?? "")) continue;
    if (value === null) byKey.delete(key);
    else byKey.set(key, value);
  }
  return [...byKey.values()];
}

/** The instance of a group a reader in `lang` is sent to: same language, site default, then any. */
export function pickTarget(targets: readonly PublishedTarget[], groupId: string, lang: string, defaultLang: string): PublishedTarget | undefined {
  const ofGroup = targets.filter((t) => t.group_id === groupId);
  return ofGroup.find((t) => t.lang === lang) ?? ofGroup.find((t) => t.lang === defaultLang) ?? ofGroup[0];
}

/**
 * Whether an item of `source` may name an item of `target` in its snapshot (docs/private-data.md).
 * A snapshot is one body for every reader of its model, so it names only what every such reader
 * may read: items of public models, and items of its own model (a private model's readers hold a
 * token for that very model). A link to another private model's item is left out of the item, its
 * filter index, search and everything built from them.
 */
export function linkServed(source: Pick<Model, "id">, target: Pick<Model, "id" | "is_public">): boolean {
  return target.is_public || target.id === source.id;
}

/**
 * The `display` of a link: the target's label, which is its title field's value, so it is null when
 * that field is private (a private field never leaves the service through a public answer).
 */
export function servedDisplay(target: Pick<Model, "fields">, label: string | null): string | null {
  return titleField(target.fields)?.private ? null : label;
}

/**
 * What of a model its dependents' snapshots show (slug, visibility, title privacy): when it
 * changes, every item linking to the model's items is rendered again.
 */
export function targetShape(model: Model): string {
  return JSON.stringify([model.slug, model.is_public, titleField(model.fields)?.private ?? false]);
}
