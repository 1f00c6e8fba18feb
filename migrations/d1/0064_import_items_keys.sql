-- The Driftwood-kind import's steps read by key, not by walking the job (issue #28, the round trip
-- of a large site; docs/imports.md "Driftwood exports"). Each step read what grows with the job: the
-- staged models through the (job_id, state, seq) index filtered by kind (every staged row of the
-- job when fewer than 200 models), the ids of every entry the job created, a count of every item
-- left, and each entry's translation sibling through json_extract over the job's entries.
--   idx_import_items_kind_state: the next items of one kind in one state, in file order (a range).
--   source_group: the exported entry's translation group, staged beside it; a language finds the
--   entry its group already became by this key (idx_import_items_group: a group is a few rows).
ALTER TABLE import_items ADD COLUMN source_group TEXT;
UPDATE import_items SET source_group = json_extract(payload, '$.translation_group_id')
  WHERE kind = 'entry' AND job_id IN (SELECT id FROM import_jobs WHERE kind = 'driftwood');
CREATE INDEX idx_import_items_kind_state ON import_items(job_id, kind, state, seq);
CREATE INDEX idx_import_items_group ON import_items(job_id, source_group) WHERE source_group IS NOT NULL;
