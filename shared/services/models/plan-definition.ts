/**
 * The dry run of PUT /models/{id}/definition (docs/admin-ui-models.md, "Changes before saving"):
 * every check the apply makes, in the same order and with the same refusals, without writing. What
 * the content would block comes back as `changes` (the apply's 409 model_change_blocked list, with
 * `affected_count` and `suggestion`) instead of a refusal, beside a plain summary of what the
 * definition changes field by field, so the model builder can show both before anything is written.
 */
import { AppError } from "../../errors";
import { loadModel } from "../lifecycle/load";
import type { LifecycleContext } from "../lifecycle/context";
import type { BlockedChange } from "./model-change-checks";
import { replaceModelDefinition, type ReplaceDefinitionInput } from "./definition-writes";

/** A field of a definition as the summary compares it. */
interface FieldShape {
  id?: string | undefined;
  key: string;
}

export interface DefinitionPlan {
  model_id: string;
  revision: number;
  /** Changes the content would block now: the apply would refuse with 409 model_change_blocked. */
  changes: BlockedChange[];
  /** Field keys added, removed, changed in place, and key renames (by field id). */
  fields: { added: string[]; removed: string[]; changed: string[]; renamed: { from: string; to: string }[] };
  /** Whether an apply of the same body would pass every check right now. */
  can_apply: boolean;
}

/** What a definition changes field by field, compared by id (fields without an id are new). */
export function fieldSummary(before: readonly (FieldShape & Record<string, unknown>)[], after: readonly (FieldShape & Record<string, unknown>)[]): DefinitionPlan["fields"] {
  const byId = new Map(before.map((f) => [f.id, f]));
  const kept = new Set(after.flatMap((f) => (f.id !== undefined ? [f.id] : [])));
  const added = after.filter((f) => f.id === undefined || !byId.has(f.id)).map((f) => f.key);
  const removed = before.filter((f) => f.id !== undefined && !kept.has(f.id)).map((f) => f.key);
  const renamed: { from: string; to: string }[] = [];
  const changed: string[] = [];
  for (const f of after) {
    const old = f.id !== undefined ? byId.get(f.id) : undefined;
    if (!old) continue;
    if (old.key !== f.key) renamed.push({ from: old.key, to: f.key });
    else if (!sameSettings(old, f)) changed.push(f.key);
  }
  return { added, removed, changed, renamed };
}

/**
 * Settings compared as JSON with sorted keys. A flag left out and the same flag `false` agree (a
 * client may drop `required: false`), as do a key left out and `undefined`.
 */
function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const norm = (x: Record<string, unknown>) =>
    JSON.stringify(
      Object.keys(x)
        .filter((k) => x[k] !== undefined && x[k] !== false)
        .sort()
        .map((k) => [k, x[k]]),
    );
  return norm(a) === norm(b);
}

/**
 * Plans a replace: the apply's own checks run (permissions, revision → 409 model_changed, names,
 * keys, field rules, role grants, saved queries); only the content's blocked changes are answered
 * instead of refused. The plan the apply builds is dropped: nothing is written.
 */
export async function planModelDefinition(ctx: LifecycleContext, input: ReplaceDefinitionInput): Promise<DefinitionPlan> {
  let changes: BlockedChange[] = [];
  try {
    await replaceModelDefinition(ctx, input);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "model_change_blocked") throw error;
    changes = (error.details?.changes as BlockedChange[] | undefined) ?? [];
  }
  const before = await loadModel(ctx, input.model_id);
  const fields = fieldSummary(before.fields as unknown as (FieldShape & Record<string, unknown>)[], input.definition.fields as unknown as (FieldShape & Record<string, unknown>)[]);
  return { model_id: before.id, revision: before.revision, changes, fields, can_apply: changes.length === 0 };
}
