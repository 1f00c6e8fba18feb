// Re-rendering the published items that link to a group whose publication changed.
import type { CompiledQuery } from "kysely";
import type { EntryRow } from "../../db/database";
import type { LifecycleContext } from "./context";
import { readDependents } from "./dependent-reads";
import type { PendingTargets } from "./relation-targets";
import { renderSnapshot } from "./snapshot";
import { snapshotStatements } from "./snapshot-statements";

/**
 * Re-renders every published item whose published version links to `groupId`, so relation values
 * (slug, display, which language) follow the target's publication. Returns statements and the
 * groups whose responses change.
 */
export async function rebuildDependents(
  ctx: LifecycleContext,
  groupId: string,
  pending: PendingTargets,
  /** The rows of `dependentSourcesQuery`, when already read. */
  read?: readonly DependentSource[],
): Promise<{ statements: CompiledQuery[]; groups: string[] }> {
  const sources = (read ?? (await dependentSourcesQuery(ctx, groupId).execute())).filter(
    (source) => source.translation_group_id !== groupId && source.published_version_id && source.published_at,
  );
  const statements: CompiledQuery[] = [];
  const groups: string[] = [];
  // Every dependent's version, model and links, read together (lifecycle/dependent-reads.ts).
  const reads = await readDependents(ctx, sources, pending);
  for (const source of sources) {
    const { version, model, snapshot } = reads.get(source) ?? {};
    if (!version || !model || !source.published_at) continue;
    const rendered = await renderSnapshot(ctx, source, version, model, { publishedAt: source.published_at, firstPublishedAt: source.sort_at, pending, keepPinned: true, ...(snapshot ? { reads: snapshot } : {}) });
    statements.push(...snapshotStatements(ctx, source, version, rendered, model));
    groups.push(source.translation_group_id);
  }
  return { statements, groups };
}

/** A published entry whose published version links to a group, with its served sort key. */
export type DependentSource = EntryRow & { sort_at: string };

/** The published entries whose published version links to `groupId` (the dependents `rebuildDependents` re-renders). */
export function dependentSourcesQuery(ctx: LifecycleContext, groupId: string) {
  return ctx.db
    .selectFrom("relation_links")
    // Joined by the entry's primary key (a link's source instance): joined by the published version
    // alone no index applies, and every publish read ~2.7 rows per entry of the site (the write bench's
    // ROWS write.publish.dependents_query line; docs/benchmarks.md).
    .innerJoin("entries", (join) =>
      join
        .onRef("entries.instance_id", "=", "relation_links.source_instance_id")
        .onRef("entries.published_version_id", "=", "relation_links.version_id")
        .onRef("entries.site_id", "=", "relation_links.site_id"),
    )
    .innerJoin("published_items", (join) =>
      join.onRef("published_items.instance_id", "=", "entries.instance_id").onRef("published_items.site_id", "=", "entries.site_id"),
    )
    .selectAll("entries")
    .select(["published_items.sort_at as sort_at"])
    .distinct()
    .where("relation_links.site_id", "=", ctx.site.id)
    .where("relation_links.target_group_id", "=", groupId);
}
