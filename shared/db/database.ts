import type { Insertable, Selectable } from "kysely";
import type { SitesTable, SiteHostsTable, OpsClaimsTable, PersonsTable, SessionsTable, PasswordResetsTable, RolesTable, MembershipsTable, InvitationsTable, SigningKeysTable, SiteApiTokensTable, BackendReadTokensTable, ManagementCredentialsTable, PluginInstallationsTable, SiteDatabasesTable, OAuthClientsTable, OAuthRegistrationCountsTable, OAuthConnectionsTable, OAuthCodesTable, OAuthTokensTable, PluginDelegationsTable, PluginLaunchCodesTable } from "./tables-directory";
import type { ModelsTable, EntriesTable, VersionsTable, RelationLinksTable, RelationHeadsTable, PublishedItemsTable, PublishedRelationsTable, ServedItemsTable, EntryProposalsTable, ModelProposalsTable, WebhooksTable, UniqueValuesTable, SyncChangesTable, SavedQueriesTable, MenusTable, CommentsTable, SchedulesTable, ReleasesTable, RecoveryDraftsTable, RedirectsTable } from "./tables-content";
import type { MediaTable, MediaFoldersTable, MediaObjectsTable, MediaOriginalsTable, MediaUsageTable, PublishedMediaTable } from "./tables-media";
import type { AuditLogTable, OutboxEventsTable, IdempotencyResultsTable, BatchGuardsTable, EventDeliveriesTable } from "./tables-records";

/**
 * The D1 schema (migrations/d1) as kysely sees it: every table by name. The row types live by
 * where they are kept — tables-directory.ts (control database), tables-content.ts and tables-media.ts (a site's
 * database), tables-records.ts (beside the change they record) — as shared/db/tables.ts lists them.
 */
export interface Database {
  batch_guards: BatchGuardsTable;
  sites: SitesTable;
  site_databases: SiteDatabasesTable;
  site_hosts: SiteHostsTable;
  ops_claims: OpsClaimsTable;
  persons: PersonsTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
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
  served_items: ServedItemsTable;
  audit_log: AuditLogTable;
  outbox_events: OutboxEventsTable;
  idempotency_results: IdempotencyResultsTable;
  signing_keys: SigningKeysTable;
  site_api_tokens: SiteApiTokensTable;
  backend_read_tokens: BackendReadTokensTable;
  management_credentials: ManagementCredentialsTable;
  entry_proposals: EntryProposalsTable;
  model_proposals: ModelProposalsTable;
  plugin_installations: PluginInstallationsTable;
  webhooks: WebhooksTable;
  event_deliveries: EventDeliveriesTable;
  plugin_delegations: PluginDelegationsTable;
  plugin_launch_codes: PluginLaunchCodesTable;
  unique_values: UniqueValuesTable;
  sync_changes: SyncChangesTable;
  saved_queries: SavedQueriesTable;
  menus: MenusTable;
  comments: CommentsTable;
  schedules: SchedulesTable;
  releases: ReleasesTable;
  recovery_drafts: RecoveryDraftsTable;
  redirects: RedirectsTable;
  oauth_clients: OAuthClientsTable;
  oauth_registration_counts: OAuthRegistrationCountsTable;
  oauth_connections: OAuthConnectionsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
}

export type SiteRow = Selectable<SitesTable>;
export type PersonRow = Selectable<PersonsTable>;
export type RoleRow = Selectable<RolesTable>;
export type ModelRow = Selectable<ModelsTable>;
export type EntryRow = Selectable<EntriesTable>;
export type NewEntryRow = Insertable<EntriesTable>;
export type VersionRow = Selectable<VersionsTable>;
export type ScheduleRow = Selectable<SchedulesTable>;
export type ReleaseRow = Selectable<ReleasesTable>;
export type RecoveryDraftRow = Selectable<RecoveryDraftsTable>;
export type RedirectRow = Selectable<RedirectsTable>;
export type MediaRow = Selectable<MediaTable>;
export type PublishedItemRow = Selectable<PublishedItemsTable>;

export type * from "./tables-directory";
export type * from "./tables-content";
export type * from "./tables-media";
export type * from "./tables-records";
