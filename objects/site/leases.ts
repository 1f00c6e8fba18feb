import type { Clock } from "../../shared/clock";

/** A lease lasts this long after it was acquired or last renewed. */
export const LEASE_TTL_MS = 120_000;
/** Most live leases one holder may have at once, so one client cannot lock a whole site. */
export const MAX_OPEN_LEASES_PER_HOLDER = 20;
/**
 * How long a token that lost its resource to another holder is remembered, so that its editor
 * is told `lock_lost` (someone else may have edited) instead of `free` when it comes back.
 */
export const LOST_LEASE_MEMORY_MS = 24 * 60 * 60 * 1000;

/** An editing lease on one resource (for example `ent_x:en`). */
export interface Lease {
  resource: string;
  holder: string;
  /** Random, unguessable; proves which acquisition a renew/release/check comes from. */
  token: string;
  /** Epoch milliseconds after which the lease is gone unless renewed. */
  expiresAt: number;
}

/** Who wants a lease on what. */
export interface LeaseRequest {
  resource: string;
  holder: string;
}

/** Result of {@link LeaseBook.acquire}. */
export type AcquireResult =
  | { ok: true; lease: Lease }
  | { ok: false; reason: "locked"; heldBy: string; expiresAt: number }
  | { ok: false; reason: "too_many_leases" };

/** Result of {@link LeaseBook.renew}. */
export type RenewResult = { ok: true; lease: Lease } | { ok: false; reason: "lock_lost" };

/**
 * Result of {@link LeaseBook.check}:
 * - `held`: this holder (with this token, if given) has a live lease;
 * - `locked`: another holder has a live lease;
 * - `lock_lost`: this holder's lease was taken over, or expired and was then taken by someone
 *   else, or (token given) was superseded by a newer acquisition of the same holder;
 * - `free`: nobody holds the resource.
 */
export type LeaseStatus = "free" | "held" | "locked" | "lock_lost";

/** Who writes which entry languages, with the editing token the write carries (if any). */
export interface WriteLeaseRequest {
  /** The entry languages (instance ids) the write changes; the first is the one it names. */
  resources: readonly string[];
  holder: string;
  /** The `X-Editing-Token` of the write: a lease on the first resource. */
  token?: string;
}

/**
 * Result of {@link LeaseBook.admitWrite}: `pass`, or the refusal the write answers (423 `locked`:
 * another holder's live lease; 423 `lock_lost`: this writer's lease was taken from it).
 */
export type WriteAdmission = "pass" | "locked" | "lock_lost";

type LeaseRow = { resource: string; holder: string; token: string; expires_at: number };

/**
 * Editing leases of one site, in the Durable Object's SQLite storage (`lease_leases`,
 * `lease_lost`). All methods are synchronous, so read-then-write cannot interleave with another
 * call in the same object; multi-statement changes run in `transactionSync` to be all-or-nothing.
 *
 * An expired row may remain until {@link sweep}; every read treats it as absent, so results do
 * not depend on when the sweep last ran.
 */
export class LeaseBook {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly clock: Clock,
  ) {}

  /**
   * Acquires `resource` for `holder`. The same holder acquiring again gets a fresh token and a
   * full TTL (its previous token stops being valid). A live lease of another holder refuses with
   * `locked`; an expired one is replaced and its holder will see `lock_lost`.
   */
  acquire(request: LeaseRequest): AcquireResult {
    const { resource, holder } = request;
    const now = this.clock.now();
    return this.storage.transactionSync((): AcquireResult => {
      const current = this.#live(resource, now);
      if (current !== undefined && current.holder !== holder) {
        return { ok: false, reason: "locked", heldBy: current.holder, expiresAt: current.expires_at };
      }
      // Re-acquiring a resource already held does not add a lease, so it never hits the cap.
      if (current === undefined && this.#openCount(holder, now) >= MAX_OPEN_LEASES_PER_HOLDER) {
        return { ok: false, reason: "too_many_leases" };
      }
      return { ok: true, lease: this.#grant(resource, holder, now) };
    });
  }

  /** Extends a live lease by {@link LEASE_TTL_MS} from now. An expired, released, taken or superseded token gets `lock_lost`. */
  renew(resource: string, token: string): RenewResult {
    const now = this.clock.now();
    const expiresAt = now + LEASE_TTL_MS;
    const row = this.storage.sql
      .exec<LeaseRow>(
        `UPDATE lease_leases SET expires_at = ?
          WHERE resource = ? AND token = ? AND expires_at > ?
          RETURNING resource, holder, token, expires_at`,
        expiresAt,
        resource,
        token,
        now,
      )
      .toArray()[0];
    return row === undefined ? { ok: false, reason: "lock_lost" } : { ok: true, lease: toLease(row) };
  }

  /** Ends the lease if `token` still holds it. Returns whether a live lease was released. */
  release(resource: string, token: string): boolean {
    const rows = this.storage.sql
      .exec<{ expires_at: number }>(
        "DELETE FROM lease_leases WHERE resource = ? AND token = ? RETURNING expires_at",
        resource,
        token,
      )
      .toArray();
    // An expired row is deleted too (it is garbage), but releasing it released nothing.
    return rows.some((row) => row.expires_at > this.clock.now());
  }

  /**
   * Gives `resource` to `holder` whatever its state, for an editor who chose to take over.
   * The previous holder's token is remembered so their next check reports `lock_lost`.
   * Permission to take over is the caller's decision; the per-holder cap is not applied, as the
   * take-over is an explicit act rather than an editor opening one more document.
   */
  takeOver(request: LeaseRequest): Lease {
    const now = this.clock.now();
    return this.storage.transactionSync(() => this.#grant(request.resource, request.holder, now));
  }

  /** Where `holder` (and `token`, if given) stands on `resource`; see {@link LeaseStatus}. */
  check(request: LeaseRequest & { token?: string }): LeaseStatus {
    const { resource, holder, token } = request;
    const now = this.clock.now();
    const current = this.#live(resource, now);
    if (current !== undefined && current.holder === holder) {
      return token === undefined || token === current.token ? "held" : "lock_lost";
    }
    if (this.#wasLost(resource, holder, token, now)) return "lock_lost";
    return current === undefined ? "free" : "locked";
  }

  /**
   * Whether a write by `holder` may change `resources` (docs/content-rules.md, "Editing locks").
   * Per resource: nobody's live lease, or the holder's own → pass; another holder's live lease →
   * `locked`, or `lock_lost` when the writer's own lease on it was taken over (then it wrote
   * nothing since, so its view may be stale). A token (for the first resource, the one the write
   * names) that no longer holds it — taken over, or superseded by the holder's newer lease — is
   * `lock_lost` even when the resource is free now: the editor's text was made under a lost lease.
   * Without a token a free resource passes, whatever happened to the writer's leases before.
   * `lock_lost` wins over `locked`, so a writer whose lease was taken learns it first.
   */
  admitWrite(request: WriteLeaseRequest): WriteAdmission {
    const { holder, token } = request;
    let admission: WriteAdmission = "pass";
    for (const [index, resource] of [...new Set(request.resources)].entries()) {
      const named = index === 0 && token !== undefined;
      const status = this.check({ resource, holder, ...(named ? { token } : {}) });
      if (status === "lock_lost" && (named || this.get(resource) !== null)) return "lock_lost";
      if (status === "locked") admission = "locked";
    }
    return admission;
  }

  /** The live lease on `resource`, if any. */
  get(resource: string): Lease | null {
    const row = this.#live(resource, this.clock.now());
    return row === undefined ? null : toLease(row);
  }

  /** Deletes expired leases and forgotten lost-token records; returns how many rows. */
  sweep(): number {
    const now = this.clock.now();
    return this.storage.transactionSync(() => {
      const leases = this.storage.sql.exec("DELETE FROM lease_leases WHERE expires_at <= ? RETURNING 1", now).toArray();
      const lost = this.storage.sql.exec("DELETE FROM lease_lost WHERE expires_at <= ? RETURNING 1", now).toArray();
      return leases.length + lost.length;
    });
  }

  /** Earliest expiry of any lease or lost-token record (possibly past), or null when none. */
  nextExpiry(): number | null {
    return this.storage.sql
      .exec<{ t: number | null }>(
        "SELECT MIN(t) AS t FROM (SELECT MIN(expires_at) AS t FROM lease_leases UNION ALL SELECT MIN(expires_at) FROM lease_lost)",
      )
      .one().t;
  }

  // Writes a new lease with a fresh token over whatever row exists. When the resource passes to
  // a different holder, that holder's token is recorded as lost, live or expired alike: in both
  // cases someone else may now edit, which the loser must learn as `lock_lost`.
  #grant(resource: string, holder: string, now: number): Lease {
    const sql = this.storage.sql;
    const previous = sql
      .exec<LeaseRow>("SELECT resource, holder, token, expires_at FROM lease_leases WHERE resource = ?", resource)
      .toArray()[0];
    if (previous !== undefined && previous.holder !== holder) {
      sql.exec(
        `INSERT INTO lease_lost (resource, token, holder, taken_by, lost_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (resource, token) DO NOTHING`,
        resource,
        previous.token,
        previous.holder,
        holder,
        now,
        now + LOST_LEASE_MEMORY_MS,
      );
    }
    // The holder is back on this resource: its earlier losses no longer describe it as a whole,
    // though each old token still does (see #wasLost).
    sql.exec(
      "UPDATE lease_lost SET reacquired_at = ? WHERE resource = ? AND holder = ? AND reacquired_at IS NULL",
      now,
      resource,
      holder,
    );
    const lease: Lease = { resource, holder, token: newToken(), expiresAt: now + LEASE_TTL_MS };
    sql.exec(
      `INSERT INTO lease_leases (resource, holder, token, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (resource) DO UPDATE SET
         holder = excluded.holder, token = excluded.token, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      lease.resource,
      lease.holder,
      lease.token,
      now,
      lease.expiresAt,
    );
    return lease;
  }

  #live(resource: string, now: number): LeaseRow | undefined {
    return this.storage.sql
      .exec<LeaseRow>(
        "SELECT resource, holder, token, expires_at FROM lease_leases WHERE resource = ? AND expires_at > ?",
        resource,
        now,
      )
      .toArray()[0];
  }

  #openCount(holder: string, now: number): number {
    return this.storage.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM lease_leases WHERE holder = ? AND expires_at > ?", holder, now)
      .one().n;
  }

  #wasLost(resource: string, holder: string, token: string | undefined, now: number): boolean {
    const sql = this.storage.sql;
    const rows =
      token === undefined
        ? sql.exec(
            "SELECT 1 FROM lease_lost WHERE resource = ? AND holder = ? AND reacquired_at IS NULL AND expires_at > ? LIMIT 1",
            resource,
            holder,
            now,
          )
        : sql.exec(
            "SELECT 1 FROM lease_lost WHERE resource = ? AND token = ? AND holder = ? AND expires_at > ? LIMIT 1",
            resource,
            token,
            holder,
            now,
          );
    return rows.toArray().length > 0;
  }
}

function toLease(row: LeaseRow): Lease {
  return { resource: row.resource, holder: row.holder, token: row.token, expiresAt: row.expires_at };
}

// 128 random bits, base64url without padding (22 characters): safe in headers, URLs and JSON.
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
