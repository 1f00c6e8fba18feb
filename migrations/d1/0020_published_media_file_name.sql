-- Public delivery (docs/media.md, "Public delivery"): the file name a pin was published with. The
-- delivery address is /media/{media id}/{object id}/{file name}; after a replace the item's name may
-- differ from the one a published version still serves, so the pin keeps its own. A path whose name
-- differs from the pin's is not served (404).
ALTER TABLE published_media ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
