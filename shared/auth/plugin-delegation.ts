import type { Kysely } from "kysely";
import * as v from "valibot";
import { ALL_MODEL_OPERATIONS } from "./permissions";
import type { PermissionSet } from "../../schema/permissions";
import type { PluginCapability } from "../../schema/plugin-manifest";
import { Scope } from "../../schema/scopes";
import type { Database, PluginDelegationsTable, PluginInstallationsTable } from "../db/database";
import { AppError } from "../errors";
import type { Actor } from "../services/lifecycle/context";
import { installationGrant } from "../services/plugins";
import { intersectPermissionSets } from "./permissions";
import { personAuthority } from "./person-authority";
import { scopeCeiling } from "./scope-ceiling";

/**
 * A delegation turned into the person a plugin acts for, re-read on every use (docs/plugins.md,
 * "Launches and delegations"): the delegation is this installation's and unexpired; the person is
 * active and a member of the site; the credential launched through (if any) is not revoked and
 * still the person's. Permissions = the person's role now ∩ the credential's scopes and models now
 * ∩ the installation's granted models now. Every refusal is 403 requester_unauthorized.
 */

export interface Delegate {
  delegation: PluginDelegationsTable;
  actor: Actor;
  /** Delegated capabilities still inside the installation's grant. */
  capabilities: PluginCapability[];
  /** Models the delegation may touch: the grant ∩ the credential's models. */
  modelIds: string[];
  /** What was read, so a write can guard that none of it changed before it commits. */
  basis: AuthorityBasis;
}

/** The rows an authority decision rested on (shared/services/plugin-transitions.ts guards them). */
export interface AuthorityBasis {
  installationId: string;
  grantedCapabilities: string;
  grantedModelIds: string;
  delegationId: string;
  personId: string;
  roleId: string;
  roleRevision: number;
  credentialId: string | null;
}

const StoredScopes = v.array(Scope);
const StoredIds = v.nullable(v.array(v.string()));

function refused(message: string): AppError {
  return new AppError("requester_unauthorized", message);
}

/** Every operation on each granted model: the ceiling a plugin's grant puts on a person. */
function grantCeiling(modelIds: readonly string[]): PermissionSet {
  const models: Record<string, (typeof ALL_MODEL_OPERATIONS)[number][]> = {};
  for (const id of modelIds) models[id] = [...ALL_MODEL_OPERATIONS];
  return { models, system: [] };
}

/** The delegation `delegationId` of `installation`, as the person it stands for now. */
export async function resolveDelegation(db: Kysely<Database>, installation: PluginInstallationsTable, delegationId: string, now: number): Promise<Delegate> {
  const delegation = await db
    .selectFrom("plugin_delegations")
    .selectAll()
    .where("id", "=", delegationId)
    .where("site_id", "=", installation.site_id)
    .where("installation_id", "=", installation.id)
    .executeTakeFirst();
  if (!delegation || delegation.expires_at <= now) throw refused("The delegation is unknown or has expired; the person must launch the plugin again.");

  const authority = await personAuthority(db, delegation.person_id, installation.site_id);
  if (!authority.ok) throw refused("The person who launched the plugin no longer has access to this site.");

  const grant = installationGrant(installation);
  let permissions = intersectPermissionSets(authority.actor.permissions, grantCeiling(grant.model_ids));
  let modelIds = grant.model_ids;
  if (delegation.credential_id !== null) {
    // Launched through a management credential (mcr_…) or an OAuth connection (con_…, docs/oauth.md).
    const credential = delegation.credential_id.startsWith("con_")
      ? await db
          .selectFrom("oauth_connections")
          .select(["scopes", "person_id as created_by", "revoked_at"])
          .where("id", "=", delegation.credential_id)
          .where("site_id", "=", installation.site_id)
          .executeTakeFirst()
          .then((found) => found && { ...found, model_ids: null })
      : await db
          .selectFrom("management_credentials")
          .select(["scopes", "model_ids", "created_by", "revoked_at"])
          .where("id", "=", delegation.credential_id)
          .where("site_id", "=", installation.site_id)
          .executeTakeFirst();
    if (!credential || credential.revoked_at !== null || credential.created_by !== delegation.person_id) {
      throw refused("The credential the plugin was launched with has been revoked.");
    }
    const scopes = v.parse(StoredScopes, JSON.parse(credential.scopes));
    const credentialModels = v.parse(StoredIds, credential.model_ids === null ? null : JSON.parse(credential.model_ids));
    permissions = intersectPermissionSets(permissions, scopeCeiling(scopes, credentialModels));
    if (credentialModels !== null) modelIds = modelIds.filter((id) => credentialModels.includes(id));
  }
  const delegated = new Set(JSON.parse(delegation.capabilities) as PluginCapability[]);
  const capabilities = grant.capabilities.filter((c) => delegated.has(c));
  return {
    delegation,
    actor: { kind: "plugin", id: delegation.person_id, installationId: installation.id, permissions },
    capabilities,
    modelIds,
    basis: {
      installationId: installation.id,
      grantedCapabilities: installation.granted_capabilities,
      grantedModelIds: installation.granted_model_ids,
      delegationId: delegation.id,
      personId: delegation.person_id,
      roleId: authority.role.id,
      roleRevision: authority.role.revision,
      credentialId: delegation.credential_id,
    },
  };
}
