import type { ModelOperation, PermissionSet, SystemPermission } from "../../schema/permissions";
import { ALL_SCOPES, normaliseScopes, type Scope } from "../../schema/scopes";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS, hasSystemPermission, modelOperations } from "./permissions";

/**
 * What a management credential's scopes (and models) can ever allow — its **ceiling** — and what
 * its creator must hold to grant them. A credential acts with
 * `intersectPermissionSets(creator's role now, scopeCeiling(scopes, modelIds))`
 * (`shared/auth/management-authority.ts`), so the ceiling never adds anything the creator lacks:
 * it only takes away what the scopes do not cover. See docs/management-credentials.md.
 */

/** The model id that stands for every model (as in permission sets). */
const EVERY_MODEL = "*";

/** What one scope adds to the ceiling: model operations (on each credential model) and system permissions. */
export interface ScopeGrant {
  models: readonly ModelOperation[];
  system: readonly SystemPermission[];
}

/**
 * The ceiling of each scope, following the "Needs from the creator" column of the scopes table.
 * `content:write` also carries the model operation `restore`: a version restore asks for `restore`
 * and `update` on the model and the system permission `content:restore`.
 */
export const SCOPE_CEILING: Readonly<Record<Scope, ScopeGrant>> = {
  "content:read": { models: ["read"], system: [] },
  "content:write": { models: ["create", "update", "update:own", "restore"], system: ["content:restore"] },
  "content:propose": { models: ["read"], system: [] },
  "pages:write": { models: ["create", "update"], system: [] },
  "media:write": { models: [], system: ["media:upload", "media:update", "media:delete"] },
  "lifecycle:publish": { models: ["update", "publish", "unpublish"], system: [] },
  "content:trash": { models: ["delete"], system: [] },
  "content:purge": { models: ["delete"], system: [] },
  "workflow:move": { models: ["update"], system: [] },
  "workflow:assign": { models: ["update"], system: [] },
  "settings:write": { models: [], system: ["site:settings", "site:infra"] },
  "schema:propose": { models: [], system: ["model:apply"] },
  "schema:write": { models: [], system: ["model:apply", "model:delete"] },
  "data:import": { models: [], system: ["data:import"] },
  "data:export": { models: [], system: ["data:export"] },
  "roles:write": { models: [], system: ["role:manage"] },
  "plugins:use": { models: [], system: ["site:plugins"] },
};

/**
 * What the creator must hold **now** for a scope to be granted. `model`: on at least one model in
 * the credential's scope, every group is met by one of its operations. `system`: at least one of
 * these system permissions. A scope with both is held when either is met.
 */
export interface ScopeNeed {
  model?: readonly (readonly ModelOperation[])[];
  system?: readonly SystemPermission[];
}

const UPDATE: readonly ModelOperation[] = ["update", "update:own"];

/** The grant rule of each scope (docs/management-credentials.md, "Grant rules"). */
export const SCOPE_NEEDS: Readonly<Record<Scope, ScopeNeed>> = {
  "content:read": { model: [["read"]] },
  "content:write": { model: [["create", ...UPDATE]] },
  "content:propose": { model: [["read"]] },
  "pages:write": { model: [UPDATE] },
  "media:write": { system: ["media:upload", "media:update", "media:delete"] },
  "lifecycle:publish": { model: [UPDATE, ["publish", "unpublish"]] },
  "content:trash": { model: [["delete"]] },
  "content:purge": { model: [["delete"]] },
  "workflow:move": { model: [UPDATE] },
  "workflow:assign": { model: [UPDATE] },
  "settings:write": { system: ["site:settings"] },
  "schema:propose": { system: ["model:apply"] },
  "schema:write": { system: ["model:apply"] },
  "data:import": { system: ["data:import"] },
  "data:export": { system: ["data:export"] },
  "roles:write": { system: ["role:manage"] },
  // A launch or run is checked against the creator like the same action in the admin; granting
  // the scope needs site content to act on, or the site-wide plugin permission.
  "plugins:use": { model: [["read"]], system: ["site:plugins"] },
};

/**
 * The widest permission set a credential with these scopes and models may ever act with.
 * `content:read` is always included. Model operations go on each of `modelIds`, or on `"*"` when
 * the credential names no models (`null` / `undefined`). No limits: the creator's field and
 * language limits come through the intersection unchanged.
 */
export function scopeCeiling(scopes: readonly Scope[], modelIds?: readonly string[] | null): PermissionSet {
  const ops = new Set<ModelOperation>();
  const system = new Set<SystemPermission>();
  for (const scope of normaliseScopes(scopes)) {
    for (const op of SCOPE_CEILING[scope].models) ops.add(op);
    for (const permission of SCOPE_CEILING[scope].system) system.add(permission);
  }
  const operations = ALL_MODEL_OPERATIONS.filter((op) => ops.has(op));
  const keys = modelIds === undefined || modelIds === null ? [EVERY_MODEL] : [...new Set(modelIds)];
  const models: Record<string, ModelOperation[]> = {};
  if (operations.length > 0) for (const key of keys) models[key] = [...operations];
  return { models, system: ALL_SYSTEM_PERMISSIONS.filter((p) => system.has(p)) };
}

/** What a grant asks for that its creator does not hold now (both empty: the grant may be made). */
export interface GrantProblems {
  /** Scopes whose need the creator does not meet, in canonical order. */
  scopes: Scope[];
  /** Named models the creator may not read, in the order given. */
  model_ids: string[];
}

/** Whether, on at least one of `candidates` (model ids or `"*"`), `creator` meets every group of operations. */
export function meetsModelNeed(creator: PermissionSet, groups: readonly (readonly ModelOperation[])[], candidates: readonly string[]): boolean {
  return candidates.some((modelId) => {
    const held = new Set(modelOperations(creator, modelId));
    return groups.every((group) => group.some((op) => held.has(op)));
  });
}

/**
 * Which of the asked scopes and models the creator does not hold now, for `422 grant_not_held`.
 *
 * - A scope is held when the creator meets its {@link SCOPE_NEEDS} entry. Model needs are looked for
 *   on the credential's models, or — when it names none (`null` / `undefined`) — on `"*"` and every
 *   model of the site (`siteModelIds`). `content:read` is always asked for.
 * - A named model is held when the creator has `read` on it.
 *
 * Whether the model ids exist on the site is the caller's check (`unknown_model`), made first.
 */
export function grantProblems(
  creator: PermissionSet,
  scopes: readonly Scope[],
  modelIds: readonly string[] | null | undefined,
  siteModelIds: readonly string[],
): GrantProblems {
  const named = modelIds === undefined || modelIds === null ? null : [...new Set(modelIds)];
  const candidates = named ?? [EVERY_MODEL, ...siteModelIds];
  const asked = new Set(normaliseScopes(scopes));
  const missingScopes = ALL_SCOPES.filter((scope) => {
    if (!asked.has(scope)) return false;
    const need = SCOPE_NEEDS[scope];
    const byModel = need.model !== undefined && meetsModelNeed(creator, need.model, candidates);
    const bySystem = need.system !== undefined && need.system.some((p) => hasSystemPermission(creator, p));
    return !byModel && !bySystem;
  });
  const missingModels = (named ?? []).filter((modelId) => !modelOperations(creator, modelId).includes("read"));
  return { scopes: missingScopes, model_ids: missingModels };
}

/**
 * Spec 2 rule 15: the model operations a credential may put into a role, by the scope that
 * authors them — "without content:write it cannot give update; without lifecycle:publish it cannot
 * give content:publish". Scopes that only *use* `update` (moves, assignment, pages) do not let a
 * credential hand it out. `read` is always within reach (every credential holds content:read).
 */
const ROLE_GRANTABLE_BY_SCOPE: Readonly<Partial<Record<Scope, readonly ModelOperation[]>>> = {
  "content:read": ["read"],
  "content:write": ["create", "update", "update:own", "restore"],
  "lifecycle:publish": ["publish", "unpublish"],
  "content:trash": ["delete"],
  "content:purge": ["delete"],
};

/** Operations of `set` a credential with `scopes` may not hand out in a role, each with the scope it lacks. */
export function roleOperationsBeyondScopes(scopes: readonly string[], set: PermissionSet): string[] {
  const grantable = new Set<ModelOperation>();
  for (const scope of scopes) for (const op of ROLE_GRANTABLE_BY_SCOPE[scope as Scope] ?? []) grantable.add(op);
  const reasons: string[] = [];
  const needs: Partial<Record<ModelOperation, string>> = { create: "content:write", update: "content:write", "update:own": "content:write", restore: "content:write", publish: "lifecycle:publish", unpublish: "lifecycle:publish", delete: "content:trash" };
  for (const [modelId, ops] of Object.entries(set.models)) {
    for (const op of ops) {
      if (!grantable.has(op)) reasons.push(`"${op}" on model "${modelId}" needs the ${needs[op] ?? "content:write"} scope to be handed out`);
    }
  }
  return reasons;
}
