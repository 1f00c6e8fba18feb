-- The served rows of one translation group rebuilt at every publish (shared/services/lifecycle/
-- served-view.ts, docs/scale.md "Served lists"; issue #28, the 20,000-post import): the group's
-- relation and tag rows are read by the published instance they belong to. The primary key
-- (site_id, instance_id, field, target_group_id) does not hold target_slug, so without statistics
-- SQLite preferred a covering index led by site_id alone — a walk of the whole site's relation
-- rows at every publish (26 rows read per item already published: O(n) a publish, O(n²) an
-- import). This index covers both branches by (site_id, instance_id).
CREATE INDEX idx_published_relations_instance ON published_relations(site_id, instance_id, field, target_group_id, target_slug);
