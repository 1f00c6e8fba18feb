-- Originals by language (spec 2 rule 7; docs/media.md, "Originals by language"): one override file per
-- media item and language. The item's own file (media.object_key) is the default original; a language
-- without a row here falls back along the site's fallback order, then to that default. The bytes are an
-- immutable R2 object <site id>/<media id>/<object id>, recorded in media_objects (role 'original') in
-- the same batch; a superseded or removed override's object stays (published content may pin it).
CREATE TABLE media_originals (
  site_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  lang TEXT NOT NULL,
  object_key TEXT NOT NULL,            -- <site id>/<media id>/<object id>: the override's current object
  file_name TEXT NOT NULL,             -- cleaned as on upload; the last segment of its delivery address
  mime_type TEXT NOT NULL,             -- from the bytes
  byte_length INTEGER NOT NULL,
  sha256 TEXT NOT NULL,                -- hex
  width INTEGER,
  height INTEGER,
  created_by TEXT,                     -- person id of the writer
  created_at TEXT NOT NULL,            -- when this object became the language's original
  PRIMARY KEY (site_id, media_id, lang)
);
CREATE INDEX idx_media_originals_object ON media_originals(site_id, object_key);
