-- Media folders (docs/media.md, "Folders"; spec 2 rule 4): logical only, no file or address moves.
-- media.folder_id names a row here (null = Unfiled); there is no foreign key, so removing a folder
-- unfiles its files in the same batch instead.
CREATE TABLE media_folders (
  id TEXT PRIMARY KEY,                 -- mfd_…
  site_id TEXT NOT NULL,
  parent_id TEXT,                      -- null: top level
  name TEXT NOT NULL,                  -- 1..80 characters, trimmed
  name_key TEXT NOT NULL,              -- lower(name): unique under a parent regardless of case
  revision INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_media_folders_site_parent_name ON media_folders(site_id, COALESCE(parent_id, ''), name_key);
CREATE INDEX idx_media_folders_site_parent ON media_folders(site_id, parent_id);
CREATE INDEX idx_media_site_folder ON media(site_id, folder_id);
