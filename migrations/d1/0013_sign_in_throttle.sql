-- Sign-in throttling (docs/admin-api.md, "Sign-in throttling"): failed sign-ins counted in fixed
-- windows per account and per client address. Keys are SHA-256 digests ("account:<email>",
-- "address:<ip or IPv6 /64>"), so neither emails nor addresses are stored. Not tenant data: the
-- admin host has no site.
CREATE TABLE sign_in_failures (
  key_digest TEXT PRIMARY KEY,
  window_started_at INTEGER NOT NULL,
  failures INTEGER NOT NULL
);
CREATE INDEX idx_sign_in_failures_window_started_at ON sign_in_failures(window_started_at);
