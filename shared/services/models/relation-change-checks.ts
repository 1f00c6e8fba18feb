/**
 * Relation changes a model apply checks against existing content (docs/content-rules-relations.md,
 * "Changing a relation"): a to-many kind becoming to-one while items hold several targets, a kind
 * becoming one_to_one / one_to_many while a target is held by several items, and a field becoming
 * a hierarchy while its links already loop. Each is one BlockedChange (409 model_change_blocked).
 * Links counted are those of live items' current drafts and published versions.
 */
import { isToMany, relationKind, type FieldDefinition } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import type { BlockedChange } from "./model-change-checks";

/** Links of the field in live items' current and published versions. */
const LIVE_LINKS = `FROM relation_links rl JOIN entries e ON e.site_id = rl.site_id AND e.instance_id = rl.source_instance_id
  WHERE rl.site_id = ? AND e.model_id = ? AND rl.field_id = ? AND e.trashed_at IS NULL
    AND (rl.version_id = e.current_version_id OR rl.version_id = e.published_version_id)`;

async function countHoldingSeveral(ctx: LifecycleContext, modelId: string, fieldId: string): Promise<number> {
  const row = await ctx.d1
    .prepare(`SELECT count(*) AS n FROM (SELECT rl.version_id ${LIVE_LINKS} GROUP BY rl.version_id HAVING count(*) > 1)`)
    .bind(ctx.site.id, modelId, fieldId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function countHeldTwice(ctx: LifecycleContext, modelId: string, field: FieldDefinition): Promise<number> {
  const perLanguage = field.localized_membership === true ? ", e.lang" : "";
  const row = await ctx.d1
    .prepare(`SELECT count(*) AS n FROM (SELECT rl.target_group_id ${LIVE_LINKS} GROUP BY rl.target_group_id${perLanguage} HAVING count(DISTINCT e.translation_group_id) > 1)`)
    .bind(ctx.site.id, modelId, field.id)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Items (translation groups) on a loop of the field's links. */
async function countInLoops(ctx: LifecycleContext, modelId: string, fieldId: string): Promise<number> {
  const rows = await ctx.d1
    .prepare(`SELECT DISTINCT e.translation_group_id AS source, rl.target_group_id AS target ${LIVE_LINKS}`)
    .bind(ctx.site.id, modelId, fieldId)
    .all<{ source: string; target: string }>();
  const parents = new Map<string, string[]>();
  for (const { source, target } of rows.results) parents.set(source, [...(parents.get(source) ?? []), target]);
  const onLoop = new Set<string>();
  // Iterative colouring DFS: a node reached again while on the stack closes a loop.
  const state = new Map<string, 1 | 2>();
  for (const start of parents.keys()) {
    if (state.has(start)) continue;
    const stack: { node: string; next: number }[] = [{ node: start, next: 0 }];
    const path: string[] = [start];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (!top) break;
      const targets = parents.get(top.node) ?? [];
      const target = targets[top.next++];
      if (target === undefined) {
        state.set(top.node, 2);
        stack.pop();
        path.pop();
        continue;
      }
      const seen = state.get(target);
      if (seen === 1) {
        for (const node of path.slice(path.indexOf(target))) onLoop.add(node);
      } else if (seen === undefined) {
        state.set(target, 1);
        stack.push({ node: target, next: 0 });
        path.push(target);
      }
    }
  }
  return onLoop.size;
}

export async function relationChanges(ctx: LifecycleContext, before: Model, after: Model): Promise<BlockedChange[]> {
  const changes: BlockedChange[] = [];
  const next = new Map(after.fields.map((f) => [f.id, f]));
  for (const old of before.fields) {
    const now = next.get(old.id);
    if (!now || old.type !== "relation" || now.type !== "relation") continue;
    const from = relationKind(old);
    const to = relationKind(now);
    if (isToMany(from) && !isToMany(to)) {
      const n = await countHoldingSeveral(ctx, before.id, old.id);
      if (n > 0) {
        changes.push({ kind: "relation_kind_changed", field: now.key, affected_count: n, message: `${n} versions in use link several items through "${now.key}", which would hold one (${to}).`, suggestion: "Leave one item in those entries (drafts and published versions) first, or keep a to-many kind." });
      }
    }
    if ((to === "one_to_one" || to === "one_to_many") && from !== to && !(from === "one_to_one" && to === "one_to_many")) {
      const n = await countHeldTwice(ctx, before.id, now);
      if (n > 0) {
        changes.push({ kind: "relation_target_shared", field: now.key, affected_count: n, message: `${n} items are linked through "${now.key}" from more than one entry; ${to} lets one entry hold each.`, suggestion: "Unlink those items from all but one entry first, or keep a many_to_ kind." });
      }
    }
    if (now.hierarchy === true && old.hierarchy !== true) {
      const n = await countInLoops(ctx, before.id, old.id);
      if (n > 0) {
        changes.push({ kind: "relation_hierarchy_cycle", field: now.key, affected_count: n, message: `${n} entries are on a loop of "${now.key}" links; a hierarchy never loops.`, suggestion: "Break the loops (clear or change a parent in each) first." });
      }
    }
  }
  return changes;
}
