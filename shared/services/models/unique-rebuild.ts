import type { CompiledQuery } from "kysely";
import type { FieldDefinition } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import { insertClaimStatements, uniqueFields, uniqueScope, uniqueValue } from "../lifecycle/unique-values";
import type { BlockedChange } from "./model-change-checks";
import { combinationRebuild } from "./unique-combination-rebuild";

/**
 * Unique fields whose claims a model apply rebuilds from the current drafts: made unique, scope
 * changed, or type changed while unique (docs/unique-fields.md).
 */
function rebuiltFields(before: Model, after: Model): FieldDefinition[] {
  const old = new Map(before.fields.map((f) => [f.id, f]));
  return uniqueFields(after.fields).filter((f) => {
    const was = old.get(f.id);
    return was === undefined || was.unique !== f.unique || was.type !== f.type;
  });
}

/** Fields whose claims go: removed, or no longer unique. */
function droppedFieldIds(before: Model, after: Model): string[] {
  const kept = new Set(uniqueFields(after.fields).map((f) => f.id));
  return before.fields.filter((f) => f.unique !== undefined && !kept.has(f.id)).map((f) => f.id);
}

export interface DraftClaim {
  instance_id: string;
  translation_group_id: string;
  field_id: string;
  scope: string;
  value: string;
}

/** Claims the current drafts of the model's live (not trashed) entries make for one field. */
async function draftClaims(ctx: LifecycleContext, modelId: string, field: FieldDefinition): Promise<DraftClaim[]> {
  const { results } = await ctx.d1
    .prepare(
      `SELECT e.instance_id, e.translation_group_id, e.lang, json_extract(v.fields, ?) AS value
       FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.id = e.current_version_id
       WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL AND json_extract(v.fields, ?) IS NOT NULL`,
    )
    .bind(`$."${field.id}"`, ctx.site.id, modelId, `$."${field.id}"`)
    .all<{ instance_id: string; translation_group_id: string; lang: string; value: unknown }>();
  return results.flatMap((row) => {
    const value = uniqueValue(row.value);
    return value === null ? [] : [{ instance_id: row.instance_id, translation_group_id: row.translation_group_id, field_id: field.id, scope: uniqueScope(field, row.lang), value }];
  });
}

/** Entry languages holding a value another item also holds. */
export function conflicting(claims: readonly DraftClaim[]): DraftClaim[] {
  const groups = new Map<string, Set<string>>();
  const key = (c: DraftClaim) => `${c.scope}\u0000${c.value}`;
  for (const c of claims) {
    const seen = groups.get(key(c)) ?? new Set<string>();
    seen.add(c.translation_group_id);
    groups.set(key(c), seen);
  }
  return claims.filter((c) => (groups.get(key(c))?.size ?? 0) > 1);
}

/**
 * What a model apply does to unique claims: `changes` it must refuse (current drafts already hold
 * duplicates of a field being made unique: kind `unique_conflict`), else `statements` dropping the
 * claims of fields no longer unique and rebuilding those of fields made unique or re-scoped.
 */
export async function uniqueRebuild(ctx: LifecycleContext, before: Model, after: Model): Promise<{ changes: BlockedChange[]; statements: CompiledQuery[] }> {
  const changes: BlockedChange[] = [];
  const statements: CompiledQuery[] = [];
  const drop = (fieldId: string) =>
    ctx.db.deleteFrom("unique_values").where("site_id", "=", ctx.site.id).where("model_id", "=", before.id).where("field_id", "=", fieldId).compile();
  for (const fieldId of droppedFieldIds(before, after)) statements.push(drop(fieldId));
  for (const field of rebuiltFields(before, after)) {
    const claims = await draftClaims(ctx, after.id, field);
    const clashes = conflicting(claims);
    if (clashes.length > 0) {
      const n = clashes.length;
      const values = [...new Set(clashes.map((c) => c.value))];
      changes.push({
        kind: "unique_conflict",
        field: field.key,
        affected_count: n,
        message: `${n} entries share values of "${field.key}" (${values.slice(0, 5).map((v) => JSON.stringify(v)).join(", ")}${values.length > 5 ? ", …" : ""}).`,
        suggestion: "Give those entries distinct values (or trash them) first, then make the field unique.",
      });
      continue;
    }
    statements.push(drop(field.id), ...insertClaimStatements(ctx, after.id, claims));
  }
  const combinations = await combinationRebuild(ctx, before, after);
  return { changes: [...changes, ...combinations.changes], statements: [...statements, ...combinations.statements] };
}
