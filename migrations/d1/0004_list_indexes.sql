-- Public list indexes measured by `npm run bench` (rows read per page).

-- Lists served with locale fallback walk items in date order across languages (one index scan,
-- no sort); the language is checked from the index entry.
CREATE INDEX idx_published_order ON published_items(site_id, model_id, sort_at, translation_group_id, lang);

-- Filtered lists walk the relation index in list order; with the instance id in the index it
-- covers the walk, so only the served items' rows are read.
DROP INDEX idx_published_relations_target;
DROP INDEX idx_published_relations_tag;
CREATE INDEX idx_published_relations_target ON published_relations(site_id, model_id, field, target_group_id, lang, sort_at, translation_group_id, instance_id);
CREATE INDEX idx_published_relations_tag ON published_relations(site_id, model_id, field, target_slug, lang, sort_at, translation_group_id, instance_id);
