import { sql, type RawBuilder } from "kysely";
import type { LifecycleContext } from "./context";

/**
 * `site_id` as a term no index serves, where a key (a version id, a model id) finds the rows: without
 * table statistics SQLite otherwise walks the site's rows by a `site_id` index.
 */
export const unindexedSite = sql<string>`+site_id`;

/**
 * `SELECT <columns>` of the published rows of the groups the given versions link to, as
 * `publishedTargets` reads them for the links' groups. The group index is named: with the groups in
 * a subquery SQLite would otherwise walk every published row of the site; with it, the rows come in
 * the same order (group, language) as the read by a list of groups.
 */
export function linkedTargets(ctx: LifecycleContext, versionIds: readonly string[]) {
  const linkedGroups = ctx.db.selectFrom("relation_links").select("target_group_id").where(unindexedSite, "=", ctx.site.id).where("version_id", "in", [...versionIds]);
  return <R>(columns: RawBuilder<unknown>) =>
    sql<R>`SELECT ${columns} FROM published_items INDEXED BY idx_published_group WHERE site_id = ${ctx.site.id} AND translation_group_id IN (${linkedGroups})`;
}

/** The published rows of the groups the versions link to, as `PublishedTarget`s. */
export function linkedTargetsQuery<R>(ctx: LifecycleContext, versionIds: readonly string[]) {
  return linkedTargets(ctx, versionIds)<R>(sql`instance_id, translation_group_id AS group_id, model_id, lang, slug, label`).compile(ctx.db);
}

/** The models of those published rows. */
export function linkedTargetModelsQuery(ctx: LifecycleContext, versionIds: readonly string[]) {
  return ctx.db
    .selectFrom("models")
    .selectAll()
    .where(unindexedSite, "=", ctx.site.id)
    .where("id", "in", sql<string>`(${linkedTargets(ctx, versionIds)(sql`model_id`)})`)
    .compile();
}
