-- Who a proposal comes from (docs/management-api.md, "Who asks"): a person proposing in their own
-- admin session is recorded as the person, source { "kind": "person", "id": <person id>,
-- "label": <name> }, not as a management credential. Proposals made that way before hold
-- { "kind": "management", "id": "person:<person id>", "label": <name> }, an id no credential has:
-- they are rewritten to the person's shape, so every stored source names a real credential,
-- person, plugin or assistant. Sources of credentials (`mcr_…`, `con_…`) are left as they are.
UPDATE entry_proposals
SET source = json_set(source, '$.kind', 'person', '$.id', substr(json_extract(source, '$.id'), 8))
WHERE json_extract(source, '$.kind') = 'management' AND substr(json_extract(source, '$.id'), 1, 7) = 'person:';

UPDATE model_proposals
SET source = json_set(source, '$.kind', 'person', '$.id', substr(json_extract(source, '$.id'), 8))
WHERE json_extract(source, '$.kind') = 'management' AND substr(json_extract(source, '$.id'), 1, 7) = 'person:';
