import type { VersionRow } from "../../db/database";
import { chunk } from "../../db/chunks";
import { readTogether } from "../../db/read-together";
import { toModel, type Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "./context";
import { linkedTargetModelsQuery, linkedTargetsQuery, unindexedSite } from "./linked-targets";
import type { PendingTargets, PublishedTarget } from "./relation-targets";
import type { DependentSource } from "./rebuild-dependents";
import type { SnapshotReads } from "./snapshot";

/** What re-rendering one dependent reads before its media: its published version and model, and its links' reads. */
export interface DependentRead {
  version: VersionRow | undefined;
  model: Model | undefined;
  snapshot: SnapshotReads;
}

/** Ids per statement (each bound once, with the site; D1 binds at most 100). */
const VERSIONS_PER_QUERY = 90;

/**
 * The published versions and models of the dependents a publication change re-renders, with each
 * version's links, their targets' published rows and those rows' models, in one D1 batch: the
 * re-render of N dependents read these one dependent at a time (5 round trips each). Keys are the
 * dependents' rows (already read); the targets are subqueries on the links.
 */
export async function readDependents(ctx: LifecycleContext, sources: readonly DependentSource[], pending: PendingTargets): Promise<Map<DependentSource, DependentRead>> {
  const out = new Map<DependentSource, DependentRead>();
  const versionIds = [...new Set(sources.flatMap((s) => (s.published_version_id ? [s.published_version_id] : [])))];
  if (versionIds.length === 0) return out;
  // The dependents' models, and those of the targets the batch publishes (which no stored row may name yet).
  const modelIds = [...new Set([...sources.map((s) => s.model_id), ...[...pending.values()].flatMap((t) => (t ? [t.model_id] : []))])];
  const siteId = ctx.site.id;
  const parts = chunk(versionIds, VERSIONS_PER_QUERY);
  const queries = parts.flatMap((ids) => [
    ctx.db.selectFrom("versions").selectAll().where(unindexedSite, "=", siteId).where("id", "in", ids).compile(),
    ctx.db
      .selectFrom("relation_links")
      .select(["version_id", "field_id", "position", "target_group_id"])
      .where(unindexedSite, "=", siteId)
      .where("version_id", "in", ids)
      .orderBy("version_id")
      .orderBy("field_id")
      .orderBy("position")
      .compile(),
    linkedTargetsQuery<PublishedTarget>(ctx, ids),
    linkedTargetModelsQuery(ctx, ids),
  ]);
  const modelQueries = chunk(modelIds, VERSIONS_PER_QUERY).map((ids) => ctx.db.selectFrom("models").selectAll().where(unindexedSite, "=", siteId).where("id", "in", ids).compile());
  const results = (await readTogether(ctx.d1, [...queries, ...modelQueries])) as unknown[][];

  const versions = new Map<string, VersionRow>();
  const links: { version_id: string; field_id: string; position: number; target_group_id: string }[] = [];
  const targets: PublishedTarget[] = [];
  const targetModels = new Map<string, Model>();
  parts.forEach((_, i) => {
    for (const v of results[i * 4] as VersionRow[]) versions.set(v.id, v);
    links.push(...(results[i * 4 + 1] as typeof links));
    targets.push(...(results[i * 4 + 2] as PublishedTarget[]));
    for (const m of results[i * 4 + 3] as Parameters<typeof toModel>[0][]) targetModels.set(m.id, toModel(m));
  });
  const models = new Map<string, Model>();
  for (const rows of results.slice(parts.length * 4)) for (const m of rows as Parameters<typeof toModel>[0][]) models.set(m.id, toModel(m));

  for (const source of sources) {
    const version = source.published_version_id ? versions.get(source.published_version_id) : undefined;
    const own = version ? links.filter((l) => l.version_id === version.id).map(({ field_id, position, target_group_id }) => ({ field_id, position, target_group_id })) : [];
    const groups = new Set(own.map((l) => l.target_group_id));
    out.set(source, {
      version,
      model: models.get(source.model_id),
      // The targets of this version's groups, in the order one read of those groups gives (group, language).
      snapshot: { links: own, targets: targets.filter((t) => groups.has(t.group_id)), targetModels: [...targetModels.values(), ...models.values()] },
    });
  }
  return out;
}
