import type { LifecycleContext } from "../lifecycle/context";
import type { Model } from "../../repositories/model-repository";
import { uniqueRebuild } from "./unique-rebuild";
import { relationChanges } from "./relation-change-checks";
import { tightenedValidation } from "./validation-tightening";

/** Changes a model apply refuses while content depends on the old shape (409 model_change_blocked). */
/** One change unsafe for existing content (409 model_change_blocked). */
export interface BlockedChange {
  kind: "field_removed_with_values" | "type_changed" | "required_added" | "option_removed" | "i18n_disabled" | "unique_conflict" | "validation_tightened"
    // Relations (relation-change-checks.ts).
    | "relation_kind_changed" | "relation_target_shared" | "relation_hierarchy_cycle";
  field: string | null;
  affected_count: number;
  message: string;
  suggestion: string;
}

const path = (fieldId: string) => `$."${fieldId}"`;

/** Live (not trashed) entries of the model with a value for the field in some version. */
async function countWithValues(ctx: LifecycleContext, modelId: string, fieldId: string): Promise<number> {
  const row = await ctx.d1
    .prepare(
      `SELECT count(DISTINCT e.instance_id) AS n FROM entries e WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL AND (
         EXISTS (SELECT 1 FROM versions v WHERE v.site_id = e.site_id AND v.instance_id = e.instance_id AND json_extract(v.fields, ?) IS NOT NULL)
         OR EXISTS (SELECT 1 FROM relation_links r JOIN versions v ON v.id = r.version_id AND v.site_id = r.site_id WHERE r.site_id = e.site_id AND v.instance_id = e.instance_id AND r.field_id = ?))`,
    )
    .bind(ctx.site.id, modelId, path(fieldId), fieldId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Published live entries whose published version has no value for the field. */
async function countPublishedMissing(ctx: LifecycleContext, modelId: string, fieldId: string): Promise<number> {
  const row = await ctx.d1
    .prepare(
      `SELECT count(*) AS n FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.id = e.published_version_id
       WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL
         AND (json_extract(v.fields, ?) IS NULL OR json_extract(v.fields, ?) = '' OR json_extract(v.fields, ?) = '[]')
         AND NOT EXISTS (SELECT 1 FROM relation_links r WHERE r.site_id = v.site_id AND r.version_id = v.id AND r.field_id = ?)`,
    )
    .bind(ctx.site.id, modelId, path(fieldId), path(fieldId), path(fieldId), fieldId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Live entries with a version using one of the option values. */
async function countUsingOptions(ctx: LifecycleContext, modelId: string, fieldId: string, values: readonly string[]): Promise<number> {
  const marks = values.map(() => "?").join(", ");
  const row = await ctx.d1
    .prepare(
      `SELECT count(DISTINCT e.instance_id) AS n FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.instance_id = e.instance_id
       WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL
         AND EXISTS (SELECT 1 FROM json_each(v.fields, ?) j WHERE j.value IN (${marks}))`,
    )
    .bind(ctx.site.id, modelId, path(fieldId), ...values)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Changes from `before` to `after` that existing content would not survive. */
export async function blockedChanges(ctx: LifecycleContext, before: Model, after: Model): Promise<BlockedChange[]> {
  const changes: BlockedChange[] = [];
  const next = new Map(after.fields.map((f) => [f.id, f]));
  for (const old of before.fields) {
    const now = next.get(old.id);
    if (!now) {
      const n = await countWithValues(ctx, before.id, old.id);
      if (n > 0) {
        changes.push({ kind: "field_removed_with_values", field: old.key, affected_count: n, message: `${n} entries hold values for "${old.key}".`, suggestion: "Clear the values (or trash those entries) first, or keep the field." });
      }
      continue;
    }
    if (now.type !== old.type) {
      const n = await countWithValues(ctx, before.id, old.id);
      if (n > 0) {
        changes.push({ kind: "type_changed", field: old.key, affected_count: n, message: `${n} entries hold "${old.type}" values for "${old.key}".`, suggestion: "Add a new field of the new type and move the values, then remove the old field." });
      }
      continue;
    }
    // Required under a condition holds only while the condition shows the field: tightenedValidation counts it.
    if (now.required && !old.required && now.condition === undefined) {
      const n = await countPublishedMissing(ctx, before.id, old.id);
      if (n > 0) {
        changes.push({ kind: "required_added", field: now.key, affected_count: n, message: `${n} published entries have no value for "${now.key}".`, suggestion: "Fill the field in those entries first, then make it required." });
      }
    }
    if (old.type === "select" && old.options && now.options) {
      const kept = new Set(now.options.map((o) => o.value));
      const gone = old.options.map((o) => o.value).filter((value) => !kept.has(value));
      if (gone.length > 0) {
        const n = await countUsingOptions(ctx, before.id, old.id, gone);
        if (n > 0) {
          changes.push({ kind: "option_removed", field: now.key, affected_count: n, message: `${n} entries use the removed options ${gone.join(", ")}.`, suggestion: "Change those entries to another option first, or keep the options." });
        }
      }
    }
  }
  if (before.i18n && !after.i18n) {
    const row = await ctx.d1
      .prepare("SELECT count(*) AS n FROM entries WHERE site_id = ? AND model_id = ? AND lang <> ?")
      .bind(ctx.site.id, before.id, ctx.site.default_lang)
      .first<{ n: number }>();
    const n = row?.n ?? 0;
    if (n > 0) changes.push({ kind: "i18n_disabled", field: null, affected_count: n, message: `${n} entries are in a language other than the default.`, suggestion: "Remove the other languages first." });
  }
  changes.push(...(await uniqueRebuild(ctx, before, after)).changes);
  changes.push(...(await relationChanges(ctx, before, after)));
  changes.push(...(await tightenedValidation(ctx, before, after)));
  return changes;
}
