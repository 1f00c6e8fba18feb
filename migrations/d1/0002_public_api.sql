-- Public read API: signing keys (cursors, previews) and site API tokens for private models.

-- Server-side keys made on first use. They sign cursors and preview capabilities; they are not
-- credentials of anyone, and several rows per purpose allow rotation (newest signs, all verify).
CREATE TABLE signing_keys (
  id TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  secret TEXT NOT NULL,                -- base64url, 32 random bytes
  created_at TEXT NOT NULL
);
CREATE INDEX idx_signing_keys_purpose ON signing_keys(purpose, created_at);

-- dw_site_ tokens: shown once, stored as SHA-256 digests, scoped to named models of one site.
CREATE TABLE site_api_tokens (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  digest TEXT NOT NULL UNIQUE,
  model_ids TEXT NOT NULL,             -- JSON array of model ids the token may read
  created_by TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX idx_site_api_tokens_site ON site_api_tokens(site_id, created_at);
