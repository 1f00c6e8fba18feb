/** Row types of the directory tables (the control database, docs/scale.md "More than one database"): sites, hosts, persons, sessions, roles, memberships, credentials, OAuth, plugin installations, signing keys, invitations. JSON columns are text here; services parse them. */
import type { ColumnType } from "kysely";

export interface SitesTable {
  id: string;
  slug: string;
  name: string;
  default_lang: string;
  languages: string;
  settings: string;
  settings_revision: number;
  created_at: string;
  updated_at: string;
  /** Set while an operator has suspended the site (migration 0032); absent from older inserts. */
  suspended_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Idempotency claims of the operators' writes (migration 0032, workers/ops/idempotency.ts). */
export interface OpsClaimsTable {
  key: string;
  fingerprint: string;
  state: "pending" | "completed";
  status: number | null;
  body: string | null;
  claimed_at: string;
  expires_at: string;
}

export interface SiteHostsTable {
  host: string;
  site_id: string;
}

export interface PersonsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  password_salt: string | null;
  password_iterations: number | null;
  is_superadmin: number;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id_digest: string;
  person_id: string;
  csrf_digest: string;
  created_at: string;
  expires_at: string;
  /** `ses_…`, what the person's session list shows and revokes by (never the digest itself). */
  public_id: string | null;
  user_agent: string | null;
}

/** One-time password reset links (docs/people.md, "Password reset"): the token's digest only. */
export interface PasswordResetsTable {
  token_digest: string;
  person_id: string;
  site_id: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  voided_at: string | null;
}

export interface RolesTable {
  id: string;
  site_id: string;
  slug: string;
  name: string;
  description: string | null;
  permissions: string;
  seeded: number;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  site_id: string;
  person_id: string;
  role_id: string;
  active: number;
  created_at: string;
}

/** An invitation to a site (migrations/d1/0027_invitations.sql, docs/people.md). */
export interface InvitationsTable {
  id: string;
  site_id: string;
  email: string;
  role_id: string;
  digest: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

export interface SigningKeysTable {
  id: string;
  purpose: string;
  secret: string;
  created_at: string;
}

export interface SiteApiTokensTable {
  id: string;
  site_id: string;
  name: string;
  digest: string;
  model_ids: string;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** Read tokens of the generated backend (migration 0046, docs/generated-backend.md). */
export interface BackendReadTokensTable {
  id: string;
  site_id: string;
  name: string;
  digest: string;
  models: string;
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface ManagementCredentialsTable {
  id: string;
  site_id: string;
  name: string;
  digest: string;
  /** JSON array of scopes. */
  scopes: string;
  /** JSON array of model ids, or null for every model of the site. */
  model_ids: string | null;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

export interface PluginInstallationsTable {
  id: string;
  site_id: string;
  /** The manifest's id, unique per site. */
  plugin_id: string;
  /** The validated manifest JSON. */
  manifest: string;
  state: "pending" | "active" | "disabled" | "revoked";
  /** JSON array of capabilities. */
  granted_capabilities: string;
  /** JSON array of model ids. */
  granted_model_ids: string;
  token_digest: string;
  previous_token_digest: string | null;
  /** Milliseconds since the epoch. */
  previous_token_expires_at: number | null;
  /** Signs event deliveries to the plugin (needed in clear to sign); null before 0010. */
  event_secret: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The site map (0025): which D1 binding holds a site's content; no row = `DB`. Control database only. */
export interface SiteDatabasesTable {
  site_id: string;
  binding: string;
  created_at: string;
  moved_at: string | null;
}

/** A registered OAuth public client (migrations/d1/0022_oauth.sql); global, not per site. */
export interface OAuthClientsTable {
  id: string;
  client_name: string | null;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  scope: string | null;
  created_at: string;
}

/** Registrations per client address (digest) in fixed windows. */
export interface OAuthRegistrationCountsTable {
  key_digest: string;
  window_started_at: number;
  registrations: number;
}

/** A person's connection of a client to one site, with kept scopes (acts like a management credential). */
export interface OAuthConnectionsTable {
  id: string;
  site_id: string;
  client_id: string;
  person_id: string;
  /** JSON array of scopes. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

/** A one-time authorization code, by digest. */
export interface OAuthCodesTable {
  digest: string;
  client_id: string;
  redirect_uri: string;
  site_id: string;
  person_id: string;
  /** JSON array of scopes. */
  scopes: string;
  code_challenge: string;
  expires_at: number;
  used_at: number | null;
  connection_id: string | null;
}

/** An access or refresh token of a connection, by digest. */
export interface OAuthTokensTable {
  digest: string;
  connection_id: string;
  kind: "access" | "refresh";
  expires_at: number;
  replaced_at: number | null;
}

/** Who a plugin acts for after a launch (migrations/d1/0010_plugin_launches.sql). */
export interface PluginDelegationsTable {
  id: string;
  site_id: string;
  installation_id: string;
  person_id: string;
  credential_id: string | null;
  /** JSON array of the launching credential's scopes; null for a person's own launch. */
  scopes: string | null;
  /** JSON array of the launching credential's models; null for every model. */
  model_ids: string | null;
  /** JSON array of delegated capabilities (within the grant at launch). */
  capabilities: string;
  launch_kind: "manage_view" | "content_action" | "operation";
  launch_target: string;
  instance_id: string | null;
  created_at: string;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

/** A single-use launch code, stored as its digest. */
export interface PluginLaunchCodesTable {
  code_digest: string;
  site_id: string;
  installation_id: string;
  delegation_id: string;
  expires_at: number;
  consumed_at: number | null;
}
