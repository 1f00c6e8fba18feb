/**
 * The "related from" index (docs/content-rules-reverse-single-unique.md, migration 0024): the links of
 * each entry language's current draft, one row per (target item, source language, field). Replaced in
 * the batch of every write that makes a new version, so it always matches `entries.current_version_id`;
 * deleted with the source when it is purged.
 */
import type { CompiledQuery } from "kysely";
import { chunk, rowsPerInsert } from "../../db/chunks";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * Statements replacing a source language's head links by those of its new current draft. A
 * `fresh` source (an instance this write creates, its id new) has none to delete: the delete is
 * left out of the batch (docs/write-fairness.md, "CPU per write").
 */
export function relationHeadStatements(
  ctx: Pick<LifecycleContext, "db" | "site">,
  sourceInstanceId: string,
  links: readonly { field_id: string; target_group_id: string }[],
  fresh = false,
): CompiledQuery[] {
  const seen = new Set<string>();
  const rows = links.flatMap((l) => {
    const key = `${l.field_id}|${l.target_group_id}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ site_id: ctx.site.id, target_group_id: l.target_group_id, source_instance_id: sourceInstanceId, field_id: l.field_id }];
  });
  return [
    ...(fresh ? [] : [ctx.db.deleteFrom("relation_heads").where("site_id", "=", ctx.site.id).where("source_instance_id", "=", sourceInstanceId).compile()]),
    ...chunk(rows, rowsPerInsert(4)).map((part) => ctx.db.insertInto("relation_heads").values(part).compile()),
  ];
}

/** Statements deleting the head links of purged sources, and those pointing at a purged item. */
export function purgeHeadStatements(ctx: Pick<LifecycleContext, "db" | "site">, sourceInstanceIds: readonly string[], goneGroupId: string | null): CompiledQuery[] {
  const statements = chunk(sourceInstanceIds, 90).map((part) =>
    ctx.db.deleteFrom("relation_heads").where("site_id", "=", ctx.site.id).where("source_instance_id", "in", part).compile(),
  );
  if (goneGroupId !== null) statements.push(ctx.db.deleteFrom("relation_heads").where("site_id", "=", ctx.site.id).where("target_group_id", "=", goneGroupId).compile());
  return statements;
}
