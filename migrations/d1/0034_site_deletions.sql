-- A site deletion (POST /api/ops/sites/{id}/delete, docs/site-delete.md): where a deletion that did
-- not fit one request stopped, and, once done, its receipt. Control database. The row is kept after
-- the site is gone, as the record that it existed and was deleted (its id, slug, what was removed
-- and when); it holds no content. Keyed by site id: any later call continues the same deletion.
CREATE TABLE site_deletions (
  site_id TEXT PRIMARY KEY,
  slug TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  rows TEXT NOT NULL DEFAULT '{}',     -- JSON rows removed per table (every database summed)
  objects INTEGER NOT NULL DEFAULT 0,  -- R2 objects removed
  bytes INTEGER NOT NULL DEFAULT 0,    -- their bytes
  started_at TEXT NOT NULL,
  finished_at TEXT
);
CREATE UNIQUE INDEX idx_site_deletions_slug_running ON site_deletions(slug) WHERE state = 'running';
