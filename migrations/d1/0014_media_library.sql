-- Media library, first slice (docs/media.md): the columns 0001's media table lacked. The R2 key stays
-- in object_key (<site_id>/<media id>/<object id>; immutable, a new key per upload), so no R2
-- listing is ever needed. Public snapshots keep resolving media ids to /media/{id}/{file_name}.
ALTER TABLE media ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';     -- JSON array of strings
ALTER TABLE media ADD COLUMN credit TEXT;
ALTER TABLE media ADD COLUMN edited_from TEXT;                   -- the library file this one was edited from
ALTER TABLE media ADD COLUMN created_by TEXT;                    -- person id of the uploader
-- Oldest first among same bytes: the item a duplicate answer names (spec 2 rule 3).
CREATE INDEX idx_media_site_sha_created ON media(site_id, sha256, created_at);
CREATE INDEX idx_media_site_object ON media(site_id, object_key);
