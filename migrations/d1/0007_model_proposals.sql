-- Model proposals (docs/management-api.md, Model proposals): a management credential proposes a new
-- model or a change to one; a person applies it as a normal model apply, or dismisses it.
CREATE TABLE model_proposals (
  id TEXT PRIMARY KEY,                 -- mpr_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  mode TEXT NOT NULL CHECK (mode IN ('create', 'update')),
  model_id TEXT,                       -- update only
  base_updated_at TEXT,                -- update only: the model's updated_at the proposal was made over
  definition TEXT NOT NULL,            -- JSON { model: { name, slug, enableI18n }, fields }
  note TEXT,
  source TEXT NOT NULL,                -- JSON { kind, id, label, requested_by? }
  state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'applied', 'dismissed')),
  changes TEXT NOT NULL,               -- JSON array: content-breaking changes the apply would make, at creation
  revision INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  decided_by TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_model_proposals_site ON model_proposals(site_id, created_at, id);
CREATE INDEX idx_model_proposals_model ON model_proposals(site_id, model_id, state);
