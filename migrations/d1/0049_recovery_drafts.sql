-- Personal recovery drafts on the server (issue #27 item 7, docs/recovery-drafts.md): spec 3, a lost
-- lease keeps "unsaved text … in a personal recovery draft". One per person and entry language, kept
-- 30 days; written when a save is refused with lock_lost (any surface) or by the admin editor.
CREATE TABLE recovery_drafts (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,            -- the entry language
  lang TEXT NOT NULL,
  field_values TEXT NOT NULL,           -- JSON: the values as the refused save sent them (by field key)
  slug TEXT,
  base_version_id TEXT,                 -- the version the text was written on
  reason TEXT NOT NULL CHECK (reason IN ('lock_lost', 'version_conflict')),
  saved_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (site_id, person_id, instance_id)
);
CREATE INDEX idx_recovery_drafts_expiry ON recovery_drafts(site_id, expires_at);
