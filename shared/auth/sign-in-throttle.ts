import { sha256Hex } from "../crypto/digest";

/**
 * Sign-in throttling (docs/admin-api.md, "Sign-in throttling"): failed sign-ins are counted in
 * fixed windows per account (the normalised email) and per client address, in D1 table
 * `sign_in_failures` (the admin host has no site, so no site object to count in). An attempt is
 * counted *before* the password is checked, by a conditional upsert that refuses to count past the
 * limit: concurrent attempts cannot all slip under it, and a refused attempt costs no PBKDF2.
 */

/** Thresholds: per window, failures allowed before further attempts are refused with 429. */
export const SIGN_IN_THROTTLE = {
  windowMs: 15 * 60_000,
  perAccount: 5,
  perAddress: 20,
} as const;

/** The counters one attempt touches: its account's and, when known, its address's (digests). */
export interface ThrottleKeys {
  account: string;
  address: string | null;
}

export type Reservation = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The counter keys of an attempt; the email normalised as sign-in compares it. */
export async function throttleKeys(email: string, clientAddress: string | null): Promise<ThrottleKeys> {
  return {
    account: await sha256Hex(`account:${email.trim().toLowerCase()}`),
    address: clientAddress === null ? null : await sha256Hex(`address:${clientAddress}`),
  };
}

// A window that has ended starts again at 1; otherwise +1, but only while under the limit (the
// DO UPDATE's WHERE), so a refused attempt returns no row and changes nothing.
const COUNT_ATTEMPT = `INSERT INTO sign_in_failures (key_digest, window_started_at, failures) VALUES (?1, ?2, 1)
  ON CONFLICT (key_digest) DO UPDATE SET
    failures = CASE WHEN window_started_at <= ?2 - ?3 THEN 1 ELSE failures + 1 END,
    window_started_at = CASE WHEN window_started_at <= ?2 - ?3 THEN ?2 ELSE window_started_at END
  WHERE window_started_at <= ?2 - ?3 OR failures < ?4
  RETURNING failures`;

const UNCOUNT_ATTEMPT = "UPDATE sign_in_failures SET failures = failures - 1 WHERE key_digest = ? AND failures > 0";

async function countAttempt(d1: D1Database, key: string, now: number, limit: number): Promise<boolean> {
  const row = await d1.prepare(COUNT_ATTEMPT).bind(key, now, SIGN_IN_THROTTLE.windowMs, limit).first<{ failures: number }>();
  return row !== null;
}

async function retryAfter(d1: D1Database, key: string, now: number): Promise<number> {
  const row = await d1.prepare("SELECT window_started_at FROM sign_in_failures WHERE key_digest = ?").bind(key).first<{ window_started_at: number }>();
  const endsAt = (row?.window_started_at ?? now) + SIGN_IN_THROTTLE.windowMs;
  return Math.max(1, Math.ceil((endsAt - now) / 1000));
}

/**
 * Counts an attempt as a failure on its account, then on its address, before the password is
 * checked. The account comes first so that attempts on a throttled account never reach the
 * address counter: one throttled account cannot lock out others behind the same address. An
 * address refusal takes the account's count back. Expired rows are swept on the way.
 */
export async function reserveAttempt(d1: D1Database, keys: ThrottleKeys, now: number): Promise<Reservation> {
  await d1.prepare("DELETE FROM sign_in_failures WHERE window_started_at <= ?").bind(now - SIGN_IN_THROTTLE.windowMs).run();
  if (!(await countAttempt(d1, keys.account, now, SIGN_IN_THROTTLE.perAccount))) {
    return { ok: false, retryAfterSeconds: await retryAfter(d1, keys.account, now) };
  }
  if (keys.address !== null && !(await countAttempt(d1, keys.address, now, SIGN_IN_THROTTLE.perAddress))) {
    await d1.prepare(UNCOUNT_ATTEMPT).bind(keys.account).run();
    return { ok: false, retryAfterSeconds: await retryAfter(d1, keys.address, now) };
  }
  return { ok: true };
}

/** A successful sign-in: its account starts over, and the address gets its counted attempt back. */
export async function recordSuccess(d1: D1Database, keys: ThrottleKeys): Promise<void> {
  const statements = [d1.prepare("DELETE FROM sign_in_failures WHERE key_digest = ?").bind(keys.account)];
  if (keys.address !== null) statements.push(d1.prepare(UNCOUNT_ATTEMPT).bind(keys.address));
  await d1.batch(statements);
}
