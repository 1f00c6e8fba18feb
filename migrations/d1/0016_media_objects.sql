-- Every R2 object a media item has ever had (docs/media.md, "Object ledger"): the current file, files
-- a replace superseded (published versions may pin them, spec 2 rule 6) and originals by language
-- (rule 7). Written in the same batch as the row that names the object, so a committed write always
-- knows its objects; removal and cleanup read keys from here and never list R2.
CREATE TABLE media_objects (
  object_key TEXT PRIMARY KEY,         -- <site id>/<media id>/<object id>
  site_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  role TEXT NOT NULL,                  -- 'file' (the item's file, now or before a replace) | 'original'
  lang TEXT,                           -- originals only: the language it is the original of
  byte_length INTEGER NOT NULL,
  mime_type TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX idx_media_objects_site_media ON media_objects(site_id, media_id);

-- What existed before the ledger: every item's current file, and the files its replaces superseded
-- (the replace audit row names the previous object id; its size and type are not kept, so the
-- current ones stand in — they are only used for reports, never to serve bytes).
INSERT OR IGNORE INTO media_objects (object_key, site_id, media_id, role, lang, byte_length, mime_type, created_at)
  SELECT object_key, site_id, id, 'file', NULL, byte_length, mime_type, created_at FROM media;
INSERT OR IGNORE INTO media_objects (object_key, site_id, media_id, role, lang, byte_length, mime_type, created_at)
  SELECT a.site_id || '/' || a.target_id || '/' || json_extract(a.details, '$.previous_object_id'), a.site_id, a.target_id, 'file', NULL, m.byte_length, m.mime_type, a.at
  FROM audit_log a JOIN media m ON m.id = a.target_id AND m.site_id = a.site_id
  WHERE a.action = 'media.replace' AND json_extract(a.details, '$.previous_object_id') IS NOT NULL;
