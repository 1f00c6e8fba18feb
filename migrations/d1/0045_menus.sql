-- Menus (issue #29 item 3, docs/menus.md): named navigation menus of a site, one row per name,
-- with each language's nested items as JSON: { "<lang>": [{ label, target, children }] } where a
-- target is { kind: "entry", group_id } or { kind: "url", url }. Entry targets are resolved at
-- read time to the published item of the language (unpublished or trashed targets are left out).
CREATE TABLE menus (
  id TEXT PRIMARY KEY,                 -- mnu_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name TEXT NOT NULL,                  -- its public address: /v1/_menus/{name}
  items TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_menus_name ON menus(site_id, name);
