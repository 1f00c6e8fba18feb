/** Row types of the records of a write (audit, outbox, idempotency answers, deliveries) and the batch guard table. JSON columns are text here; services parse them. */

export interface AuditLogTable {
  id: string;
  site_id: string;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  credential_id: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  details: string;
}

export interface OutboxEventsTable {
  id: string;
  site_id: string;
  name: string;
  payload: string;
  created_at: string;
  /** When the site's object handed the event to the queue (null: not yet). */
  enqueued_at: string | null;
  /** When the queue consumer processed its message (null: not yet; the alarm resends it). */
  consumed_at: string | null;
}

export interface IdempotencyResultsTable {
  site_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
  expires_at: string;
}

export interface BatchGuardsTable {
  reason: string;
}

export interface EventDeliveriesTable {
  id: string;
  site_id: string;
  event_id: string;
  webhook_id: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string;
  state: "pending" | "delivered" | "dead";
  created_at: string;
  updated_at: string;
}
