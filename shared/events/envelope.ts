/** What a subscriber receives as the JSON body of a delivery (docs/events.md). */
export interface EventEnvelope {
  id: string;
  name: string;
  site_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

/** The outbox row columns an envelope is built from. */
export interface OutboxRow {
  id: string;
  site_id: string;
  name: string;
  payload: string;
  created_at: string;
}

/** commitPlan stores `{ ...payload, site_id, occurred_at }`; the envelope lifts those two out of `data`. */
export function envelopeOf(row: OutboxRow): EventEnvelope {
  const parsed: unknown = JSON.parse(row.payload);
  const data: Record<string, unknown> = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? { ...(parsed as Record<string, unknown>) } : {};
  const occurredAt = typeof data.occurred_at === "string" ? data.occurred_at : row.created_at;
  delete data.site_id;
  delete data.occurred_at;
  return { id: row.id, name: row.name, site_id: row.site_id, occurred_at: occurredAt, data };
}
