-- Driftwood core schema. Forward-only: never edit a shipped migration, add a new file.
-- Every tenant row carries site_id, and every index that serves a tenant query starts with it.

-- A statement inserting here aborts its whole D1 batch with "guard:<reason>" (see shared/db/batch.ts).
-- Optimistic checks are written as INSERT … SELECT <reason> WHERE NOT (<condition>).
CREATE TABLE batch_guards (reason TEXT NOT NULL);
CREATE TRIGGER batch_guards_raise BEFORE INSERT ON batch_guards
BEGIN SELECT RAISE(ABORT, 'guard:' || NEW.reason); END;

CREATE TABLE sites (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  default_lang TEXT NOT NULL,
  languages TEXT NOT NULL,            -- JSON array of language codes, default first
  settings TEXT NOT NULL DEFAULT '{}', -- JSON: locale policy, search, embeds, retention, review, validation
  settings_revision INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE site_hosts (
  host TEXT PRIMARY KEY,               -- lower-case, without port
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE
);
CREATE INDEX idx_site_hosts_site ON site_hosts(site_id);

CREATE TABLE persons (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,          -- stored lower-case
  name TEXT NOT NULL,
  password_hash TEXT,                  -- PBKDF2-SHA256, base64url
  password_salt TEXT,
  password_iterations INTEGER,
  is_superadmin INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE sessions (
  id_digest TEXT PRIMARY KEY,          -- SHA-256 of the cookie secret; the secret itself is never stored
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  csrf_digest TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX idx_sessions_person ON sessions(person_id);

CREATE TABLE roles (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  permissions TEXT NOT NULL,           -- JSON PermissionSet: { models, system, limits? }
  seeded INTEGER NOT NULL DEFAULT 0,
  revision INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (site_id, slug)
);

CREATE TABLE memberships (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  role_id TEXT NOT NULL REFERENCES roles(id),
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  PRIMARY KEY (site_id, person_id)
);
CREATE INDEX idx_memberships_person ON memberships(person_id);
CREATE INDEX idx_memberships_role ON memberships(site_id, role_id);

CREATE TABLE models (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  kind TEXT NOT NULL CHECK (kind IN ('collection', 'single')),
  is_public INTEGER NOT NULL DEFAULT 1,
  i18n INTEGER NOT NULL DEFAULT 0,
  definition TEXT NOT NULL,            -- JSON ModelDefinition: { fields: [FieldDefinition] , settings }
  folder TEXT,                         -- display only
  manual_order TEXT,                   -- JSON array of translation_group_id: one order shared by all languages
  revision INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (site_id, slug)
);
CREATE UNIQUE INDEX idx_models_site_name ON models(site_id, name);

-- One row per language instance of an item. The translation group ties languages together;
-- the primary instance is the one the group was created with.
CREATE TABLE entries (
  instance_id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL REFERENCES models(id),
  primary_instance_id TEXT NOT NULL,
  translation_group_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  slug TEXT,
  label TEXT,
  current_version_id TEXT,
  published_version_id TEXT,
  published_at TEXT,                   -- when the published version was published
  first_published_at TEXT,
  workflow_state TEXT NOT NULL DEFAULT 'draft',
  workflow_revision INTEGER NOT NULL DEFAULT 0,
  owner_id TEXT,
  assignee_ids TEXT NOT NULL DEFAULT '[]',
  trashed_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- A slug is an address: unique per model, site and language among entries not in Trash.
CREATE UNIQUE INDEX idx_entries_slug ON entries(site_id, model_id, lang, slug) WHERE slug IS NOT NULL AND trashed_at IS NULL;
CREATE UNIQUE INDEX idx_entries_group_lang ON entries(site_id, translation_group_id, lang);
CREATE INDEX idx_entries_model ON entries(site_id, model_id, lang, instance_id);
CREATE INDEX idx_entries_trash ON entries(site_id, trashed_at) WHERE trashed_at IS NOT NULL;

-- Immutable field snapshots. A save writes a new row; nothing updates one.
CREATE TABLE versions (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  instance_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  slug TEXT,
  label TEXT,
  fields TEXT NOT NULL,                -- JSON object keyed by field id
  model_revision INTEGER NOT NULL,
  created_by TEXT,
  restored_from TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (instance_id, number)
);
CREATE INDEX idx_versions_instance ON versions(site_id, instance_id, number);

-- Ordered relation links written with each version (immutable like it). Dependents of an item
-- are the links held by some entry's current or published version.
CREATE TABLE relation_links (
  site_id TEXT NOT NULL,
  version_id TEXT NOT NULL,
  source_instance_id TEXT NOT NULL,
  field_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  target_instance_id TEXT NOT NULL,
  target_group_id TEXT NOT NULL,
  PRIMARY KEY (version_id, field_id, position)
);
CREATE INDEX idx_relation_links_target ON relation_links(site_id, target_group_id);
CREATE INDEX idx_relation_links_source ON relation_links(site_id, source_instance_id);

CREATE TABLE media (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  object_key TEXT NOT NULL,            -- R2 key: <site_id>/<media id>/<object id>
  kind TEXT NOT NULL CHECK (kind IN ('image', 'document', 'audio', 'video', 'file')),
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  width INTEGER,
  height INTEGER,
  alt_texts TEXT NOT NULL DEFAULT '{}',
  default_focal TEXT,
  loading TEXT NOT NULL DEFAULT 'lazy',
  fetch_priority TEXT NOT NULL DEFAULT 'auto',
  folder_id TEXT,
  revision INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_media_site_sha ON media(site_id, sha256);

-- What the public API serves: one row per published instance, the item JSON ready to send.
-- Rebuilt on publish; deleted on unpublish, Trash and purge. sort_at orders lists (newest first).
CREATE TABLE published_items (
  site_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  model_id TEXT NOT NULL,
  translation_group_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  slug TEXT,
  label TEXT,
  version_id TEXT NOT NULL,
  published_at TEXT NOT NULL,
  sort_at TEXT NOT NULL,               -- first publication time of the translation group
  manual_position INTEGER NOT NULL DEFAULT 2147483647, -- place in the model's manual order; unplaced last
  body TEXT NOT NULL,                  -- JSON public item, private fields already removed
  mentions TEXT NOT NULL DEFAULT '[]', -- JSON array of translation groups the body mentions (cache tags)
  PRIMARY KEY (site_id, instance_id)
);
CREATE INDEX idx_published_list ON published_items(site_id, model_id, lang, sort_at, translation_group_id);
CREATE INDEX idx_published_manual ON published_items(site_id, model_id, lang, manual_position, sort_at, translation_group_id);
CREATE UNIQUE INDEX idx_published_slug ON published_items(site_id, model_id, lang, slug);
CREATE INDEX idx_published_group ON published_items(site_id, translation_group_id, lang);

-- Index for relation= and tag= filters: one row per published instance, relation field and target.
CREATE TABLE published_relations (
  site_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  model_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  field TEXT NOT NULL,                 -- field key as served
  target_group_id TEXT NOT NULL,
  target_slug TEXT,
  translation_group_id TEXT NOT NULL,  -- of the source, with sort_at: lets a filtered list walk this index in order
  sort_at TEXT NOT NULL,
  PRIMARY KEY (site_id, instance_id, field, target_group_id)
);
CREATE INDEX idx_published_relations_target ON published_relations(site_id, model_id, field, target_group_id, lang, sort_at, translation_group_id);
CREATE INDEX idx_published_relations_tag ON published_relations(site_id, model_id, field, target_slug, lang, sort_at, translation_group_id);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL,
  at TEXT NOT NULL,
  actor_kind TEXT NOT NULL,            -- person | management_credential | plugin | system
  actor_id TEXT,
  credential_id TEXT,
  action TEXT NOT NULL,
  target_kind TEXT,
  target_id TEXT,
  details TEXT NOT NULL DEFAULT '{}'   -- digests of values, never secrets
);
CREATE INDEX idx_audit_site_at ON audit_log(site_id, at);

-- Outbound events written in the same batch as the change they describe.
CREATE TABLE outbox_events (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL,
  name TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  enqueued_at TEXT
);
CREATE INDEX idx_outbox_pending ON outbox_events(site_id, enqueued_at, created_at);

-- The answer of a committed idempotent command, written in the command's own batch, so a command
-- whose answer was lost is answered from what it wrote (idempotency rule 3).
CREATE TABLE idempotency_results (
  site_id TEXT NOT NULL,
  scope TEXT NOT NULL,                 -- who owns the key (credential id, person id, installation id)
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (site_id, scope, key)
);
CREATE INDEX idx_idempotency_expiry ON idempotency_results(expires_at);
