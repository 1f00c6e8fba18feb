import type { Clock } from "../../shared/clock";

/** A claim left pending (command never completed nor freed) stops blocking its key after this. */
export const PENDING_CLAIM_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a publish, unpublish or move answer is replayable: long, because they are lifecycle steps clients may retry late. */
export const RETENTION_LIFECYCLE_MS = 30 * 24 * 60 * 60 * 1000;
/** How long any other command's answer is replayable. */
export const RETENTION_DEFAULT_MS = 24 * 60 * 60 * 1000;
/** Retry-After for a key whose command is running right now in this object: it should finish soon. */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;
/**
 * A command still running here after this long is stuck (a hung dependency), not slow: its claim is
 * stale-pending too, answered without Retry-After, because waiting is no longer a useful answer and
 * ageing does not make running it again safe (spec 2, idempotency rule 3).
 */
export const STALE_RUNNING_MS = 60_000;

/** What a caller asks to claim. */
export interface ClaimRequest {
  /** Namespace of the key (for example credential + route); keys never match across scopes. */
  scope: string;
  /** The client's Idempotency-Key. */
  key: string;
  /** Digest of the request (method, path, body…): tells a retry from a reuse of the key. */
  fingerprint: string;
  /** Intended retention of the answer; {@link IdempotencyLedger.complete} uses it unless given another. */
  retentionMs: number;
}

/**
 * The outcome of {@link IdempotencyLedger.claim}:
 * - `claimed`: run the command, then `complete` (or `free` if it was refused or failed);
 * - `replay`: answer with the stored status and body, do not run the command;
 * - `in_progress`: the same request is still pending; `retryAfterSeconds` is set when it is
 *   running in this object instance, null when it is stale-pending: the object restarted
 *   mid-command (nobody here will finish it; the caller may {@link IdempotencyLedger.takeOver} the
 *   claim to resolve it) or the command has run here longer than {@link STALE_RUNNING_MS};
 * - `reused`: the key was used for a different request.
 */
export type ClaimResult =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "in_progress"; retryAfterSeconds: number | null }
  | { kind: "reused" };

/** The exact answer stored for replay. */
export interface StoredAnswer {
  status: number;
  body: string;
}

type ClaimRow = {
  fingerprint: string;
  state: "pending" | "completed";
  status: number | null;
  body: string | null;
  retention_ms: number;
  expires_at: number;
};

/**
 * Idempotency keys of one site, in the Durable Object's SQLite storage (`ledger_claims`).
 *
 * Every method is synchronous: with no await between reading and writing a row, two calls in the
 * same object cannot both see a key as free, so exactly one of them gets `claimed`.
 *
 * Which claims are running is kept in memory on purpose: after an eviction or restart the set is
 * empty, and a row still pending is then known to be stale rather than merely slow.
 */
export class IdempotencyLedger {
  /** Claims whose command runs in this instance now, with when it started (ms). */
  readonly #running = new Map<string, number>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  /** Claims `key` in `scope` for one run of a command, or says why the command must not run. */
  claim(request: ClaimRequest): ClaimResult {
    const { scope, key, fingerprint, retentionMs } = request;
    assertDuration(retentionMs, "retentionMs");
    const now = this.clock.now();
    return this.storage.transactionSync((): ClaimResult => {
      const sql = this.storage.sql;
      const row = sql
        .exec<ClaimRow>(
          "SELECT fingerprint, state, status, body, retention_ms, expires_at FROM ledger_claims WHERE scope = ? AND key = ?",
          scope,
          key,
        )
        .toArray()[0];
      if (row !== undefined && row.expires_at > now) {
        if (row.fingerprint !== fingerprint) return { kind: "reused" };
        if (row.state === "completed") return { kind: "replay", status: row.status ?? 500, body: row.body ?? "" };
        const startedAt = this.#running.get(runningKey(scope, key));
        const running = startedAt !== undefined && now - startedAt < STALE_RUNNING_MS;
        return { kind: "in_progress", retryAfterSeconds: running ? IN_PROGRESS_RETRY_AFTER_SECONDS : null };
      }
      // Absent or expired (an expired row counts as absent): this request takes the key.
      sql.exec(
        `INSERT INTO ledger_claims (scope, key, fingerprint, state, status, body, retention_ms, claimed_at, completed_at, expires_at)
         VALUES (?, ?, ?, 'pending', NULL, NULL, ?, ?, NULL, ?)
         ON CONFLICT (scope, key) DO UPDATE SET
           fingerprint = excluded.fingerprint, state = 'pending', status = NULL, body = NULL,
           retention_ms = excluded.retention_ms, claimed_at = excluded.claimed_at,
           completed_at = NULL, expires_at = excluded.expires_at`,
        scope,
        key,
        fingerprint,
        retentionMs,
        now,
        now + PENDING_CLAIM_TTL_MS,
      );
      this.#running.set(runningKey(scope, key), now);
      return { kind: "claimed" };
    });
  }

  /**
   * Takes over a stale-pending claim left by an earlier instance, so that exactly one request
   * resolves it (answers from what the command wrote, or runs it) while identical requests see it
   * running (`in_progress` with Retry-After). False when the claim is not pending, or is running
   * here (a stuck command is never taken over: running it again could write twice).
   * Synchronous: call it right after `claim`, before any await.
   */
  takeOver(scope: string, key: string): boolean {
    const id = runningKey(scope, key);
    if (this.#running.has(id)) return false;
    const pending = this.storage.sql
      .exec<{ key: string }>("SELECT key FROM ledger_claims WHERE scope = ? AND key = ? AND state = 'pending' AND expires_at > ?", scope, key, this.clock.now())
      .toArray();
    if (pending.length === 0) return false;
    this.#running.set(id, this.clock.now());
    return true;
  }

  /**
   * Gives back a claim taken over when its outcome could not be learnt: the row stays pending
   * (stale) for a later request to resolve.
   */
  release(scope: string, key: string): void {
    this.#running.delete(runningKey(scope, key));
  }

  /**
   * Records the exact answer of a claimed command, replayable until now + `retentionMs`
   * (default: the retention given at claim time). Returns false when there was no pending claim
   * to complete (it expired, or was freed), in which case nothing is stored: without the claim
   * we no longer know the request's fingerprint.
   */
  complete(scope: string, key: string, answer: StoredAnswer, retentionMs?: number): boolean {
    if (retentionMs !== undefined) assertDuration(retentionMs, "retentionMs");
    const now = this.clock.now();
    this.#running.delete(runningKey(scope, key));
    const updated = this.storage.sql
      .exec<{ scope: string }>(
        `UPDATE ledger_claims
            SET state = 'completed', status = ?, body = ?, completed_at = ?,
                expires_at = ? + COALESCE(?, retention_ms)
          WHERE scope = ? AND key = ? AND state = 'pending' AND expires_at > ?
          RETURNING scope`,
        answer.status,
        answer.body,
        now,
        now,
        retentionMs ?? null,
        scope,
        key,
        now,
      )
      .toArray();
    return updated.length > 0;
  }

  /**
   * Frees the key of a command that was refused or failed, so a corrected retry can run.
   * Only a pending claim is freed: a late `free` must never erase an answer already stored.
   */
  free(scope: string, key: string): boolean {
    this.#running.delete(runningKey(scope, key));
    const deleted = this.storage.sql
      .exec<{ scope: string }>(
        "DELETE FROM ledger_claims WHERE scope = ? AND key = ? AND state = 'pending' RETURNING scope",
        scope,
        key,
      )
      .toArray();
    return deleted.length > 0;
  }

  /** Deletes expired rows; returns how many. Meant for the object's alarm. */
  sweep(): number {
    const deleted = this.storage.sql
      .exec<{ scope: string; key: string }>(
        "DELETE FROM ledger_claims WHERE expires_at <= ? RETURNING scope, key",
        this.clock.now(),
      )
      .toArray();
    for (const row of deleted) this.#running.delete(runningKey(row.scope, row.key));
    return deleted.length;
  }

  /** Earliest expires_at of any row (possibly already past), or null when the ledger is empty. */
  nextExpiry(): number | null {
    return this.storage.sql.exec<{ t: number | null }>("SELECT MIN(expires_at) AS t FROM ledger_claims").one().t;
  }
}

// JSON keeps (scope, key) pairs distinct whatever characters either contains.
function runningKey(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}

function assertDuration(ms: number, name: string): void {
  if (!Number.isSafeInteger(ms) || ms <= 0) throw new RangeError(`${name} must be a positive integer of milliseconds; got ${ms}`);
}
