-- Invitations to a site (docs/people.md): a person with `role:manage` invites an email address
-- with a role; the invitee opens the single-use link `{admin origin}/invite#dwi_…` and accepts.
-- Only the SHA-256 digest of the token is stored. An invitation is pending while accepted_at and
-- revoked_at are null and expires_at (7 days after creation) is in the future; accepting sets
-- accepted_at in the same batch that creates the person (or finds them) and the membership, under
-- a guard on that pending state, so a token is accepted once however many requests race.
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,                 -- inv_…
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  email TEXT NOT NULL,                 -- trimmed, lower-case (as persons.email)
  role_id TEXT NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
  digest TEXT NOT NULL UNIQUE,         -- SHA-256 hex of the dwi_ token; the token is never stored
  invited_by TEXT NOT NULL,            -- person id of the inviter
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  accepted_by TEXT,                    -- person id that accepted
  revoked_at TEXT
);
CREATE INDEX idx_invitations_site_email ON invitations(site_id, email);
CREATE INDEX idx_invitations_site_created ON invitations(site_id, created_at);
