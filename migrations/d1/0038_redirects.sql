-- Redirects (issue #27 item 5, docs/redirects.md): a site setting of at most 256 rules, 32 of them
-- patterns (one `*`); written through the site's object, read by the public /v1/_redirects routes.
CREATE TABLE redirects (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  target TEXT,                          -- a site path or an absolute https URL; NULL for 410 and 451
  status INTEGER NOT NULL CHECK (status IN (301, 302, 307, 308, 410, 451)),
  note TEXT,
  revision INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_redirects_source ON redirects(site_id, source);
