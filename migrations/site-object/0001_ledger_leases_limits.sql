-- SiteObject storage, version 1: idempotency ledger, editing leases, rate-limit windows.
-- Applied by objects/site/storage.ts `migrate`, which records the version in schema_version.
-- All times are integer milliseconds since the epoch, read from the injected Clock.

-- One row per (scope, idempotency key). A key is only meaningful within its scope (for example
-- a credential and route), so the same key under another scope is a different row.
-- state 'pending' = claimed, command not finished; 'completed' = status/body hold the exact answer.
CREATE TABLE ledger_claims (
  scope        TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  fingerprint  TEXT    NOT NULL,
  state        TEXT    NOT NULL CHECK (state IN ('pending', 'completed')),
  status       INTEGER,
  body         TEXT,
  retention_ms INTEGER NOT NULL,
  claimed_at   INTEGER NOT NULL,
  completed_at INTEGER,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
-- sweep() and nextExpiry() scan by expiry.
CREATE INDEX ledger_claims_by_expiry ON ledger_claims (expires_at);

-- The current editing lease of each resource (at most one). An expired row may linger until
-- swept; readers treat it as absent.
CREATE TABLE lease_leases (
  resource    TEXT    NOT NULL PRIMARY KEY,
  holder      TEXT    NOT NULL,
  token       TEXT    NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
-- The per-holder cap counts a holder's live leases.
CREATE INDEX lease_leases_by_holder ON lease_leases (holder, expires_at);
CREATE INDEX lease_leases_by_expiry ON lease_leases (expires_at);

-- Tokens that lost their resource to another holder (take-over, or expiry followed by someone
-- else acquiring). Kept for a while so the loser is told `lock_lost` rather than `free`/`locked`.
-- reacquired_at is set when the same holder later gets the resource again: a check naming the old
-- token still says lock_lost, a check naming only the holder no longer does.
CREATE TABLE lease_lost (
  resource      TEXT    NOT NULL,
  token         TEXT    NOT NULL,
  holder        TEXT    NOT NULL,
  taken_by      TEXT    NOT NULL,
  lost_at       INTEGER NOT NULL,
  reacquired_at INTEGER,
  expires_at    INTEGER NOT NULL,
  PRIMARY KEY (resource, token)
);
CREATE INDEX lease_lost_by_holder ON lease_lost (resource, holder);
CREATE INDEX lease_lost_by_expiry ON lease_lost (expires_at);

-- Fixed-window counters, one row per bucket; a row from an earlier window is reset on use.
CREATE TABLE limit_windows (
  bucket       TEXT    NOT NULL PRIMARY KEY,
  window_start INTEGER NOT NULL,
  window_ms    INTEGER NOT NULL,
  count        INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE INDEX limit_windows_by_expiry ON limit_windows (expires_at);
