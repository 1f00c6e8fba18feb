-- Plugin installations (docs/plugins.md): one row per plugin installed on a site, from its
-- manifest. The installation token (dwp_…) is shown once and stored only as its SHA-256 digest;
-- after a rotation the previous digest keeps working until previous_token_expires_at (ms since
-- the epoch, rotation time + 600000). Uninstalling deletes the row.
CREATE TABLE plugin_installations (
  id TEXT PRIMARY KEY,                       -- pin_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  plugin_id TEXT NOT NULL,                   -- the manifest's id
  manifest TEXT NOT NULL,                    -- the validated manifest JSON
  state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'disabled', 'revoked')),
  granted_capabilities TEXT NOT NULL,        -- JSON array, a subset of the manifest's capabilities
  granted_model_ids TEXT NOT NULL,           -- JSON array of model ids of the site
  token_digest TEXT NOT NULL UNIQUE,         -- SHA-256 hex of the current token
  previous_token_digest TEXT,                -- SHA-256 hex of the token replaced by the last rotation
  previous_token_expires_at INTEGER,         -- ms; the previous token is refused from this instant
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (site_id, plugin_id)
);
CREATE INDEX idx_plugin_installations_previous ON plugin_installations(previous_token_digest);
