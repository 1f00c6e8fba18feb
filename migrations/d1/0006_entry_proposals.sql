-- Entry field proposals (docs/management-api.md, Proposals): a management credential proposes
-- field values over a base version; a person applies them as a normal save, or rejects them.
CREATE TABLE entry_proposals (
  id TEXT PRIMARY KEY,                 -- prp_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  instance_id TEXT NOT NULL,
  base_version_id TEXT NOT NULL,
  fields TEXT NOT NULL,                -- JSON object of proposed values by field key
  original_fields TEXT NOT NULL,       -- JSON object: values at base_version_id the proposer may read
  note TEXT,
  source TEXT NOT NULL,                -- JSON { kind, id, label, requested_by? }
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'applied', 'rejected')),
  revision INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  decided_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_entry_proposals_site ON entry_proposals(site_id, created_at, id);
CREATE INDEX idx_entry_proposals_instance ON entry_proposals(site_id, instance_id, state);
