import type { Generated, Insertable, Selectable } from "kysely";

/** Row types of the D1 schema (migrations/d1). JSON columns are text here; services parse them. */
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

export interface ModelsTable {
  id: string;
  site_id: string;
  slug: string;
  name: string;
  description: string | null;
  kind: "collection" | "single";
  is_public: number;
  i18n: number;
  definition: string;
  folder: string | null;
  manual_order: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface EntriesTable {
  instance_id: string;
  site_id: string;
  model_id: string;
  primary_instance_id: string;
  translation_group_id: string;
  lang: string;
  slug: string | null;
  label: string | null;
  current_version_id: string | null;
  published_version_id: string | null;
  published_at: string | null;
  first_published_at: string | null;
  workflow_state: string;
  workflow_revision: number;
  owner_id: string | null;
  assignee_ids: string;
  trashed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface VersionsTable {
  id: string;
  site_id: string;
  instance_id: string;
  number: number;
  slug: string | null;
  label: string | null;
  fields: string;
  model_revision: number;
  created_by: string | null;
  restored_from: string | null;
  created_at: string;
}

export interface RelationLinksTable {
  site_id: string;
  version_id: string;
  source_instance_id: string;
  field_id: string;
  position: number;
  target_instance_id: string;
  target_group_id: string;
}

/** Links of each entry language's current draft, by target (0024_related_from.sql). */
export interface RelationHeadsTable {
  site_id: string;
  target_group_id: string;
  source_instance_id: string;
  field_id: string;
}

export interface MediaTable {
  id: string;
  site_id: string;
  object_key: string;
  kind: "image" | "document" | "audio" | "video" | "file";
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt_texts: string;
  default_focal: string | null;
  loading: string;
  fetch_priority: string;
  folder_id: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  /** JSON array of strings (migrations/d1/0014_media_library.sql). */
  tags: Generated<string>;
  credit: Generated<string | null>;
  edited_from: Generated<string | null>;
  created_by: Generated<string | null>;
}

/** A media folder (migrations/d1/0015_media_folders.sql; docs/media.md). */
export interface MediaFoldersTable {
  id: string;
  site_id: string;
  parent_id: string | null;
  name: string;
  /** lower(name): unique under a parent regardless of case. */
  name_key: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface PublishedItemsTable {
  site_id: string;
  instance_id: string;
  model_id: string;
  translation_group_id: string;
  lang: string;
  slug: string | null;
  label: string | null;
  version_id: string;
  published_at: string;
  sort_at: string;
  manual_position: Generated<number>;
  body: string;
  mentions: string;
}

export interface PublishedRelationsTable {
  site_id: string;
  instance_id: string;
  model_id: string;
  lang: string;
  field: string;
  target_group_id: string;
  target_slug: string | null;
  translation_group_id: string;
  sort_at: string;
}

/** Every R2 object a media item has had (migrations/d1/0016_media_objects.sql). */
export interface MediaObjectsTable {
  object_key: string;
  site_id: string;
  media_id: string;
  role: "file" | "original";
  lang: string | null;
  byte_length: number;
  mime_type: string;
  created_at: string;
}

/** One override original per media item and language (migrations/d1/0021_media_originals.sql). */
export interface MediaOriginalsTable {
  site_id: string;
  media_id: string;
  lang: string;
  object_key: string;
  file_name: string;
  mime_type: string;
  byte_length: number;
  sha256: string;
  width: number | null;
  height: number | null;
  created_by: string | null;
  created_at: string;
}

/** Media objects pinned by published items (migrations/d1/0017_published_media.sql). */
/**
 * Media a version references (docs/media.md, "Usage"): written in the batch of the version, one row
 * per version, field and media id; immutable like the version.
 */
export interface MediaUsageTable {
  site_id: string;
  version_id: string;
  instance_id: string;
  media_id: string;
  field_id: string;
  /** 'field' (a media field's value) | 'rich_text' (an `<img src="/media/{id}/…">` in a rich-text field) */
  source: string;
}

export interface PublishedMediaTable {
  site_id: string;
  instance_id: string;
  media_id: string;
  object_key: string;
  /** The file name the address names (0020). */
  file_name: string;
}

export interface AuditLogTable {
  id: string;
  site_id: string;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  credential_id: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  details: string;
}

export interface OutboxEventsTable {
  id: string;
  site_id: string;
  name: string;
  payload: string;
  created_at: string;
  enqueued_at: string | null;
}

export interface IdempotencyResultsTable {
  site_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
  expires_at: string;
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

export interface EntryProposalsTable {
  id: string;
  site_id: string;
  instance_id: string;
  base_version_id: string;
  fields: string;
  original_fields: string;
  note: string | null;
  source: string;
  state: "open" | "applied" | "rejected";
  revision: number;
  created_by: string;
  decided_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ModelProposalsTable {
  id: string;
  site_id: string;
  mode: "create" | "update";
  model_id: string | null;
  base_updated_at: string | null;
  definition: string;
  note: string | null;
  source: string;
  state: "open" | "applied" | "dismissed";
  changes: string;
  revision: number;
  created_by: string;
  decided_by: string | null;
  created_at: string;
  updated_at: string;
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

export interface BatchGuardsTable {
  reason: string;
}

export interface WebhooksTable {
  id: string;
  site_id: string;
  url: string;
  /** JSON array of event names, or `["*"]`. */
  events: string;
  /** The signing secret itself (HMAC needs it; docs/events.md). */
  secret: string;
  active: number;
  created_by: string | null;
  created_at: string;
}

export interface EventDeliveriesTable {
  id: string;
  site_id: string;
  event_id: string;
  webhook_id: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string;
  state: "pending" | "delivered" | "dead";
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

export interface Database {
  batch_guards: BatchGuardsTable;
  sites: SitesTable;
  site_databases: SiteDatabasesTable;
  site_hosts: SiteHostsTable;
  persons: PersonsTable;
  sessions: SessionsTable;
  roles: RolesTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  models: ModelsTable;
  entries: EntriesTable;
  versions: VersionsTable;
  relation_links: RelationLinksTable;
  relation_heads: RelationHeadsTable;
  media: MediaTable;
  media_folders: MediaFoldersTable;
  media_objects: MediaObjectsTable;
  published_media: PublishedMediaTable;
  media_originals: MediaOriginalsTable;
  media_usage: MediaUsageTable;
  published_items: PublishedItemsTable;
  published_relations: PublishedRelationsTable;
  audit_log: AuditLogTable;
  outbox_events: OutboxEventsTable;
  idempotency_results: IdempotencyResultsTable;
  signing_keys: SigningKeysTable;
  site_api_tokens: SiteApiTokensTable;
  management_credentials: ManagementCredentialsTable;
  entry_proposals: EntryProposalsTable;
  model_proposals: ModelProposalsTable;
  plugin_installations: PluginInstallationsTable;
  webhooks: WebhooksTable;
  event_deliveries: EventDeliveriesTable;
  plugin_delegations: PluginDelegationsTable;
  plugin_launch_codes: PluginLaunchCodesTable;
  unique_values: UniqueValuesTable;
  oauth_clients: OAuthClientsTable;
  oauth_registration_counts: OAuthRegistrationCountsTable;
  oauth_connections: OAuthConnectionsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
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

/** A unique field's value claimed by one entry language (migrations/d1/0011_unique_values.sql). */
export interface UniqueValuesTable {
  site_id: string;
  model_id: string;
  field_id: string;
  /** '' under `unique: "model"`, the language code under `unique: "language"`. */
  scope: string;
  /** The normalised value (docs/unique-fields.md). */
  value: string;
  translation_group_id: string;
  instance_id: string;
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
  launch_kind: "manage_view" | "content_action";
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

export type SiteRow = Selectable<SitesTable>;
export type PersonRow = Selectable<PersonsTable>;
export type RoleRow = Selectable<RolesTable>;
export type ModelRow = Selectable<ModelsTable>;
export type EntryRow = Selectable<EntriesTable>;
export type NewEntryRow = Insertable<EntriesTable>;
export type VersionRow = Selectable<VersionsTable>;
export type MediaRow = Selectable<MediaTable>;
export type PublishedItemRow = Selectable<PublishedItemsTable>;
