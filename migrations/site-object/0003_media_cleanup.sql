-- SiteObject storage, version 3: R2 objects of removed media items still to delete (docs/media.md,
-- "Remove"). A removal notes every object its item had before its batch commits; after the commit
-- the object deletes them and forgets each one deleted. What is left (a failed delete, or a removal
-- that stopped between its commit and the deletes) is retried by the alarm until done. A key the
-- object ledger (media_objects) still names — the removal did not commit — or that published_media
-- pins is forgotten without deleting it.
CREATE TABLE media_cleanup (
  object_key TEXT    NOT NULL PRIMARY KEY,
  media_id   TEXT    NOT NULL,
  noted_at   INTEGER NOT NULL,
  attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX media_cleanup_by_media ON media_cleanup (media_id);
