-- A site copy's progress (POST /api/ops/sites/{id}/copy, docs/site-copy.md). A copy of a large site
-- does not fit one request: each call with the same Idempotency-Key copies a bounded share and
-- stores where it stopped here, so the next call goes on from there. In the control database, keyed
-- by the operator's Idempotency-Key; `id` salts the copy's new ids (the same old id always becomes
-- the same new id within one copy, so a page copied twice is inserted once). No foreign key to
-- `sites`: deleting either site removes its copy rows (docs/site-delete.md).
CREATE TABLE site_copies (
  key TEXT PRIMARY KEY,                -- the Idempotency-Key of the copy
  fingerprint TEXT NOT NULL,           -- SHA-256 of method, path and canonical body
  id TEXT NOT NULL UNIQUE,             -- salt of the copy's new ids
  template_id TEXT NOT NULL,
  target_id TEXT NOT NULL,
  created_target INTEGER NOT NULL,     -- 1: the copy made the target (suspended until the copy is done)
  content INTEGER NOT NULL,
  media INTEGER NOT NULL,
  step INTEGER NOT NULL DEFAULT 0,     -- index in the copy's table list
  cursor TEXT,                         -- JSON primary key of the last row copied in that table
  copied TEXT NOT NULL DEFAULT '{}',   -- JSON rows copied per table
  objects INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_site_copies_template ON site_copies(template_id);
CREATE INDEX idx_site_copies_target ON site_copies(target_id);
