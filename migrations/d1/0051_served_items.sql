-- The served-per-language view of public lists (issue #27 item 8, docs/scale.md "Served lists").
-- One row per (asked language, list, item): the body of the instance the item is served in for that
-- language (its locale fallback already applied), written in the publishing write's batch
-- (shared/services/lifecycle/served-view.ts). `list_key` names the list: '' the plain list,
-- 'r:<field>:<target group>' a relation filter, 't:<field>:<target slug>' a tag filter. A public list
-- page is then one index range of this table: page + 1 rows read, whatever the filter or fallback.
CREATE TABLE served_items (
  site_id TEXT NOT NULL REFERENCES sites(id),
  model_id TEXT NOT NULL,
  lang TEXT NOT NULL,                  -- the language asked for (the first of the chain)
  list_key TEXT NOT NULL,
  translation_group_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,           -- the instance served (its language may be a fallback)
  sort_at TEXT NOT NULL,
  manual_position INTEGER NOT NULL,
  body TEXT NOT NULL,
  mentions TEXT NOT NULL,
  -- The key is the list walk itself (date order): a site move copies by it, and a row is never
  -- written twice (a tag filter of two targets with one slug lists its item once).
  PRIMARY KEY (site_id, model_id, lang, list_key, sort_at, instance_id)
);
CREATE INDEX idx_served_manual ON served_items(site_id, model_id, lang, list_key, manual_position, sort_at, instance_id);
CREATE INDEX idx_served_group ON served_items(site_id, translation_group_id);

-- Whether a site's lists read the view. 1 for every site whose view this migration builds (the
-- sites of this database) and for every new site; 0 for a site whose content lives in another
-- database (its anchor row there has no languages to build from): it serves lists with the
-- read-time fallback until its view is built (a locale settings save or `rebuildServedView`).
ALTER TABLE sites ADD COLUMN served_view INTEGER NOT NULL DEFAULT 1;
UPDATE sites SET served_view = 0 WHERE id IN (SELECT site_id FROM site_databases WHERE binding <> 'DB');

-- Backfill: each site language's chain as localeChain (shared/content/site-settings.ts) makes it —
-- the language, then locale_fallback, then the default language when fallback is on (the default),
-- kept to the site's languages, first rank of a repeated language.
INSERT OR IGNORE INTO served_items (site_id, model_id, lang, list_key, translation_group_id, instance_id, sort_at, manual_position, body, mentions)
WITH site_langs AS (
  SELECT s.id AS site_id, l.value AS lang FROM sites s, json_each(s.languages) l
),
fallback_on AS (
  SELECT id AS site_id, default_lang, settings FROM sites
  WHERE COALESCE(json_extract(settings, '$.locale_fallback_enabled'), 1) = 1
),
chain_all AS (
  SELECT site_id, lang AS req, lang AS served, 0 AS rank FROM site_langs
  UNION ALL
  SELECT sl.site_id, sl.lang, f.value, 1 + f.key FROM site_langs sl JOIN fallback_on o ON o.site_id = sl.site_id, json_each(o.settings, '$.locale_fallback') f
  UNION ALL
  SELECT sl.site_id, sl.lang, o.default_lang, 100000 FROM site_langs sl JOIN fallback_on o ON o.site_id = sl.site_id
),
chain AS (
  SELECT c.site_id, c.req, c.served, MIN(c.rank) AS rank FROM chain_all c
  WHERE EXISTS (SELECT 1 FROM site_langs k WHERE k.site_id = c.site_id AND k.lang = c.served)
  GROUP BY c.site_id, c.req, c.served
),
best AS (
  SELECT c.req, p.site_id, p.instance_id,
         ROW_NUMBER() OVER (PARTITION BY p.site_id, c.req, p.translation_group_id ORDER BY c.rank) AS n
  FROM chain c JOIN published_items p ON p.site_id = c.site_id AND p.lang = c.served
),
chosen AS (
  SELECT b.req, p.* FROM best b JOIN published_items p ON p.site_id = b.site_id AND p.instance_id = b.instance_id WHERE b.n = 1
)
SELECT site_id, model_id, req, '', translation_group_id, instance_id, sort_at, manual_position, body, mentions FROM chosen
UNION ALL
SELECT s.site_id, s.model_id, s.req, 'r:' || r.field || ':' || r.target_group_id, s.translation_group_id, s.instance_id, s.sort_at, s.manual_position, s.body, s.mentions
  FROM chosen s JOIN published_relations r ON r.site_id = s.site_id AND r.instance_id = s.instance_id
UNION ALL
SELECT s.site_id, s.model_id, s.req, 't:' || r.field || ':' || r.target_slug, s.translation_group_id, s.instance_id, s.sort_at, s.manual_position, s.body, s.mentions
  FROM chosen s JOIN published_relations r ON r.site_id = s.site_id AND r.instance_id = s.instance_id
  WHERE r.target_slug IS NOT NULL;
