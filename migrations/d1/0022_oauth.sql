-- OAuth 2.1 app connections (docs/oauth.md): public clients registered by RFC 7591, one-time
-- authorization codes with PKCE S256, and connections holding access (dwo_) and refresh (dwr_)
-- tokens. Codes and tokens are stored only as SHA-256 digests. A connection acts as the person
-- who connected it, narrowed by its scopes, like a management credential; the person's role is
-- re-read on every request, so nothing about their authority is stored here.

-- Clients are global (not per site): a client connects to whichever site the person picks.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY,                 -- ocl_… (client_id, public)
  client_name TEXT,                    -- as registered, at most 200 characters
  redirect_uris TEXT NOT NULL,         -- JSON array of 1..5 exact redirect URIs
  scope TEXT,                          -- registered scope string, or NULL
  created_at TEXT NOT NULL
);

-- Registrations counted in fixed windows per client address (a digest), so open registration
-- cannot fill the table from one place.
CREATE TABLE oauth_registration_counts (
  key_digest TEXT PRIMARY KEY,
  window_started_at INTEGER NOT NULL,  -- ms
  registrations INTEGER NOT NULL
);
CREATE INDEX idx_oauth_registration_counts_window ON oauth_registration_counts(window_started_at);

-- One connection per code exchange: a person connected a client to one site with kept scopes.
CREATE TABLE oauth_connections (
  id TEXT PRIMARY KEY,                 -- con_… (named in audit rows as credential_id)
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,             -- the person the connection acts as
  scopes TEXT NOT NULL,                -- JSON array of scopes, always with content:read
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  revoked_reason TEXT                  -- 'person', 'client', 'code_reused', 'refresh_reused'
);
CREATE INDEX idx_oauth_connections_site ON oauth_connections(site_id, created_at);

-- Authorization codes: 60 s, once. A used code is kept until it expires plus a day, so a second
-- use is recognised and revokes the connection the first use made.
CREATE TABLE oauth_codes (
  digest TEXT PRIMARY KEY,             -- SHA-256 hex of the code
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,
  scopes TEXT NOT NULL,                -- JSON array of kept scopes
  code_challenge TEXT NOT NULL,        -- S256 challenge (base64url of SHA-256 of the verifier)
  expires_at INTEGER NOT NULL,         -- ms
  used_at INTEGER,                     -- ms of the exchange
  connection_id TEXT                   -- the connection the exchange made
);
CREATE INDEX idx_oauth_codes_expires ON oauth_codes(expires_at);

-- Access (10 min) and refresh (30 days) tokens of connections. A refresh token works once:
-- `replaced_at` is stamped when it is rotated; presenting it again revokes the connection.
CREATE TABLE oauth_tokens (
  digest TEXT PRIMARY KEY,             -- SHA-256 hex of the dwo_ / dwr_ token
  connection_id TEXT NOT NULL REFERENCES oauth_connections(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  expires_at INTEGER NOT NULL,         -- ms
  replaced_at INTEGER                  -- refresh tokens: ms of the rotation that used it
);
CREATE INDEX idx_oauth_tokens_connection ON oauth_tokens(connection_id);
CREATE INDEX idx_oauth_tokens_expires ON oauth_tokens(expires_at);
