-- Scheduled publishing (issue #27 item 2, docs/scheduled-publishing.md): a publish or unpublish of
-- one language (or every language) of an item at a time, with the versions it pins. The site's
-- object fires due rows from its alarm; a row is kept after it ends, with how it ended.
CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  translation_group_id TEXT NOT NULL,
  model_id TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN ('publish', 'unpublish')),
  lang TEXT,                            -- one language; NULL: every language of the item
  pins TEXT NOT NULL,                   -- JSON [{ instance_id, lang, version_id }]
  at TEXT NOT NULL,                     -- ISO time it fires
  state TEXT NOT NULL CHECK (state IN ('scheduled', 'done', 'stale', 'failed', 'cancelled')),
  outcome_code TEXT,
  outcome_message TEXT,
  revision INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  fired_at TEXT
);
CREATE INDEX idx_schedules_due ON schedules(site_id, state, at);
CREATE INDEX idx_schedules_group ON schedules(site_id, translation_group_id, at);
