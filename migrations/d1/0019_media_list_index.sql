-- GET /media pages newest first (created_at, then id, both descending) within one site: this index
-- serves the order and the keyset start, so a page reads its own rows instead of scanning the
-- site's library (docs/media.md, "GET /api/manage/v1/media").
CREATE INDEX idx_media_site_created ON media(site_id, created_at, id);
