-- Operators' API (docs/operations-api.md): a site can be suspended (public API 404 for its hosts,
-- management, plugin protocol and MCP 403 `site_suspended`, admin read-only) and resumed; nothing
-- of it is deleted meanwhile. NULL: the site serves as usual.
ALTER TABLE sites ADD COLUMN suspended_at TEXT;

-- Idempotency claims of the operators' writes (POST /api/ops/…). An operator's write is not a
-- site's content write (createSite has no site yet), so its claims live in the control database:
-- a claim is one INSERT (the primary key makes two concurrent claims of a key exclusive), and the
-- answer is stored in the same D1 batch as the change it answers, so a committed change whose
-- answer was lost is replayed, never run twice.
CREATE TABLE ops_claims (
  key TEXT PRIMARY KEY,                -- the client's Idempotency-Key
  fingerprint TEXT NOT NULL,           -- SHA-256 of method, path and canonical body
  state TEXT NOT NULL CHECK (state IN ('pending', 'completed')),
  status INTEGER,
  body TEXT,
  claimed_at TEXT NOT NULL,
  expires_at TEXT NOT NULL             -- after this the key is free again (pending: 24 h, answers: 30 days)
);
CREATE INDEX idx_ops_claims_expiry ON ops_claims(expires_at);
