-- SiteObject storage, version 4: the R2 multipart upload of a streamed upload in flight (docs/media.md,
-- "Admin streamed upload"). A streamed upload notes its key first (as every upload does), then the
-- multipart upload's id once R2 has created it and before its first part. A note that becomes due with
-- an id is a stopped streamed upload: the alarm aborts the multipart upload (its parts are not an
-- object yet, so deleting the key alone would leave them) before deleting any object of the key.
ALTER TABLE upload_objects ADD COLUMN upload_id TEXT;
