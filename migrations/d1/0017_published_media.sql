-- The media objects published content pins (docs/media.md, "Public delivery"): one row per published
-- item (an instance in one language) and object it serves — the item's file as it was when that
-- version was published, and the original for the item's language (rule 6: published versions
-- pinning an old object keep its bytes). Written and cleared in the same batch as the
-- published_items row. Public delivery serves an object only while a row here names it (or the site
-- makes its library public), so nothing unpublished or private is ever served.
CREATE TABLE published_media (
  site_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  object_key TEXT NOT NULL,            -- <site id>/<media id>/<object id>
  PRIMARY KEY (site_id, instance_id, object_key)
);
CREATE INDEX idx_published_media_object ON published_media(site_id, object_key);
CREATE INDEX idx_published_media_media ON published_media(site_id, media_id);
