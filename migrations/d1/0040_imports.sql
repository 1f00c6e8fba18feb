-- Imports as resumable jobs (docs/imports.md; spec 2, data:import and idempotency rule 5).
-- A source names where content comes from (a WordPress export, a Driftwood export); a job imports
-- one uploaded file of it, advanced by explicit steps that each do a bounded amount of work.

CREATE TABLE import_sources (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id),
  kind TEXT NOT NULL CHECK (kind IN ('wordpress', 'driftwood')),
  name TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX idx_import_sources_site ON import_sources(site_id, created_at);

-- One job. `position` counts the job's moves (every step, decision, pause, resume, cancel and the
-- upload's completion adds one): a job-step claim records it before the step (rule 5).
CREATE TABLE import_jobs (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id),
  source_id TEXT NOT NULL REFERENCES import_sources(id),
  kind TEXT NOT NULL CHECK (kind IN ('wordpress', 'driftwood')),
  state TEXT NOT NULL,
  paused_from TEXT,
  position INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  file_name TEXT NOT NULL,
  object_key TEXT NOT NULL,
  upload_id TEXT,
  file_bytes INTEGER,
  file_sha256 TEXT,
  parse_offset INTEGER NOT NULL DEFAULT 0,
  items_total INTEGER NOT NULL DEFAULT 0,
  items_done INTEGER NOT NULL DEFAULT 0,
  findings_count INTEGER NOT NULL DEFAULT 0,
  decisions TEXT,
  failure TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_import_jobs_site ON import_jobs(site_id, created_at);

-- The uploaded parts of a job's file (5 MiB each but the last; R2 multipart parts).
CREATE TABLE import_parts (
  job_id TEXT NOT NULL REFERENCES import_jobs(id),
  site_id TEXT NOT NULL,
  part INTEGER NOT NULL,
  etag TEXT NOT NULL,
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  PRIMARY KEY (job_id, part)
);

-- What the parse steps read from the file, in file order, and what the write steps made of it.
CREATE TABLE import_items (
  job_id TEXT NOT NULL REFERENCES import_jobs(id),
  seq INTEGER NOT NULL,
  site_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  source_key TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'staged',
  instance_id TEXT,
  group_id TEXT,
  version_id TEXT,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX idx_import_items_state ON import_items(job_id, state, seq);
CREATE INDEX idx_import_items_source ON import_items(job_id, kind, source_key);

-- Findings (per item or for the whole file): read in pages by getImportFindings.
CREATE TABLE import_findings (
  job_id TEXT NOT NULL REFERENCES import_jobs(id),
  seq INTEGER NOT NULL,
  site_id TEXT NOT NULL,
  item_seq INTEGER,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  details TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
);

-- Job-step claims (spec 2, idempotency rule 5): the job's position recorded before the step runs,
-- and how the step ended. A retry compares the job's position now with the one recorded.
CREATE TABLE job_step_claims (
  site_id TEXT NOT NULL,
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  job_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'error')),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (site_id, scope, key)
);
CREATE INDEX idx_job_step_claims_expiry ON job_step_claims(expires_at);
