-- The media usage index (docs/media.md, "Usage"): one row per version, field and media id the
-- version references — a media field's value, or an image in a rich-text field whose src is this
-- site's media address (/media/{id}/…). Written in the same batch as the version
-- (shared/services/lifecycle/version-statements.ts) and immutable like it; purge deletes the rows of
-- the instances it deletes. An entry uses a file while its current (working) or published version
-- has a row here, in or out of Trash; `GET /media/{id}/usage` and `POST /media/{id}/remove` read this
-- index through idx_media_usage_media and never read version bodies.
CREATE TABLE media_usage (
  site_id TEXT NOT NULL,
  version_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  media_id TEXT NOT NULL,
  field_id TEXT NOT NULL,
  source TEXT NOT NULL,                -- 'field' | 'rich_text'
  PRIMARY KEY (version_id, field_id, media_id)
);
CREATE INDEX idx_media_usage_media ON media_usage(site_id, media_id, instance_id);
CREATE INDEX idx_media_usage_instance ON media_usage(site_id, instance_id);

-- Backfill: the versions that can make an entry use a file (each entry's current and published
-- versions); older history never blocks a removal, so it is not indexed.
-- Media fields: a value is one id or a list of ids.
INSERT OR IGNORE INTO media_usage (site_id, version_id, instance_id, media_id, field_id, source)
  SELECT v.site_id, v.id, v.instance_id, CASE WHEN jv.type = 'array' THEN item.value ELSE jv.value END, f.value ->> '$.id', 'field'
  FROM entries e
  JOIN versions v ON v.site_id = e.site_id AND (v.id = e.current_version_id OR v.id = e.published_version_id)
  JOIN models m ON m.id = e.model_id AND m.site_id = e.site_id
  JOIN json_each(m.definition, '$.fields') f ON f.value ->> '$.type' = 'media'
  JOIN json_each(v.fields) jv ON jv.key = f.value ->> '$.id'
  LEFT JOIN json_each(CASE WHEN jv.type = 'array' THEN jv.value ELSE '[]' END) item
  WHERE (jv.type = 'text' AND jv.value <> '') OR (jv.type = 'array' AND item.type = 'text' AND item.value <> '');

-- Rich-text images: every `src="/media/<id>/` in a canonical rich-text value (only img carries src in
-- the allow-list, docs/rich-text.md). A text that merely contains those characters counts too: an
-- extra use only refuses a removal, never lets one through.
INSERT OR IGNORE INTO media_usage (site_id, version_id, instance_id, media_id, field_id, source)
  WITH RECURSIVE
    texts(site_id, version_id, instance_id, field_id, rest) AS (
      SELECT v.site_id, v.id, v.instance_id, jv.key, jv.value
      FROM entries e
      JOIN versions v ON v.site_id = e.site_id AND (v.id = e.current_version_id OR v.id = e.published_version_id)
      JOIN models m ON m.id = e.model_id AND m.site_id = e.site_id
      JOIN json_each(m.definition, '$.fields') f ON f.value ->> '$.type' = 'rich_text'
      JOIN json_each(v.fields) jv ON jv.key = f.value ->> '$.id' AND jv.type = 'text'
      WHERE instr(jv.value, 'src="/media/') > 0
    ),
    found(site_id, version_id, instance_id, field_id, rest) AS (
      SELECT site_id, version_id, instance_id, field_id, substr(rest, instr(rest, 'src="/media/') + 12) FROM texts
      UNION ALL
      SELECT site_id, version_id, instance_id, field_id, substr(rest, instr(rest, 'src="/media/') + 12) FROM found WHERE instr(rest, 'src="/media/') > 0
    )
  SELECT site_id, version_id, instance_id, substr(rest, 1, instr(rest, '/') - 1), field_id, 'rich_text'
  FROM found
  WHERE instr(rest, '/') > 1 AND substr(rest, 1, 4) = 'med_' AND instr(substr(rest, 1, instr(rest, '/') - 1), '"') = 0;
