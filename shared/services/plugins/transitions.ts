import type { CompiledQuery } from "kysely";
import type { AuthorityBasis } from "../../auth/plugin-delegation";
import { guard } from "../../db/batch";
import type { EntryView, LifecycleContext, PublishInput, UnpublishInput, WritePlan } from "../lifecycle";
import { publishEntry, unpublishEntry } from "../lifecycle";

/**
 * A plugin's publish or unpublish (docs/plugins.md, "Protocol v1"): the lifecycle's own plan, plus
 * guards in the same batch that every row the authority decision rested on is unchanged at commit
 * — the installation is active with the same grant, the delegation is unexpired, the person is
 * active and a member with the same role at the same revision, the credential is not revoked.
 * The checks run in the worker before the command waits in the site's write queue; these guards
 * close the window between those reads and the commit, so a disable, revoke or role change that
 * lands meanwhile writes nothing.
 */

export interface PluginTransitionInput<C> {
  instance_id: string;
  command: C;
  basis: AuthorityBasis;
  /** When the checks ran (ms): the delegation must still be unexpired at commit. */
  checked_at: number;
}

function authorityGuards(ctx: LifecycleContext, basis: AuthorityBasis, checkedAt: number): CompiledQuery[] {
  const guards = [
    guard(ctx.db, "capability_refused", "EXISTS (SELECT 1 FROM plugin_installations WHERE id = ? AND site_id = ? AND state = 'active' AND granted_capabilities = ? AND granted_model_ids = ?)", [
      basis.installationId,
      ctx.site.id,
      basis.grantedCapabilities,
      basis.grantedModelIds,
    ]),
    guard(ctx.db, "requester_unauthorized", "EXISTS (SELECT 1 FROM plugin_delegations WHERE id = ? AND installation_id = ? AND expires_at > ?)", [basis.delegationId, basis.installationId, checkedAt]),
    guard(
      ctx.db,
      "requester_unauthorized",
      `EXISTS (SELECT 1 FROM memberships m JOIN persons p ON p.id = m.person_id JOIN roles r ON r.id = m.role_id AND r.site_id = m.site_id
               WHERE m.site_id = ? AND m.person_id = ? AND m.active = 1 AND p.active = 1 AND r.id = ? AND r.revision = ?)`,
      [ctx.site.id, basis.personId, basis.roleId, basis.roleRevision],
    ),
  ];
  if (basis.credentialId !== null) {
    const table = basis.credentialId.startsWith("con_") ? "oauth_connections" : "management_credentials";
    guards.push(guard(ctx.db, "requester_unauthorized", `EXISTS (SELECT 1 FROM ${table} WHERE id = ? AND revoked_at IS NULL)`, [basis.credentialId]));
  }
  return guards;
}

function guarded(ctx: LifecycleContext, plan: WritePlan<EntryView>, input: PluginTransitionInput<unknown>): WritePlan<EntryView> {
  return {
    ...plan,
    statements: [...authorityGuards(ctx, input.basis, input.checked_at), ...plan.statements],
    audit: { ...plan.audit, details: { ...(plan.audit.details ?? {}), installation_id: input.basis.installationId, delegation_id: input.basis.delegationId } },
  };
}

export async function pluginPublish(ctx: LifecycleContext, input: PluginTransitionInput<Omit<PublishInput, "instance_id">>): Promise<WritePlan<EntryView>> {
  return guarded(ctx, await publishEntry(ctx, { ...input.command, instance_id: input.instance_id }), input);
}

export async function pluginUnpublish(ctx: LifecycleContext, input: PluginTransitionInput<Omit<UnpublishInput, "instance_id">>): Promise<WritePlan<EntryView>> {
  return guarded(ctx, await unpublishEntry(ctx, { ...input.command, instance_id: input.instance_id }), input);
}
