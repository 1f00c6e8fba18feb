-- Incremental sync (issue #29 item 1, docs/sync.md): the ordered log of what the public API serves.
-- One row per change, written in the same D1 batch as the write that makes it (publish, unpublish,
-- a dependent's re-render, a model change), so a reader never sees a change without its row or a
-- row without its change. `seq` is assigned inside the writing transaction; D1 commits one write
-- at a time, so rows become visible in `seq` order and a reader paging by `seq` misses nothing.
--   kind 'entry'   : an item language was published or re-rendered; `body` is the public item as
--                    served from then on (the published_items body).
--   kind 'deleted' : an item language left the public API (unpublished, withdrawn); `model_slug`
--                    and `lang` name it for the client.
--   kind 'media'   : a media item's public files changed (pinned or unpinned); rendered at read time.
--   kind 'reset'   : a change the log cannot express item by item (a model's visibility, fields or
--                    slug, a language removed): cursors from before it answer `reset: true`.
-- Rows older than the retention window (31 days; cursors older than 30 days are reset) are pruned
-- by the writes of the site. Not copied by a site move: a cursor names its database and resets.
CREATE TABLE sync_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('entry', 'deleted', 'media', 'reset')),
  ref_id TEXT NOT NULL,
  model_id TEXT,
  model_slug TEXT,
  lang TEXT,
  body TEXT,
  changed_at TEXT NOT NULL
);
CREATE INDEX idx_sync_changes_site ON sync_changes(site_id, seq);
CREATE INDEX idx_sync_changes_age ON sync_changes(site_id, changed_at);
