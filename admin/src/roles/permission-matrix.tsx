import type { PermissionSet, ModelOperation, SystemPermission } from "../../../schema/permissions";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS, hasSystemPermission, modelOperations } from "../../../shared/auth/permissions";
import { OPERATION_WORDS, SYSTEM_WORDS } from "./words";

export interface ModelRow {
  id: string;
  name: string;
}

const EVERY = "*";

/** Whether the person's own set holds an operation on a model (what they may hand out). */
export function holdsOperation(mine: PermissionSet, modelId: string, op: ModelOperation): boolean {
  const held = modelId === EVERY ? (mine.models[EVERY] ?? []) : modelOperations(mine, modelId);
  return held.includes(op) || (op === "update:own" && held.includes("update"));
}

/**
 * The matrix of models × operations and the system permissions. A box the person's own role does
 * not hold stays unticked and disabled, marked "not yours to grant" (docs/admin-ui-models.md,
 * "The ceiling"): a role may hand out only what its writer holds (docs/people.md).
 */
export function PermissionMatrix({ set, mine, models, editable, onChange }: { set: PermissionSet; mine: PermissionSet; models: readonly ModelRow[]; editable: boolean; onChange: (next: PermissionSet) => void }) {
  const rows = [{ id: EVERY, name: "Every model" }, ...models];
  const toggle = (modelId: string, op: ModelOperation, on: boolean) => {
    const current = set.models[modelId] ?? [];
    const next = on ? [...current, op] : current.filter((o) => o !== op);
    const models = { ...set.models };
    if (next.length > 0) models[modelId] = ALL_MODEL_OPERATIONS.filter((o) => next.includes(o));
    else delete models[modelId];
    onChange({ ...set, models });
  };
  const toggleSystem = (p: SystemPermission, on: boolean) => onChange({ ...set, system: ALL_SYSTEM_PERMISSIONS.filter((x) => (x === p ? on : set.system.includes(x))) });
  return (
    <>
      <div class="matrix-wrap">
        <table class="matrix">
          <caption>Content: what the role may do with each model's entries</caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              {ALL_MODEL_OPERATIONS.map((op) => (
                <th scope="col">{OPERATION_WORDS[op]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                <th scope="row">{row.name}</th>
                {ALL_MODEL_OPERATIONS.map((op) => {
                  const on = (set.models[row.id] ?? []).includes(op);
                  const allowed = holdsOperation(mine, row.id, op);
                  return (
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`${OPERATION_WORDS[op]} ${row.name}${allowed ? "" : " (not yours to grant)"}`}
                        checked={on}
                        disabled={!editable || (!allowed && !on)}
                        onChange={(e) => toggle(row.id, op, (e.currentTarget as HTMLInputElement).checked)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <fieldset class="stack">
        <legend>Site permissions</legend>
        {ALL_SYSTEM_PERMISSIONS.map((p) => {
          const allowed = hasSystemPermission(mine, p);
          const on = set.system.includes(p);
          return (
            <label class="row check">
              <input type="checkbox" checked={on} disabled={!editable || (!allowed && !on)} onChange={(e) => toggleSystem(p, (e.currentTarget as HTMLInputElement).checked)} />
              {SYSTEM_WORDS[p]} <span class="mono muted">{p}</span>
              {allowed ? null : <span class="beyond">— not yours to grant</span>}
            </label>
          );
        })}
      </fieldset>
    </>
  );
}
