-- Every write asks whether its site declares a content policy (shared/services/plugins/policies.ts,
-- `declaredPolicyQuery`, in the write's first batch). This partial index holds only the active
-- installations whose manifest declares one, so the answer reads none of the site's other plugins
-- (it read every active installation and parsed its manifest: 50 rows a write on the bench site;
-- docs/write-fairness.md, "CPU per write"). The query repeats this WHERE with the same literals,
-- which is what lets SQLite use a partial index.
CREATE INDEX idx_plugin_installations_policies ON plugin_installations(site_id)
  WHERE state = 'active' AND json_array_length(manifest, '$.content_policies') > 0;
