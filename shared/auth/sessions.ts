import type { Kysely } from "kysely";
import { isoAt } from "../clock";
import { commit } from "../db/batch";
import type { Database } from "../db/database";
import { base64url, newSecret, sha256Hex } from "../crypto/digest";
import { newId } from "../ids";
import { PASSWORD_ITERATIONS, verifyPassword, type PasswordHash } from "./passwords";

/**
 * Person sessions of the admin: the cookie holds a random `dws_` secret; D1 holds only its SHA-256
 * digest, the digest of the CSRF token and the expiry. The CSRF token is derived from the session
 * secret (HMAC), so it can be shown again on GET /api/session without being stored.
 */

/** Name of the session cookie. */
export const SESSION_COOKIE = "dw_session";

/** A session lives 14 days from sign-in (no sliding renewal). */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** The browser's description kept with a session (shown only to its own person), cut to this length. */
const USER_AGENT_MAX = 300;

const SESSION_SECRET = /^dws_[A-Za-z0-9_-]{43}$/;

/** A live session with the person it belongs to. */
export interface Session {
  digest: string;
  csrfDigest: string;
  expiresAt: string;
  person: SignedInPerson;
}

/** A person row as sign-in answers it. */
export interface SignedInPerson {
  id: string;
  email: string;
  name: string;
  /** Flagged by the operators (never by a site): may run the operators' routes from the admin (docs/operations-api.md). */
  superadmin: boolean;
}

// Verified against when no usable person matches, so a wrong email costs as much as a wrong password.
const DUMMY_HASH: PasswordHash = {
  hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  salt: "AAAAAAAAAAAAAAAAAAAAAA",
  iterations: PASSWORD_ITERATIONS,
};

/**
 * The active person with this email and password, or undefined. Unknown email, wrong password,
 * a person without password and a deactivated person are all the same undefined.
 */
export async function checkPassword(db: Kysely<Database>, email: string, password: string): Promise<SignedInPerson | undefined> {
  const row = await db
    .selectFrom("persons")
    .select(["id", "email", "name", "active", "is_superadmin", "password_hash", "password_salt", "password_iterations"])
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  const stored: PasswordHash | undefined =
    row?.password_hash && row.password_salt && row.password_iterations
      ? { hash: row.password_hash, salt: row.password_salt, iterations: row.password_iterations }
      : undefined;
  const matches = await verifyPassword(password, stored ?? DUMMY_HASH);
  if (!row || !stored || !matches || row.active !== 1) return undefined;
  return { id: row.id, email: row.email, name: row.name, superadmin: row.is_superadmin === 1 };
}

/** The CSRF token of a session: HMAC-SHA256 of a fixed label, keyed by the session secret. */
export async function csrfTokenFor(sessionSecret: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(sessionSecret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode("driftwood admin csrf v1"))));
}

/**
 * Starts a session for a person: stores the digests and expiry, and drops the person's sessions
 * that have already expired. Returns the secrets, which exist nowhere else.
 */
export async function startSession(
  db: Kysely<Database>,
  d1: D1Database,
  personId: string,
  nowMs: number,
  userAgent: string | null = null,
): Promise<{ secret: string; csrfToken: string; expiresAt: string }> {
  const secret = newSecret("dws_");
  const csrfToken = await csrfTokenFor(secret);
  const now = isoAt(nowMs);
  const expiresAt = isoAt(nowMs + SESSION_TTL_MS);
  await commit(d1, [
    db.deleteFrom("sessions").where("person_id", "=", personId).where("expires_at", "<=", now).compile(),
    db
      .insertInto("sessions")
      .values({
        id_digest: await sha256Hex(secret),
        public_id: newId("ses"),
        user_agent: userAgent === null ? null : userAgent.slice(0, USER_AGENT_MAX),
        person_id: personId,
        csrf_digest: await sha256Hex(csrfToken),
        created_at: now,
        expires_at: expiresAt,
      })
      .compile(),
  ]);
  return { secret, csrfToken, expiresAt };
}

/** The live session of a secret: known, not expired, its person active. Otherwise undefined. */
export async function findSession(db: Kysely<Database>, secret: string, nowMs: number): Promise<Session | undefined> {
  if (!isSessionSecret(secret)) return undefined;
  const row = await liveSessionQuery(db, await sha256Hex(secret), nowMs).executeTakeFirst();
  return row ? toSession(row) : undefined;
}

/** Whether a secret has a session secret's shape (anything else is no session, unread). */
export function isSessionSecret(secret: string): boolean {
  return SESSION_SECRET.test(secret);
}

/** The session row of a secret's digest, unexpired, its person active (none: no live session). */
export function liveSessionQuery(db: Kysely<Database>, digest: string, nowMs: number) {
  return db
    .selectFrom("sessions")
    .innerJoin("persons", "persons.id", "sessions.person_id")
    .select(["sessions.id_digest", "sessions.csrf_digest", "sessions.expires_at", "persons.id", "persons.email", "persons.name", "persons.is_superadmin"])
    .where("sessions.id_digest", "=", digest)
    .where("sessions.expires_at", ">", isoAt(nowMs))
    .where("persons.active", "=", 1);
}

type LiveSessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof liveSessionQuery>["executeTakeFirst"]>>>;

export function toSession(row: LiveSessionRow): Session {
  return {
    digest: row.id_digest,
    csrfDigest: row.csrf_digest,
    expiresAt: row.expires_at,
    person: { id: row.id, email: row.email, name: row.name, superadmin: row.is_superadmin === 1 },
  };
}

/** Ends a session (sign-out). */
export async function endSession(db: Kysely<Database>, session: Session): Promise<void> {
  await db.deleteFrom("sessions").where("id_digest", "=", session.digest).execute();
}

/** Whether a presented CSRF token is the session's (compared by digest, in constant time). */
export async function csrfMatches(session: Session, presented: string | null): Promise<boolean> {
  if (!presented || presented.length > 256) return false;
  const actual = await sha256Hex(presented);
  const expected = session.csrfDigest;
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** A session as its own person's list shows it (docs/people.md, "Sessions"): never a digest. */
export interface SessionView {
  id: string;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  /** The session this request is made with. */
  current: boolean;
}

/** The person's unexpired sessions, newest first. */
export async function listSessions(db: Kysely<Database>, current: Session, nowMs: number): Promise<SessionView[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id_digest", "public_id", "user_agent", "created_at", "expires_at"])
    .where("person_id", "=", current.person.id)
    .where("expires_at", ">", isoAt(nowMs))
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.public_id ?? `ses_${row.id_digest.slice(0, 24)}`,
    user_agent: row.user_agent,
    created_at: row.created_at,
    expires_at: row.expires_at,
    current: row.id_digest === current.digest,
  }));
}

/**
 * Ends one of the person's own sessions by its id (its next request gets 401). Another person's
 * session, an expired or unknown id: false (the route answers 404 for all alike).
 */
export async function revokeOwnSession(db: Kysely<Database>, current: Session, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("person_id", "=", current.person.id).where("public_id", "=", sessionId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
