-- Management credentials (docs/management-credentials.md): dwm_ secrets shown once, stored as
-- SHA-256 digests. A credential acts as its creator, narrowed by its scopes and models; the
-- creator's role is re-read on every request, so nothing about the creator's authority is stored.
-- No usage counter or last-used time is kept.
CREATE TABLE management_credentials (
  id TEXT PRIMARY KEY,                 -- mcr_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,         -- SHA-256 hex of the secret; the secret itself is never stored
  scopes TEXT NOT NULL,                -- JSON array of scopes, always with content:read
  model_ids TEXT,                      -- JSON array of model ids, or NULL for every model of the site
  created_by TEXT NOT NULL,            -- the person the credential acts as
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX idx_management_credentials_site ON management_credentials(site_id, created_at);
