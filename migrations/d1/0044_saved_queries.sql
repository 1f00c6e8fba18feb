-- Saved queries (issue #29 item 6, docs/saved-queries.md): a named, stored list query of one model
-- that the public API serves at GET /v1/_queries/{name}. `definition` is JSON
-- { filters: [{ kind: "relation" | "tag", field, value }], order, fields, limit }; a query names
-- only public fields (422 private_field_on_public_route), and a model change that would break a
-- query bound to the model is refused (409 model_has_bound_queries).
CREATE TABLE saved_queries (
  id TEXT PRIMARY KEY,                 -- qry_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,                  -- its public address: /v1/_queries/{name}
  model_id TEXT NOT NULL,
  definition TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_saved_queries_name ON saved_queries(site_id, name);
CREATE INDEX idx_saved_queries_model ON saved_queries(site_id, model_id);
