-- Site webhooks and the delivery state of outbound events (docs/events.md).
-- The signing secret is stored as given (not as a digest): signing each delivery with
-- HMAC-SHA256 needs the secret itself, unlike credential checks which only compare digests.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,                 -- whk_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  url TEXT NOT NULL,                   -- https; http only for 127.0.0.1 / localhost
  events TEXT NOT NULL,                -- JSON array of event names, or ["*"]
  secret TEXT NOT NULL,                -- whsec_… (needed to sign; shown once, never listed)
  active INTEGER NOT NULL DEFAULT 1,   -- 0 once deleted (deliveries keep their webhook id)
  created_by TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX idx_webhooks_site ON webhooks(site_id, active, created_at);

-- One row per (event, subscriber). The queue message names the event; each subscriber's attempt
-- count, backoff and final state live here, so a retried message re-sends only what failed.
CREATE TABLE event_deliveries (
  id TEXT PRIMARY KEY,                 -- dlv_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_status INTEGER,                 -- HTTP status of the last attempt (NULL: no answer)
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,       -- also the claim: an attempt moves it forward first
  state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (event_id, webhook_id)
);
CREATE INDEX idx_event_deliveries_site_state ON event_deliveries(site_id, state, updated_at);
