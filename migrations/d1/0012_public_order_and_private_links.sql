-- Published snapshots as the renderer now writes them (shared/services/lifecycle/snapshot.ts), for
-- rows written before: docs/public-api.md (first_published_at, list order), docs/private-data.md.

-- 1. Every item serves `first_published_at`, its list sort key (sort_at: the group's first publication).
UPDATE published_items
SET body = json_set(body, '$.first_published_at', sort_at)
WHERE json_extract(body, '$.first_published_at') IS NULL;

-- 2. A snapshot names no item of another model that is private: such links leave the item…
UPDATE published_items
SET body = json_set(body, '$.relations', (
  SELECT json_group_object(field.key, json((
    SELECT json_group_array(json(ref.value))
    FROM json_each(field.value) AS ref
    WHERE NOT EXISTS (
      SELECT 1 FROM models m
      WHERE m.site_id = published_items.site_id
        AND m.slug = json_extract(ref.value, '$.model')
        AND m.is_public = 0
        AND m.id <> published_items.model_id
    )
  )))
  FROM json_each(published_items.body, '$.relations') AS field
))
WHERE EXISTS (
  SELECT 1
  FROM json_each(published_items.body, '$.relations') AS field, json_each(field.value) AS ref
  JOIN models m ON m.site_id = published_items.site_id AND m.slug = json_extract(ref.value, '$.model')
  WHERE m.is_public = 0 AND m.id <> published_items.model_id
);

-- …and the filter index, so relation= and tag= naming them match nothing.
DELETE FROM published_relations
WHERE EXISTS (
  SELECT 1 FROM entries t JOIN models m ON m.id = t.model_id AND m.site_id = t.site_id
  WHERE t.site_id = published_relations.site_id
    AND t.translation_group_id = published_relations.target_group_id
    AND m.is_public = 0
    AND m.id <> published_relations.model_id
);

-- 3. A link's display is null where the target's title field is private (the title field as
--    shared/content/validate-fields.ts titleField picks it: flagged, else a text field named
--    title or name, else the first text field).
UPDATE published_items
SET body = json_set(body, '$.relations', (
  SELECT json_group_object(field.key, json((
    SELECT json_group_array(json(
      CASE WHEN (
        SELECT json_extract(f.value, '$.private')
        FROM models m, json_each(m.definition, '$.fields') AS f
        WHERE m.site_id = published_items.site_id AND m.slug = json_extract(ref.value, '$.model')
          AND (json_extract(f.value, '$.title') = 1 OR json_extract(f.value, '$.type') = 'text')
        ORDER BY CASE
          WHEN json_extract(f.value, '$.title') = 1 THEN 0
          WHEN json_extract(f.value, '$.key') IN ('title', 'name') THEN 1
          ELSE 2 END, f.key
        LIMIT 1
      ) = 1 THEN json_set(ref.value, '$.display', NULL) ELSE ref.value END
    ))
    FROM json_each(field.value) AS ref
  )))
  FROM json_each(published_items.body, '$.relations') AS field
))
WHERE EXISTS (SELECT 1 FROM json_each(published_items.body, '$.relations') AS field WHERE json_array_length(field.value) > 0);

-- 4. List order is (first_published_at, id): the indexes walk sort_at, then the instance id.
DROP INDEX idx_published_list;
CREATE INDEX idx_published_list ON published_items(site_id, model_id, lang, sort_at, instance_id);
DROP INDEX idx_published_manual;
CREATE INDEX idx_published_manual ON published_items(site_id, model_id, lang, manual_position, sort_at, instance_id);
DROP INDEX idx_published_order;
CREATE INDEX idx_published_order ON published_items(site_id, model_id, sort_at, instance_id, lang, translation_group_id);
DROP INDEX idx_published_relations_target;
DROP INDEX idx_published_relations_tag;
CREATE INDEX idx_published_relations_target ON published_relations(site_id, model_id, field, target_group_id, lang, sort_at, instance_id);
CREATE INDEX idx_published_relations_tag ON published_relations(site_id, model_id, field, target_slug, lang, sort_at, instance_id);
