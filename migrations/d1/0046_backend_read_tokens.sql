-- Read tokens of the generated standalone backend (docs/generated-backend.md, "Access"): issued in
-- the CMS, shown once, stored only as the SHA-256 digest; generation writes the live ones into the
-- emitted project's access/read-tokens.json. A control table, like site_api_tokens.
CREATE TABLE backend_read_tokens (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,
  models TEXT NOT NULL,                -- JSON array of model ids, or ["*"] for every model
  created_by TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX idx_backend_read_tokens_site ON backend_read_tokens(site_id, created_at);
