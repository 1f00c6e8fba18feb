import type { Generated } from "kysely";

/** Row types of a site's content tables (the site's database): models, entries, versions, relations, published rows, unique values, proposals, webhooks (media: tables-media.ts). JSON columns are text here; services parse them. */

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
  /** The credential, connection, plugin installation or `import:<job>` that wrote it; null: a person in the admin (migrations/d1/0062). */
  created_via: string | null;
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

/** The served-per-language view of public lists (migration 0051, shared/services/lifecycle/served-view.ts). */
export interface ServedItemsTable {
  site_id: string;
  model_id: string;
  /** The language asked for; the served instance's own language may be a fallback. */
  lang: string;
  /** '' the plain list, 'r:<field>:<target group>', 't:<field>:<target slug>'. */
  list_key: string;
  translation_group_id: string;
  instance_id: string;
  sort_at: string;
  manual_position: number;
  body: string;
  mentions: string;
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

/** The incremental sync's change log (0043, docs/sync.md). */
export interface SyncChangesTable {
  seq: Generated<number>;
  site_id: string;
  kind: "entry" | "deleted" | "media" | "reset";
  ref_id: string;
  model_id: string | null;
  model_slug: string | null;
  lang: string | null;
  body: string | null;
  changed_at: string;
}

/** Comments (0050, docs/comments.md). */
export interface CommentsTable {
  id: string;
  site_id: string;
  model_id: string;
  translation_group_id: string;
  instance_id: string;
  lang: string;
  author_name: string;
  body: string;
  status: "pending" | "approved" | "rejected" | "spam";
  challenge_id: string;
  revision: number;
  moderated_by: string | null;
  moderated_at: string | null;
  created_at: string;
}

/** Menus (0045, docs/menus.md). */
export interface MenusTable {
  id: string;
  site_id: string;
  name: string;
  items: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** Saved queries (0044, docs/saved-queries.md). */
export interface SavedQueriesTable {
  id: string;
  site_id: string;
  name: string;
  model_id: string;
  definition: string;
  revision: number;
  created_at: string;
  updated_at: string;
}

/** Scheduled publishing (migrations/d1/0037_schedules.sql, docs/scheduled-publishing.md). */
export interface SchedulesTable {
  id: string;
  site_id: string;
  translation_group_id: string;
  model_id: string;
  action: "publish" | "unpublish";
  lang: string | null;
  pins: string;
  at: string;
  state: "scheduled" | "done" | "stale" | "failed" | "cancelled";
  outcome_code: string | null;
  outcome_message: string | null;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  fired_at: string | null;
}

/** Releases (migrations/d1/0048_releases.sql, docs/releases.md). */
export interface ReleasesTable {
  id: string;
  site_id: string;
  name: string;
  description: string | null;
  changes: string;
  at: string | null;
  state: "open" | "published" | "stale" | "failed";
  outcome_code: string | null;
  outcome_message: string | null;
  outcome_details: string | null;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

/** Personal recovery drafts (migrations/d1/0049_recovery_drafts.sql, 0057, docs/recovery-drafts.md). */
export interface RecoveryDraftsTable {
  site_id: string;
  person_id: string;
  instance_id: string;
  lang: string;
  field_values: string;
  slug: string | null;
  base_version_id: string | null;
  /** `unsaved`: the admin editor's text kept while typing (migrations/d1/0057_recovery_draft_unsaved.sql). */
  reason: "lock_lost" | "version_conflict" | "unsaved";
  saved_at: string;
  expires_at: string;
}

/** Redirects (migrations/d1/0038_redirects.sql, docs/redirects.md). */
export interface RedirectsTable {
  id: string;
  site_id: string;
  source: string;
  target: string | null;
  status: number;
  note: string | null;
  revision: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}
