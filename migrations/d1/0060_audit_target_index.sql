-- Audit rows by what they were done to (docs/admin-ui-trash.md): the Trash screen finds who moved
-- each listed item to Trash (its `entry.trash` row) without scanning the site's audit log from that
-- moment on; the audit log's entry filter (`?entry=`) reads the same index.
CREATE INDEX idx_audit_site_target ON audit_log(site_id, target_id, at);
