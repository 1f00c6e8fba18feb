-- Comments (issue #29 item 5, docs/comments.md): readers' comments on published items of models
-- the site's comment settings allow. Posted on the site host (proof-of-work + a rate limit per
-- client address), stored as pending by default, moderated through the management API and the
-- admin; approved ones are served publicly. A comment belongs to the item (its translation group)
-- and records the language it was posted from.
CREATE TABLE comments (
  id TEXT PRIMARY KEY,                 -- cmt_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  translation_group_id TEXT NOT NULL,  -- the item commented on
  instance_id TEXT NOT NULL,           -- the language instance the reader commented on
  lang TEXT NOT NULL,
  author_name TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'spam')),
  challenge_id TEXT NOT NULL,          -- the proof-of-work challenge it spent: each serves one comment
  revision INTEGER NOT NULL DEFAULT 1,
  moderated_by TEXT,
  moderated_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_comments_challenge ON comments(site_id, challenge_id);
CREATE INDEX idx_comments_item ON comments(site_id, translation_group_id, status, created_at, id);
CREATE INDEX idx_comments_status ON comments(site_id, status, created_at, id);
