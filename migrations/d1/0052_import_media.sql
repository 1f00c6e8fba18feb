-- WordPress attachments into the media library (docs/imports.md, "Attachments and featured images").
-- An attachment item's media item: the one the import created, or the one of the same bytes the
-- library already held (reused: undo leaves it).
ALTER TABLE import_items ADD COLUMN media_id TEXT;
ALTER TABLE import_items ADD COLUMN media_created INTEGER NOT NULL DEFAULT 0;

-- Bytes of an attachment sent by the client (uploadImportMedia), by the attachment's URL in the
-- file: kept in R2 under the job until the write step that takes them into the media library.
CREATE TABLE import_media (
  job_id TEXT NOT NULL REFERENCES import_jobs(id),
  site_id TEXT NOT NULL,
  url TEXT NOT NULL,
  object_key TEXT NOT NULL,
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (job_id, url)
);
