import type { CompiledQuery } from "kysely";
import { isoAt, type Clock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { AppError } from "../../shared/errors";

/**
 * Idempotency of the operators' writes (docs/operations-api.md, "Idempotency"). Claims live in the
 * control database (`ops_claims`, migration 0032), not in a site's object: createSite has no site
 * yet, and an operator's writes are directory writes committed in the control database anyway.
 *
 * - A claim is one INSERT keyed by the Idempotency-Key: of two concurrent requests one inserts,
 *   the other sees the row (409 `idempotency_in_progress` with Retry-After, or the replay).
 * - The answer is stored by a statement that rides in the batch of the change itself
 *   ({@link completeStatement}): a pending claim therefore means nothing was committed, so a claim
 *   left pending longer than {@link TAKE_OVER_AFTER_MS} (a crashed request) is taken over by the
 *   retry and the command runs again. The invitation is the one exception (its service commits
 *   its own batch): a lost answer there makes a new link on retry, which replaces the first.
 * - A refusal frees the key (spec 2, idempotency rule 1); a replay answers the first status and
 *   body with `replayed: true`; the same key with another method, path or body is 409
 *   `idempotency_key_reused`. Answers are kept 30 days.
 */
export const OPS_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PENDING_TTL_MS = 24 * 60 * 60 * 1000;
export const TAKE_OVER_AFTER_MS = 60_000;

export type OpsClaim = { kind: "claimed" } | { kind: "replay"; status: number; body: string };

export async function claimOps(d1: D1Database, clock: Clock, key: string, fingerprint: string): Promise<OpsClaim> {
  const db = createDb(d1);
  const now = clock.now();
  const at = isoAt(now);
  // An expired claim counts as absent; a pending one older than TAKE_OVER_AFTER_MS committed nothing.
  await d1
    .prepare("DELETE FROM ops_claims WHERE key = ? AND (expires_at <= ? OR (state = 'pending' AND fingerprint = ? AND claimed_at <= ?))")
    .bind(key, at, fingerprint, isoAt(now - TAKE_OVER_AFTER_MS))
    .run();
  const inserted = await d1
    .prepare("INSERT INTO ops_claims (key, fingerprint, state, status, body, claimed_at, expires_at) VALUES (?, ?, 'pending', NULL, NULL, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING key")
    .bind(key, fingerprint, at, isoAt(now + PENDING_TTL_MS))
    .all();
  if (inserted.results.length > 0) return { kind: "claimed" };
  const row = await db.selectFrom("ops_claims").selectAll().where("key", "=", key).executeTakeFirst();
  if (!row) return claimOps(d1, clock, key, fingerprint);
  if (row.fingerprint !== fingerprint) throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for another request.");
  if (row.state === "completed") return { kind: "replay", status: row.status ?? 200, body: row.body ?? "null" };
  throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still running; retry shortly.", { retry_after: 1 });
}

/** The statement storing a claimed command's answer: part of the command's own batch. */
export function completeStatement(d1: D1Database, clock: Clock, key: string, status: number, body: unknown): CompiledQuery {
  const now = clock.now();
  const compiled = createDb(d1)
    .updateTable("ops_claims")
    .set({ state: "completed", status, body: JSON.stringify(body), expires_at: isoAt(now + OPS_RETENTION_MS) })
    .where("key", "=", key)
    .where("state", "=", "pending")
    .compile();
  return compiled;
}

/** Frees a claim whose command was refused or failed, so a corrected retry can run. */
export async function freeOps(d1: D1Database, key: string): Promise<void> {
  await d1.prepare("DELETE FROM ops_claims WHERE key = ? AND state = 'pending'").bind(key).run();
}

/** Stores the answer of a command that committed its own batch (the invitation). */
export async function completeOps(d1: D1Database, clock: Clock, key: string, status: number, body: unknown): Promise<void> {
  const statement = completeStatement(d1, clock, key, status, body);
  await d1.prepare(statement.sql).bind(...(statement.parameters as unknown[])).run();
}
