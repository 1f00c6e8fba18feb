-- Every object is delivered under its stored name (issue 22 item 12; docs/media.md "Public delivery").
-- A rich-text image address chose the public download name: /media/<id>/<obj>/invoice.exe pinned the
-- object under "invoice.exe" and served a PNG with that Content-Disposition. The ledger now keeps the
-- name each object was stored under (an object's name never changes: a new name is a new object), and
-- pins carry that name, whatever an address said.
ALTER TABLE media_objects ADD COLUMN file_name TEXT NOT NULL DEFAULT '';

-- Current files and current originals by language: their rows hold the name.
UPDATE media_objects SET file_name = (
  SELECT m.file_name FROM media m WHERE m.site_id = media_objects.site_id AND m.object_key = media_objects.object_key
) WHERE EXISTS (SELECT 1 FROM media m WHERE m.site_id = media_objects.site_id AND m.object_key = media_objects.object_key);
UPDATE media_objects SET file_name = (
  SELECT o.file_name FROM media_originals o WHERE o.site_id = media_objects.site_id AND o.object_key = media_objects.object_key
) WHERE file_name = '' AND EXISTS (SELECT 1 FROM media_originals o WHERE o.site_id = media_objects.site_id AND o.object_key = media_objects.object_key);
-- Superseded objects: the name their pins agree on (a media field's pin holds the stored name). An
-- object whose pins disagree, or that nothing pins, keeps '' (unknown): it is pinned by no image again.
UPDATE media_objects SET file_name = (
  SELECT MIN(p.file_name) FROM published_media p WHERE p.site_id = media_objects.site_id AND p.object_key = media_objects.object_key
) WHERE file_name = '' AND (
  SELECT COUNT(DISTINCT p.file_name) FROM published_media p WHERE p.site_id = media_objects.site_id AND p.object_key = media_objects.object_key
) = 1;

-- Pins an address named otherwise now carry the stored name (the other name is 404, as any other name).
UPDATE published_media SET file_name = (
  SELECT o.file_name FROM media_objects o WHERE o.object_key = published_media.object_key
) WHERE EXISTS (
  SELECT 1 FROM media_objects o WHERE o.object_key = published_media.object_key AND o.file_name <> '' AND o.file_name <> published_media.file_name
);
