-- The site map (issue #14, docs/scale.md "More than one database"): which D1 binding holds a site's
-- content. Lives in the control database (binding DB); no row = the site lives in DB, so every site
-- made before the map keeps working. `moved_at` is the time of the last move (null when the row was
-- written at provisioning).
CREATE TABLE site_databases (
  site_id TEXT PRIMARY KEY,
  binding TEXT NOT NULL,
  created_at TEXT NOT NULL,
  moved_at TEXT
);
