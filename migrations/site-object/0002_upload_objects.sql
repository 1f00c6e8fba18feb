-- SiteObject storage, version 2: R2 objects of uploads in flight (docs/media.md, "Stopped uploads").
-- A row is written before the worker stores an upload's object and removed once the worker has kept
-- or deleted it. A row older than the grace period means the upload stopped in between: the alarm
-- deletes the object unless a committed media row names it, then forgets the row.
CREATE TABLE upload_objects (
  object_key TEXT    NOT NULL PRIMARY KEY,
  noted_at   INTEGER NOT NULL
);
CREATE INDEX upload_objects_by_time ON upload_objects (noted_at);
