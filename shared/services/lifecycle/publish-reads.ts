import type { EntryRow, VersionRow } from "../../db/database";
import { readTogether } from "../../db/read-together";
import { toModel } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import { linkedTargetModelsQuery, linkedTargetsQuery } from "./linked-targets";
import type { PublishedTarget } from "./relation-targets";
import { dependentSourcesQuery, type DependentSource } from "./rebuild-dependents";
import { versionLinksQuery, type SnapshotReads } from "./snapshot";
import { claimHolderQuery, type Claim } from "./unique-values";

/**
 * What a publish reads once its entry and draft are known, in one D1 batch: each read's key is
 * the entry, the draft or a subquery on them, never a value another read answers. A publish paid
 * one round trip per read (address, group, links, dependents, served slug, each claim).
 */
export interface PublishReads {
  /** The published item served at the draft's address (model, language, slug); none for a null slug. */
  addressHolder: { instance_id: string } | undefined;
  /** Every language of the entry's translation group (its first publication). */
  group: EntryRow[];
  /** The draft's links, their targets' published rows and those rows' models (`renderSnapshot`). */
  snapshot: SnapshotReads;
  /** Published items linking to the group (`rebuildDependents`). */
  dependents: DependentSource[];
  /** This language's published row, if it is served now (its slug before the publish). */
  served: { slug: string | null } | undefined;
  /** Per claim, in order: the entry of another group holding it (`claimHolderQuery`). */
  claimHolders: ({ instance_id: string; lang: string } | undefined)[];
}

export async function readForPublish(ctx: LifecycleContext, entry: EntryRow, version: VersionRow, claims: readonly Claim[]): Promise<PublishReads> {
  const { db } = ctx;
  const siteId = ctx.site.id;
  const published = db.selectFrom("published_items").where("site_id", "=", siteId);
  const [address, group, links, targetRows, targetModels, dependents, served, ...claimHolders] = await readTogether(ctx.d1, [
    // `slug = NULL` holds for no row: a single without an address has no holder.
    published.select("instance_id").where("model_id", "=", entry.model_id).where("lang", "=", entry.lang).where("slug", "=", version.slug).compile(),
    db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("translation_group_id", "=", entry.translation_group_id).compile(),
    versionLinksQuery(ctx, version.id).compile(),
    linkedTargetsQuery<PublishedTarget>(ctx, [version.id]),
    linkedTargetModelsQuery(ctx, [version.id]),
    dependentSourcesQuery(ctx, entry.translation_group_id).compile(),
    published.select("slug").where("instance_id", "=", entry.instance_id).compile(),
    ...claims.map((claim) => claimHolderQuery(ctx, entry.model_id, entry.translation_group_id, claim).compile()),
  ] as const);
  return {
    addressHolder: version.slug === null ? undefined : address[0],
    group,
    snapshot: { links, targets: targetRows, targetModels: targetModels.map(toModel) },
    dependents,
    served: served[0],
    claimHolders: claimHolders.map((rows) => rows[0]),
  };
}

/** Published content of other items whose published version links to the group (an unpublish a plugin asks may refuse over them). */
export function publishedDependentsQuery(ctx: LifecycleContext, groupId: string) {
  return ctx.db
    .selectFrom("relation_links")
    .innerJoin("entries", (join) =>
      join.onRef("entries.published_version_id", "=", "relation_links.version_id").onRef("entries.site_id", "=", "relation_links.site_id"),
    )
    .select(["entries.instance_id", "entries.model_id", "entries.lang"])
    .distinct()
    .where("relation_links.site_id", "=", ctx.site.id)
    .where("relation_links.target_group_id", "=", groupId)
    .where("entries.translation_group_id", "!=", groupId);
}

/** What an unpublish reads once its entry is known, in one D1 batch (the counterpart of `readForPublish`). */
export interface UnpublishReads {
  /** `publishedDependentsQuery`'s rows, read only when the unpublish refuses over dependents. */
  refusingDependents: { instance_id: string; model_id: string; lang: string }[] | undefined;
  /** Published items linking to the group (`rebuildDependents`). */
  dependents: DependentSource[];
  /** Whether another language of the group stays served. */
  otherLanguageServed: boolean;
}

export async function readForUnpublish(ctx: LifecycleContext, entry: EntryRow, refuseIfDependents: boolean): Promise<UnpublishReads> {
  const [dependents, otherServed, ...refusing] = await readTogether(ctx.d1, [
    dependentSourcesQuery(ctx, entry.translation_group_id).compile(),
    ctx.db
      .selectFrom("published_items")
      .select("instance_id")
      .where("site_id", "=", ctx.site.id)
      .where("translation_group_id", "=", entry.translation_group_id)
      .where("instance_id", "!=", entry.instance_id)
      .compile(),
    ...(refuseIfDependents ? [publishedDependentsQuery(ctx, entry.translation_group_id).compile()] : []),
  ] as const);
  return { refusingDependents: refusing[0], dependents, otherLanguageServed: otherServed.length > 0 };
}
