-- Events survive a crash (docs/events.md, "After a crash"): an outbox row is done only when the
-- queue consumer has taken its message. `enqueued_at` says the site's object handed it to the
-- queue; `consumed_at` is written by the consumer once it has processed the message (delivery rows
-- written, first attempts made). The object's alarm sends again a row handed over but not consumed
-- within RESEND_AFTER_MS (objects/site/sent-events.ts): a message handed to the queue dies with a
-- local runtime that is killed before consuming it.
ALTER TABLE outbox_events ADD COLUMN consumed_at TEXT;

-- Rows handed over before this migration count as consumed: their messages were processed long
-- ago, or are lost beyond what a resend now could tell apart from a duplicate.
UPDATE outbox_events SET consumed_at = enqueued_at WHERE enqueued_at IS NOT NULL;

-- The alarm's look for handed-over, unconsumed rows: small (rows leave it once consumed).
CREATE INDEX idx_outbox_unconsumed ON outbox_events(site_id, enqueued_at) WHERE enqueued_at IS NOT NULL AND consumed_at IS NULL;
