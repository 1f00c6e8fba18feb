import type { CompiledQuery } from "kysely";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { combinationId, combinationValue, resolvedCombinations, type ResolvedCombination } from "../lifecycle/unique-combinations";
import { insertClaimStatements, uniqueValue } from "../lifecycle/unique-values";
import type { BlockedChange } from "./model-change-checks";
import { conflicting, type DraftClaim } from "./unique-rebuild";

/** What a combination's claims depend on: its scope and its members (ids and types, in order). */
function signature(c: ResolvedCombination): string {
  return JSON.stringify([c.combination.scope, c.members.map((m) => [m.id, m.type])]);
}

/** Claims the current drafts of the model's live (not trashed) entries make for one combination. */
async function draftClaims(ctx: LifecycleContext, modelId: string, c: ResolvedCombination): Promise<DraftClaim[]> {
  const columns = c.members.map((_, i) => `json_extract(v.fields, ?) AS m${i}`).join(", ");
  const { results } = await ctx.d1
    .prepare(
      `SELECT e.instance_id, e.translation_group_id, e.lang, ${columns}
       FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.id = e.current_version_id
       WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL`,
    )
    .bind(...c.members.map((m) => `$."${m.id}"`), ctx.site.id, modelId)
    .all<Record<string, unknown> & { instance_id: string; translation_group_id: string; lang: string }>();
  const id = combinationId(c.combination.name);
  return results.flatMap((row) => {
    const stored = Object.fromEntries(c.members.map((m, i) => [m.id, row[`m${i}`]]));
    const value = combinationValue(c.members, stored, uniqueValue);
    if (value === null) return [];
    return [{ instance_id: row.instance_id, translation_group_id: row.translation_group_id, field_id: id, scope: c.combination.scope === "language" ? row.lang : "", value }];
  });
}

/**
 * What a model apply does to combination claims: a combination added, or changed (scope, members or
 * a member's type), is rebuilt from the current drafts — refused as `unique_combination_conflict`
 * when they already share a value; one removed or changed loses its old claims.
 */
export async function combinationRebuild(ctx: LifecycleContext, before: Model, after: Model): Promise<{ changes: BlockedChange[]; statements: CompiledQuery[] }> {
  const old = new Map(resolvedCombinations(before.unique_combinations, before.fields).map((c) => [c.combination.name, signature(c)]));
  const now = resolvedCombinations(after.unique_combinations, after.fields);
  const kept = new Set(now.filter((c) => old.get(c.combination.name) === signature(c)).map((c) => c.combination.name));
  const drop = (name: string) =>
    ctx.db.deleteFrom("unique_values").where("site_id", "=", ctx.site.id).where("model_id", "=", before.id).where("field_id", "=", combinationId(name)).compile();
  const statements: CompiledQuery[] = before.unique_combinations.filter((c) => !kept.has(c.name)).map((c) => drop(c.name));
  const changes: BlockedChange[] = [];
  for (const c of now) {
    if (kept.has(c.combination.name)) continue;
    const claims = await draftClaims(ctx, after.id, c);
    const clashes = conflicting(claims);
    if (clashes.length > 0) {
      const n = clashes.length;
      changes.push({
        kind: "unique_combination_conflict",
        field: c.combination.name,
        affected_count: n,
        message: `${n} entries share values of the combination "${c.combination.name}" (${c.combination.fields.join(", ")}).`,
        suggestion: "Give those entries distinct values (or trash them) first, then add the combination.",
      });
      continue;
    }
    // A combination renamed or new has no rows yet; a changed one lost its old rows above.
    if (!before.unique_combinations.some((b) => b.name === c.combination.name)) statements.push(drop(c.combination.name));
    statements.push(...insertClaimStatements(ctx, after.id, claims));
  }
  return { changes, statements };
}
