import type { ModelOperation, PermissionSet } from "../../schema/permissions";
import { PLUGIN_CAPABILITIES, type PluginCapability } from "../../schema/plugin-manifest";
import { hasSystemPermission, readsWholeModel } from "./permissions";
import { meetsModelNeed, type ScopeNeed } from "./scope-ceiling";

/**
 * What a person may hand to something that acts without them — a site API token, a plugin
 * installation's grant — is bounded by what they hold now, as a management credential's grant is
 * (`grantProblems` in `scope-ceiling.ts`, spec 2: "Only what the creator holds now can be
 * granted"). A refusal is 422 `grant_not_held` naming what is not held. See docs/permissions.md,
 * "Grants beyond the granter".
 */

/** The model id that stands for every model (as in permission sets). */
const EVERY_MODEL = "*";

const UPDATE: readonly ModelOperation[] = ["update", "update:own"];

/**
 * What the granter must hold for each plugin capability, following the model operation or system
 * permission the capability uses (spec 2 rule 11 maps scopes to these capabilities). `media:read`
 * needs nothing: the media library is site-wide, readable by every member.
 */
export const CAPABILITY_NEEDS: Readonly<Record<PluginCapability, ScopeNeed>> = {
  "content:read": { model: [["read"]] },
  "workflow:read": { model: [["read"]] },
  "workflow:publish": { model: [["publish"]] },
  "workflow:unpublish": { model: [["unpublish"]] },
  "workflow:locale": { model: [["publish", "unpublish"]] },
  "content:write": { model: [UPDATE] },
  "content:create": { model: [["create"]] },
  "draft:write": { model: [UPDATE] },
  "content:delete": { model: [["delete"]] },
  "content:propose": { model: [["read"]] },
  "media:read": {},
  "media:write": { system: ["media:upload"] },
  "media:update": { system: ["media:update"] },
  "media:source": { system: ["media:upload"] },
};

/**
 * Of `modelIds`, those the granter does not read whole now (in the order given): not readable, or
 * readable only in some fields or languages. A site token or a plugin serves every field and
 * language of what it is given, so a partly read model would hand over what the granter cannot see.
 */
export function modelsNotHeld(granter: PermissionSet, modelIds: readonly string[]): string[] {
  return modelIds.filter((modelId) => !readsWholeModel(granter, modelId));
}

/** What a plugin grant asks for that the granting person does not hold now (both empty: it may be made). */
export interface PluginGrantProblems {
  capabilities: PluginCapability[];
  model_ids: string[];
}

/**
 * A capability is held when its need is met on at least one granted model (or, with no model
 * granted, on `"*"` or any model of the site), or by one of its system permissions — the same rule
 * as a credential's scope. Every granted model must be readable by the granter.
 */
export function pluginGrantProblems(
  granter: PermissionSet,
  capabilities: readonly PluginCapability[],
  modelIds: readonly string[],
  siteModelIds: readonly string[],
): PluginGrantProblems {
  const candidates = modelIds.length > 0 ? modelIds : [EVERY_MODEL, ...siteModelIds];
  const asked = new Set(capabilities);
  const missing = PLUGIN_CAPABILITIES.filter((capability) => {
    if (!asked.has(capability)) return false;
    const need = CAPABILITY_NEEDS[capability];
    if (need.model === undefined && need.system === undefined) return false;
    const byModel = need.model !== undefined && meetsModelNeed(granter, need.model, candidates);
    const bySystem = need.system !== undefined && need.system.some((p) => hasSystemPermission(granter, p));
    return !byModel && !bySystem;
  });
  return { capabilities: missing, model_ids: modelsNotHeld(granter, modelIds) };
}
