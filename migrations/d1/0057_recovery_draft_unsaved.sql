-- The admin editor keeps unsaved text continuously (issue #30 item 7, docs/recovery-drafts.md):
-- a recovery draft may now also be kept with reason 'unsaved' (the form's text while typing, offered
-- back on return after a reload, a closed tab or a crash). SQLite cannot change a CHECK in place, so
-- the table is rebuilt with its rows (nothing references it).
CREATE TABLE recovery_drafts_next (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  field_values TEXT NOT NULL,
  slug TEXT,
  base_version_id TEXT,
  reason TEXT NOT NULL CHECK (reason IN ('lock_lost', 'version_conflict', 'unsaved')),
  saved_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (site_id, person_id, instance_id)
);
INSERT INTO recovery_drafts_next (site_id, person_id, instance_id, lang, field_values, slug, base_version_id, reason, saved_at, expires_at)
  SELECT site_id, person_id, instance_id, lang, field_values, slug, base_version_id, reason, saved_at, expires_at FROM recovery_drafts;
DROP TABLE recovery_drafts;
ALTER TABLE recovery_drafts_next RENAME TO recovery_drafts;
CREATE INDEX idx_recovery_drafts_expiry ON recovery_drafts(site_id, expires_at);
