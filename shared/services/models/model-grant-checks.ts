import { AppError } from "../../errors";
import type { PermissionSet } from "../../../schema/permissions";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * Refusals of a model apply that would leave grants pointing at nothing: roles naming a removed
 * model or field (stale_role_grant), tokens and credentials scoped to a removed model (stale_token_scope).
 */
/** A role naming a model or fields a model apply would remove. */
interface StaleRole {
  id: string;
  slug: string;
  field_ids: string[];
}

/**
 * Roles of the site that would name the removed model (in `models` or `limits.fields`), or the
 * removed fields of it (in `limits.fields[model | "*"].read|write`) → 409 stale_role_grant.
 */
export async function checkRoleGrants(ctx: LifecycleContext, modelId: string, removedFieldIds: readonly string[] | "model"): Promise<void> {
  const rows = await ctx.db.selectFrom("roles").select(["id", "slug", "permissions"]).where("site_id", "=", ctx.site.id).orderBy("slug").execute();
  const stale: StaleRole[] = [];
  for (const row of rows) {
    const permissions = JSON.parse(row.permissions) as PermissionSet;
    const fieldLimits = permissions.limits?.fields ?? {};
    if (removedFieldIds === "model") {
      if (Object.hasOwn(permissions.models, modelId) || Object.hasOwn(fieldLimits, modelId)) stale.push({ id: row.id, slug: row.slug, field_ids: [] });
      continue;
    }
    const gone = new Set(removedFieldIds);
    const named = new Set<string>();
    for (const key of [modelId, "*"]) {
      const limit = Object.hasOwn(fieldLimits, key) ? fieldLimits[key] : undefined;
      for (const id of [...(limit?.read ?? []), ...(limit?.write ?? [])]) if (gone.has(id)) named.add(id);
    }
    if (named.size > 0) stale.push({ id: row.id, slug: row.slug, field_ids: [...named] });
  }
  if (stale.length === 0) return;
  const roles = stale.map((r) => ({ id: r.id, slug: r.slug }));
  const slugs = stale.map((r) => `"${r.slug}"`).join(", ");
  if (removedFieldIds === "model") {
    throw new AppError("stale_role_grant", `Roles ${slugs} still name this model; change those roles first, then remove the model.`, { roles, model_id: modelId });
  }
  const fieldIds = [...new Set(stale.flatMap((r) => r.field_ids))];
  throw new AppError("stale_role_grant", `Roles ${slugs} still list removed fields in their field limits; change those roles first, then remove the fields.`, { roles, model_id: modelId, field_ids: fieldIds });
}

/** Live site API tokens and management credentials scoped to the model → 409 stale_token_scope. */
export async function checkTokenScopes(ctx: LifecycleContext, modelId: string): Promise<void> {
  const named = (table: "site_api_tokens" | "management_credentials") =>
    ctx.d1
      .prepare(`SELECT id FROM ${table} WHERE site_id = ? AND revoked_at IS NULL AND model_ids IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${table}.model_ids) j WHERE j.value = ?) ORDER BY created_at, id`)
      .bind(ctx.site.id, modelId)
      .all<{ id: string }>();
  const siteTokens = (await named("site_api_tokens")).results.map((r) => r.id);
  const credentials = (await named("management_credentials")).results.map((r) => r.id);
  if (siteTokens.length === 0 && credentials.length === 0) return;
  throw new AppError("stale_token_scope", "Live site API tokens or management credentials are scoped to this model; revoke or replace them first, then remove the model.", {
    site_tokens: siteTokens,
    management_credentials: credentials,
  });
}
