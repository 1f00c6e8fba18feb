-- Reverse relations ("related from", docs/content-rules-reverse-single-unique.md).
--
-- 1. relation_heads: the links of every entry language's CURRENT draft (its head), one row per
--    (target item, source language, field). relation_links keeps the links of every version ever
--    written, so "who points at X now" over it grows with history; this index holds only heads and
--    is replaced in the batch of every write that makes a new version (version-statements.ts), and
--    deleted with the source (purge). Read by GET /entries/{id}/related-from in key order.
CREATE TABLE relation_heads (
  site_id TEXT NOT NULL,
  target_group_id TEXT NOT NULL,
  source_instance_id TEXT NOT NULL,
  field_id TEXT NOT NULL,
  PRIMARY KEY (site_id, target_group_id, source_instance_id, field_id)
) WITHOUT ROWID;
CREATE INDEX idx_relation_heads_source ON relation_heads(site_id, source_instance_id);

INSERT OR IGNORE INTO relation_heads (site_id, target_group_id, source_instance_id, field_id)
SELECT rl.site_id, rl.target_group_id, rl.source_instance_id, rl.field_id
FROM relation_links rl
JOIN entries e ON e.site_id = rl.site_id AND e.instance_id = rl.source_instance_id AND e.current_version_id = rl.version_id;

-- 2. The public "related from" page walks the filter index by target, newest source first.
CREATE INDEX idx_published_relations_from ON published_relations(site_id, target_group_id, sort_at, instance_id, field);
