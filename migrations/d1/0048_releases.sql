-- Releases (issue #27 item 3, docs/releases.md): a named set of entry-language changes (publish this
-- draft, unpublish that published version) published together, on demand or at a time (the site's
-- object fires due rows from its alarm, with the schedules), in one D1 batch. A row is kept after it
-- is published, with how a timed firing ended when it did not.
CREATE TABLE releases (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  changes TEXT NOT NULL,                -- JSON [{ instance_id, translation_group_id, model_id, lang, action, version_id }]
  at TEXT,                              -- ISO time it publishes itself; NULL: on demand only
  state TEXT NOT NULL CHECK (state IN ('open', 'published', 'stale', 'failed')),
  outcome_code TEXT,
  outcome_message TEXT,
  outcome_details TEXT,                 -- JSON: the refused changes of a firing that did not publish
  revision INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  published_at TEXT
);
CREATE INDEX idx_releases_due ON releases(site_id, state, at);
CREATE INDEX idx_releases_created ON releases(site_id, created_at, id);
