-- Exports as jobs (docs/exports.md): built in steps, each step writing one page (an R2 object) of
-- the export file; the file is its pages in order, read in byte ranges with the whole file's SHA-256.
CREATE TABLE export_jobs (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites(id),
  state TEXT NOT NULL CHECK (state IN ('building', 'finished', 'cancelled')),
  position INTEGER NOT NULL DEFAULT 0,
  created_by TEXT NOT NULL,
  filter TEXT NOT NULL,          -- JSON: { model_ids: string[] | null, languages: string[] | null }
  cursor TEXT NOT NULL,          -- JSON: where the next step continues
  pages INTEGER NOT NULL DEFAULT 0,
  total_bytes INTEGER NOT NULL DEFAULT 0,
  sha256 TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX idx_export_jobs_site ON export_jobs(site_id, created_at);

CREATE TABLE export_pages (
  job_id TEXT NOT NULL REFERENCES export_jobs(id),
  site_id TEXT NOT NULL,
  page INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL,
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  object_key TEXT NOT NULL,
  PRIMARY KEY (job_id, page)
);
