-- Plugin launches, delegations and event signing (docs/plugins.md).
--
-- A launch code (dwl_…) is created when a person (directly or through a management credential)
-- opens a plugin view or content action. It is stored only as its SHA-256 digest, valid once for
-- 60000 ms. Exchanging it (with the plugin's installation token) consumes it in one conditional
-- UPDATE and yields the delegation: who launched, through which credential, what was delegated.
-- A delegation is never a credential of the person; every use re-checks the person's authority.
CREATE TABLE plugin_delegations (
  id TEXT PRIMARY KEY,                 -- dlg_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  installation_id TEXT NOT NULL REFERENCES plugin_installations(id) ON DELETE CASCADE,
  person_id TEXT NOT NULL,             -- the person the plugin acts for
  credential_id TEXT,                  -- the management credential used to launch, or NULL (admin session)
  scopes TEXT,                         -- JSON array: the credential's scopes at launch (NULL: a person, every scope)
  model_ids TEXT,                      -- JSON array: the credential's models (NULL: every model)
  capabilities TEXT NOT NULL,          -- JSON array: delegated capabilities ∩ the installation grant at launch
  launch_kind TEXT NOT NULL CHECK (launch_kind IN ('manage_view', 'content_action')),
  launch_target TEXT NOT NULL,         -- the view or action id of the manifest
  instance_id TEXT,                    -- the entry of a content action
  created_at TEXT NOT NULL,
  expires_at INTEGER NOT NULL          -- ms; a delegation is refused from this instant
);
CREATE INDEX idx_plugin_delegations_installation ON plugin_delegations(installation_id, created_at);

CREATE TABLE plugin_launch_codes (
  code_digest TEXT PRIMARY KEY,        -- SHA-256 hex of the dwl_ code
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  installation_id TEXT NOT NULL REFERENCES plugin_installations(id) ON DELETE CASCADE,
  delegation_id TEXT NOT NULL REFERENCES plugin_delegations(id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,         -- ms; created + 60000
  consumed_at INTEGER                  -- ms; set once by the exchange
);
CREATE INDEX idx_plugin_launch_codes_expiry ON plugin_launch_codes(expires_at);

-- The secret plugin event deliveries are signed with (like a webhook's: signing needs the secret
-- itself). Shown with the token at install and rotation; never listed.
ALTER TABLE plugin_installations ADD COLUMN event_secret TEXT;
