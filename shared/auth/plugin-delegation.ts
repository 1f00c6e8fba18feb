import { sql, type Expression, type Kysely } from "kysely";
import * as v from "valibot";
import { ALL_MODEL_OPERATIONS } from "./permissions";
import type { PermissionSet } from "../../schema/permissions";
import type { PluginCapability } from "../../schema/plugin-manifest";
import { Scope } from "../../schema/scopes";
import type { Database, PluginDelegationsTable, PluginInstallationsTable } from "../db/database";
import { AppError } from "../errors";
import type { Actor } from "../services/lifecycle/context";
import { installationGrant } from "../services/plugins/installations";
import { intersectPermissionSets } from "./permissions";
import { authorityFrom, authorityQuery, type AuthorityRow } from "./person-authority";
import { createDb } from "../db/client";
import { readTogether } from "../db/read-together";
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

/** The rows an authority decision rested on (shared/services/plugins/transitions.ts guards them). */
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

/** An id given as a value, or as a subquery of the same batch (the installation the token names). */
type Key = string | Expression<string>;

/** What a delegation decision reads: the delegation, its person's membership, the credential launched through. */
export interface DelegationRows {
  delegation: PluginDelegationsTable | undefined;
  authority: AuthorityRow | undefined;
  credential: LaunchCredentialRow | undefined;
}

interface LaunchCredentialRow {
  scopes: string;
  model_ids: string | null;
  created_by: string;
  revoked_at: string | null;
}

/**
 * The reads of `delegateFrom`, to send in one batch (`readTogether`): the delegation, then its
 * person's membership on the site and the credential it was launched through (a management
 * credential or an OAuth connection: both are asked, the id's prefix picks), keyed through
 * subqueries on the delegation. Any key may itself be a subquery (shared/auth/plugin-request-reads.ts).
 */
export function delegationReads(db: Kysely<Database>, delegationId: Key, installationId: Key, siteId: Key) {
  const named = db.selectFrom("plugin_delegations").where("id", "=", delegationId).where("site_id", "=", siteId).where("installation_id", "=", installationId);
  const person = sql<string>`(${named.select("person_id")})`;
  const credentialId = sql<string>`(${named.select("credential_id")})`;
  return [
    named.selectAll().compile(),
    authorityQuery(db, person, siteId).compile(),
    db.selectFrom("management_credentials").select(["scopes", "model_ids", "created_by", "revoked_at"]).where("id", "=", credentialId).where("site_id", "=", siteId).compile(),
    db
      .selectFrom("oauth_connections")
      .select(["scopes", sql<null>`NULL`.as("model_ids"), "person_id as created_by", "revoked_at"])
      .where("id", "=", credentialId)
      .where("site_id", "=", siteId)
      .compile(),
  ] as const;
}

/** The answers of a `delegationReads` batch (in its order) as the rows a decision rests on. */
export function delegationRowsOf(answers: readonly [unknown[], unknown[], unknown[], unknown[]]): DelegationRows {
  const delegation = answers[0][0] as PluginDelegationsTable | undefined;
  const credentialId = delegation?.credential_id ?? null;
  // Launched through a management credential (mcr_…) or an OAuth connection (con_…, docs/oauth.md).
  const credentials = (credentialId?.startsWith("con_") ? answers[3] : answers[2]) as LaunchCredentialRow[];
  return { delegation, authority: answers[1][0] as AuthorityRow | undefined, credential: credentialId === null ? undefined : credentials[0] };
}

/** The delegation `delegationId` of `installation`, as the person it stands for now (one D1 batch). */
export async function resolveDelegation(d1: D1Database, installation: PluginInstallationsTable, delegationId: string, now: number): Promise<Delegate> {
  const db = createDb(d1);
  const answers = await readTogether(d1, delegationReads(db, delegationId, installation.id, installation.site_id));
  return delegateFrom(db, installation, delegationRowsOf(answers), now);
}

/**
 * The decision of `resolveDelegation` over rows already read, refusals in the same order: the
 * delegation (unknown, another installation's, expired), the person's authority, the credential.
 */
export async function delegateFrom(db: Kysely<Database>, installation: PluginInstallationsTable, rows: DelegationRows, now: number): Promise<Delegate> {
  const { delegation } = rows;
  if (!delegation || delegation.expires_at <= now) throw refused("The delegation is unknown or has expired; the person must launch the plugin again.");

  // Without a membership row the person's own flag would only choose between two refusals that
  // read the same here, so it is not read.
  const authority = rows.authority ? await authorityFrom(db, delegation.person_id, rows.authority) : undefined;
  if (!authority?.ok) throw refused("The person who launched the plugin no longer has access to this site.");

  const grant = installationGrant(installation);
  let permissions = intersectPermissionSets(authority.actor.permissions, grantCeiling(grant.model_ids));
  let modelIds = grant.model_ids;
  if (delegation.credential_id !== null) {
    const credential = rows.credential;
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
