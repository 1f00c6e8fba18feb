-- Unique fields (docs/unique-fields.md): one claim row per entry language and unique field, made
-- from the language's current draft. A value is normalised (text: NFC, trimmed, lower-cased;
-- number: canonical decimal string) and scoped: '' for `unique: "model"`, the language code for
-- `unique: "language"`. Empty values claim nothing. Languages of one translation group may share a
-- value; the trigger refuses a claim another group holds, aborting the whole batch (409 write_conflict).
CREATE TABLE unique_values (
  site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  field_id TEXT NOT NULL,
  scope TEXT NOT NULL,                 -- '' (model scope) or the language code (language scope)
  value TEXT NOT NULL,                 -- normalised value
  translation_group_id TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  PRIMARY KEY (site_id, instance_id, field_id)
);
CREATE INDEX idx_unique_values_value ON unique_values(site_id, model_id, field_id, scope, value);

CREATE TRIGGER unique_values_claim BEFORE INSERT ON unique_values
WHEN EXISTS (
  SELECT 1 FROM unique_values u
  WHERE u.site_id = NEW.site_id AND u.model_id = NEW.model_id AND u.field_id = NEW.field_id
    AND u.scope = NEW.scope AND u.value = NEW.value AND u.translation_group_id <> NEW.translation_group_id
)
BEGIN SELECT RAISE(ABORT, 'guard:write_conflict'); END;
