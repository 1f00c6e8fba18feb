import { ALL_LANGUAGE_ACTIONS, decide, modelOperations, readableFieldIds, writableFieldIds } from "../../auth/permissions";
import { modelRepository } from "../../repositories/model-repository";
import type { LifecycleContext } from "../lifecycle/context";
import type { PermissionSet } from "../../../schema/permissions";

/** What a person may do on a site, worked out by the service so a client need not re-derive it. */
export interface EffectivePermissions {
  person_id: string;
  permissions: PermissionSet;
  /** Per model the person may read: operations held, and the field ids field limits let them read and write. */
  models: { model_id: string; operations: string[]; readable_field_ids: string[]; writable_field_ids: string[] }[];
  /** Per language action, the site's languages it may be done in. */
  languages: Record<string, string[]>;
}

/**
 * The actor's effective permissions on the context's site (docs/admin-ui-content.md, "Read-only
 * fields"): the same pure answers (`shared/auth/permissions.ts`) the services decide writes with.
 * Only models the actor may read are listed; a write may still be refused for ownership
 * (`update:own`), which the entry's owner decides.
 */
export async function effectivePermissions(ctx: LifecycleContext): Promise<EffectivePermissions> {
  const set = ctx.actor.permissions;
  const models = (await modelRepository(ctx.db, ctx.scope).list()).filter((m) => decide(set, { operation: "read", modelId: m.id }).allowed);
  const languages: Record<string, string[]> = {};
  for (const action of ALL_LANGUAGE_ACTIONS) {
    const limit = set.limits?.languages?.[action];
    languages[action] = ctx.site.languages.filter((lang) => limit === undefined || limit.includes(lang));
  }
  return {
    person_id: ctx.actor.id,
    permissions: set,
    models: models.map((m) => {
      const ids = m.fields.map((f) => f.id);
      return { model_id: m.id, operations: modelOperations(set, m.id), readable_field_ids: readableFieldIds(set, m.id, ids), writable_field_ids: writableFieldIds(set, m.id, ids) };
    }),
    languages,
  };
}
