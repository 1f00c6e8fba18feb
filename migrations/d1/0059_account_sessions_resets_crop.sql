-- Sessions listed and revocable by their person (docs/people.md, "Sessions"): a public id that is
-- not the secret's digest, and the browser that signed in (at most 300 characters, shown only to
-- the session's own person). Sessions made before this migration get an id derived from their digest
-- (a prefix of a SHA-256 digest of a random secret tells nothing about the secret).
ALTER TABLE sessions ADD COLUMN public_id TEXT;
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
UPDATE sessions SET public_id = 'ses_' || substr(id_digest, 1, 24) WHERE public_id IS NULL;
CREATE UNIQUE INDEX idx_sessions_public_id ON sessions(public_id);

-- One-time password reset links an administrator creates (docs/people.md, "Password reset"):
-- only the SHA-256 digest of the token is stored; a link works once, until expires_at.
CREATE TABLE password_resets (
  token_digest TEXT PRIMARY KEY,
  person_id TEXT NOT NULL REFERENCES persons(id),
  site_id TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  voided_at TEXT
);
CREATE INDEX idx_password_resets_person ON password_resets(person_id, created_at);

-- A crop of an image as fractions of its width and height (docs/media.md, "Crop"): stored on the
-- item, applied by delivery when responsive images come. NULL: the whole picture.
ALTER TABLE media ADD COLUMN crop TEXT;
