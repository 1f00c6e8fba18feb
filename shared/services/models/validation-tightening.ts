/**
 * Model apply, item 10 of issue #13: a change to a field's value rules (its `validation`, its
 * `condition`, the nested fields of a component, `required` under a condition) that existing
 * content would fail is refused (409 model_change_blocked, kind `validation_tightened`), counting
 * the entries affected. Published versions are checked in publish mode; on a site in strict
 * validation mode the current drafts are checked too (in strict mode).
 *
 * Exactness over SQL cleverness: each version is validated with the very validator a publish runs
 * (validate-fields.ts), once against the model before and once after, and an entry counts only when
 * the field gains a problem it did not have (so loosening a rule, or a value already invalid before
 * the change, never blocks). Cost: only when some field's rules changed, one pass over the model's
 * published versions (and drafts in strict mode), read in pages of PAGE rows; CPU linear in the
 * values read. See docs/content-rules-fields.md.
 */
import type { FieldDefinition, FieldValue } from "../../../schema/model-definition";
import { toKeyedValues, validateFieldValues, type FieldIssue, type ValidationMode } from "../../content/validate-fields";
import type { Model } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import type { BlockedChange } from "./model-change-checks";

/** Versions read per query. */
const PAGE = 200;

/** What about a field's rules a change compares (required only where a condition decides it). */
function rulesOf(field: FieldDefinition): string {
  return JSON.stringify([field.validation ?? null, field.condition ?? null, field.fields ?? null, field.multiple ?? false, field.condition !== undefined && field.required === true]);
}

/** Top-level field keys whose value rules changed between `before` and `after` (same id and type). */
function changedRuleFields(before: Model, after: Model): FieldDefinition[] {
  const old = new Map(before.fields.map((f) => [f.id, f]));
  return after.fields.filter((now) => {
    const was = old.get(now.id);
    return was !== undefined && was.type === now.type && rulesOf(was) !== rulesOf(now);
  });
}

/** The top-level key an issue path belongs to (`sections[2].heading` → `sections`). */
function topKey(path: string): string {
  const end = path.search(/[.[]/);
  return end === -1 ? path : path.slice(0, end);
}

/** Issues (as "path|code") of the watched fields, `required` of a field newly required without condition left out (required_added counts those). */
function problemsOf(fields: readonly FieldDefinition[], values: Record<string, FieldValue>, mode: ValidationMode, watched: ReadonlySet<string>, skipRequired: ReadonlySet<string>): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const issue of validateFieldValues(fields, values, mode) as FieldIssue[]) {
    const key = topKey(issue.path);
    if (!watched.has(key)) continue;
    if (issue.code === "required" && issue.path === key && skipRequired.has(key)) continue;
    const set = found.get(key) ?? new Set<string>();
    set.add(`${issue.path}|${issue.code}`);
    found.set(key, set);
  }
  return found;
}

/** Validation rules `after` tightens that existing content fails: one change per field, with the entries affected. */
export async function tightenedValidation(ctx: LifecycleContext, before: Model, after: Model): Promise<BlockedChange[]> {
  const changed = changedRuleFields(before, after);
  if (changed.length === 0) return [];
  const watched = new Set(changed.map((f) => f.key));
  // A top-level field made required without a condition is the required_added check's (an SQL count).
  const oldById = new Map(before.fields.map((f) => [f.id, f]));
  const skipRequired = new Set(after.fields.filter((f) => f.required === true && f.condition === undefined && oldById.get(f.id)?.required !== true).map((f) => f.key));
  const affected = new Map<string, Set<string>>();
  const sample = new Map<string, string>();
  const strict = ctx.site.settings.validation_mode === "strict";
  const sources: { column: "published_version_id" | "current_version_id"; mode: ValidationMode }[] = [
    { column: "published_version_id", mode: "publish" },
    ...(strict ? [{ column: "current_version_id" as const, mode: "strict" as const }] : []),
  ];
  for (const source of sources) {
    let after_id = "";
    for (;;) {
      const page = await ctx.d1
        .prepare(
          `SELECT e.instance_id AS instance_id, v.fields AS fields FROM entries e JOIN versions v ON v.site_id = e.site_id AND v.id = e.${source.column}
           WHERE e.site_id = ? AND e.model_id = ? AND e.trashed_at IS NULL AND e.instance_id > ? ORDER BY e.instance_id LIMIT ${PAGE}`,
        )
        .bind(ctx.site.id, before.id, after_id)
        .all<{ instance_id: string; fields: string }>();
      const rows = page.results ?? [];
      for (const row of rows) {
        const stored = JSON.parse(row.fields) as Record<string, FieldValue>;
        const was = problemsOf(before.fields, toKeyedValues(before.fields, stored), source.mode, watched, new Set());
        const now = problemsOf(after.fields, toKeyedValues(after.fields, stored), source.mode, watched, skipRequired);
        for (const [key, problems] of now) {
          const fresh = [...problems].filter((p) => !was.get(key)?.has(p));
          if (fresh.length === 0) continue;
          affected.set(key, (affected.get(key) ?? new Set()).add(row.instance_id));
          if (!sample.has(key)) sample.set(key, fresh[0] ?? "");
        }
      }
      if (rows.length < PAGE) break;
      after_id = rows[rows.length - 1]?.instance_id ?? after_id;
    }
  }
  return changed.flatMap((field) => {
    const n = affected.get(field.key)?.size ?? 0;
    if (n === 0) return [];
    const [path, code] = (sample.get(field.key) ?? "|").split("|");
    return [{
      kind: "validation_tightened" as const,
      field: field.key,
      affected_count: n,
      message: `${n} entries${strict ? "" : " (published versions)"} would fail the new rules of "${field.key}" (for example ${code} at ${path}).`,
      suggestion: "Change those entries' values to fit the new rules first, or keep the old rules.",
    }];
  });
}
