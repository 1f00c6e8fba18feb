-- Plugin operations (spec 2 rules 12–13, docs/plugin-operations.md): an operation run hands the
-- plugin a one-time code exactly like a launch, so its delegation is a third launch kind.
--
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt with the same columns and
-- the wider CHECK. Dropping the old table would cascade to plugin_launch_codes (ON DELETE CASCADE),
-- so live codes are kept aside and put back (they live 60 s; none is lost by the rebuild).
PRAGMA defer_foreign_keys = true;

CREATE TABLE plugin_launch_codes_keep AS SELECT * FROM plugin_launch_codes;

CREATE TABLE plugin_delegations_next (
  id TEXT PRIMARY KEY,                 -- dlg_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  installation_id TEXT NOT NULL REFERENCES plugin_installations(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,             -- the person the plugin acts for
  credential_id TEXT,                  -- the management credential used to launch, or NULL (admin session)
  scopes TEXT,                         -- JSON array: the credential's scopes at launch (NULL: a person, every scope)
  model_ids TEXT,                      -- JSON array: the credential's models (NULL: every model)
  capabilities TEXT NOT NULL,          -- JSON array: delegated capabilities ∩ the installation grant at launch
  launch_kind TEXT NOT NULL CHECK (launch_kind IN ('manage_view', 'content_action', 'operation')),
  launch_target TEXT NOT NULL,         -- the view, action or operation id of the manifest
  instance_id TEXT,                    -- the entry of a content action or an entry operation
  created_at TEXT NOT NULL,
  expires_at INTEGER NOT NULL          -- ms; a delegation is refused from this instant
);
INSERT INTO plugin_delegations_next SELECT id, site_id, installation_id, person_id, credential_id, scopes, model_ids, capabilities, launch_kind, launch_target, instance_id, created_at, expires_at FROM plugin_delegations;
DROP TABLE plugin_delegations;
ALTER TABLE plugin_delegations_next RENAME TO plugin_delegations;
CREATE INDEX idx_plugin_delegations_installation ON plugin_delegations(installation_id, created_at);

DELETE FROM plugin_launch_codes;
INSERT INTO plugin_launch_codes SELECT * FROM plugin_launch_codes_keep;
DROP TABLE plugin_launch_codes_keep;
