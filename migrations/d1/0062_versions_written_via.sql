-- What a version was written through besides its person (issue #30 item 10, docs/admin-ui-lists.md):
-- the management credential (mcr_…), OAuth connection (con_…) or plugin installation (pin_…) that
-- wrote it, or `import:<job id>` for an import's writes; NULL for a person in the admin (and for
-- every version written before this column). The entry list's "Updated by" names it.
ALTER TABLE versions ADD COLUMN created_via TEXT;
