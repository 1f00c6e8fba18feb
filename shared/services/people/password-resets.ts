import type { Kysely } from "kysely";
import { hashPassword } from "../../auth/passwords";
import type { SignedInPerson } from "../../auth/sessions";
import { isoAt, type Clock } from "../../clock";
import { guard } from "../../db/batch";
import type { Database } from "../../db/database";
import { siteScope } from "../../db/site-scope";
import { newSecret, sha256Hex } from "../../crypto/digest";
import { AppError } from "../../errors";
import { peopleRepository } from "../../repositories/people-repository";
import { findSiteById } from "../../repositories/site-repository";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";
import { NEW_PASSWORD_MIN_LENGTH } from "./accept";
import { assertWithinActor, requirePeopleManage, storedSet } from "./rules";

/**
 * Password reset by a one-time link an administrator creates (docs/people.md, "Password reset").
 * No mail is sent: the administrator hands the link on, as with invitations. The token (`dwpw_` +
 * 43 base64url characters) travels in the link's fragment and is stored only as its SHA-256
 * digest; a link works once, for 24 hours, and a newer link of the same person voids the older.
 * Using it sets the password and ends every session of the person, in one batch.
 */

/** A reset link lives 24 hours: long enough to reach the person by another channel, short for a link in a chat log. */
export const PASSWORD_RESET_TTL_MS = 24 * 60 * 60 * 1000;
/** At most this many links per person per window (the rate limit of creation). */
export const PASSWORD_RESET_LIMIT = 5;
export const PASSWORD_RESET_WINDOW_MS = 60 * 60 * 1000;
/** The admin page that opens a reset link; the token stays in the fragment, out of server logs. */
export const RESET_PATH = "/reset-password";

const TOKEN = /^dwpw_[A-Za-z0-9_-]{43}$/;

export interface CreatedPasswordReset {
  person_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  /** `{admin origin}/reset-password#dwpw_…`, answered this once. */
  link: string;
}

export interface PasswordResetPreview {
  email: string;
  name: string;
  expires_at: string;
}

interface Deps {
  db: Kysely<Database>;
  d1: D1Database;
  clock: Clock;
}

const notFound = () => new AppError("password_reset_not_found", "This password reset link does not exist, was used or replaced, or has expired.");

/**
 * Why the account may not be reset from this site, or undefined. A site administrator governs
 * this site only: resetting the password of an account that also holds a membership elsewhere, or
 * of a superadmin, would hand them that other access too (an account takeover across sites).
 */
async function reachBeyond(db: Kysely<Database>, personId: string, siteId: string): Promise<"other_sites" | "superadmin" | "inactive" | undefined> {
  const person = await db.selectFrom("persons").select(["is_superadmin", "active"]).where("id", "=", personId).executeTakeFirst();
  if (!person || person.active !== 1) return "inactive";
  if (person.is_superadmin === 1) return "superadmin";
  const elsewhere = await db.selectFrom("memberships").select("site_id").where("person_id", "=", personId).where("site_id", "!=", siteId).executeTakeFirst();
  return elsewhere ? "other_sites" : undefined;
}

const REFUSAL_WORDS = {
  other_sites: "This person's account is also a member of other sites; only they (or an operator) can change its password.",
  superadmin: "This person is an operator of the installation; their password cannot be reset from a site.",
  inactive: "This person's account is deactivated on the installation.",
} as const;

/**
 * POST /api/people/{person_id}/password-reset. Checks in order: `role:manage` (403) → a member of
 * this site (404 `not_found`) → the member's role within the actor's (403 `escalation_refused`) →
 * the account reaches no further than this site (409 `password_reset_refused`, `reason`) → at most
 * PASSWORD_RESET_LIMIT links for the person in the last hour (429 `rate_limited`, `retry_after`).
 * One batch voids the person's unused links, stores the new digest and writes the audit row.
 */
export async function createPasswordReset(ctx: LifecycleContext, personId: string, adminOrigin: string): Promise<CreatedPasswordReset> {
  requirePeopleManage(ctx.actor);
  const member = await peopleRepository(ctx.db, ctx.scope).findMember(personId);
  if (!member) throw new AppError("not_found", "No such member of this site.");
  assertWithinActor(ctx.actor, storedSet(member.role_permissions), "This member's role");
  const reason = await reachBeyond(ctx.db, personId, ctx.site.id);
  if (reason) throw new AppError("password_reset_refused", REFUSAL_WORDS[reason], { reason });
  const now = ctx.clock.now();
  const recent = await ctx.db
    .selectFrom("password_resets")
    .select("created_at")
    .where("person_id", "=", personId)
    .where("created_at", ">", isoAt(now - PASSWORD_RESET_WINDOW_MS))
    .orderBy("created_at")
    .execute();
  const oldest = recent[0];
  if (recent.length >= PASSWORD_RESET_LIMIT && oldest) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest.created_at) + PASSWORD_RESET_WINDOW_MS - now) / 1000));
    throw new AppError("rate_limited", `At most ${PASSWORD_RESET_LIMIT} reset links per person an hour; the newest one still works.`, { retry_after: retryAfter });
  }
  const token = newSecret("dwpw_");
  const at = isoAt(now);
  const expiresAt = isoAt(now + PASSWORD_RESET_TTL_MS);
  await commitPlan(ctx, {
    statements: [
      ctx.db.updateTable("password_resets").set({ voided_at: at }).where("person_id", "=", personId).where("used_at", "is", null).where("voided_at", "is", null).compile(),
      ctx.db
        .insertInto("password_resets")
        .values({ token_digest: await sha256Hex(token), person_id: personId, site_id: ctx.site.id, created_by: ctx.actor.id, created_at: at, expires_at: expiresAt, used_at: null, voided_at: null })
        .compile(),
    ],
    answer: null,
    events: [],
    purgeTags: [],
    audit: { action: "password_reset.create", targetKind: "person", targetId: personId, details: { expires_at: expiresAt } },
  });
  return { person_id: personId, email: member.email, created_at: at, expires_at: expiresAt, link: `${adminOrigin}${RESET_PATH}#${token}` };
}

/** The live reset of a token with its person, or the one refusal (404 `password_reset_not_found`). */
async function liveReset(deps: Deps, token: string) {
  if (!TOKEN.test(token)) throw notFound();
  const digest = await sha256Hex(token);
  const row = await deps.db
    .selectFrom("password_resets as r")
    .innerJoin("persons as p", "p.id", "r.person_id")
    .select(["r.token_digest", "r.person_id", "r.site_id", "r.expires_at", "r.used_at", "r.voided_at", "p.email", "p.name", "p.is_superadmin"])
    .where("r.token_digest", "=", digest)
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.voided_at !== null || row.expires_at <= isoAt(deps.clock.now())) throw notFound();
  // The account may have joined another site (or lost this one) since the link was made: the link then dies.
  if (await reachBeyond(deps.db, row.person_id, row.site_id)) throw notFound();
  const member = await deps.db.selectFrom("memberships").select("person_id").where("site_id", "=", row.site_id).where("person_id", "=", row.person_id).executeTakeFirst();
  if (!member) throw notFound();
  return row;
}

/** POST /api/password-resets/inspect: whose password the link sets, and until when. */
export async function inspectPasswordReset(deps: Deps, token: string): Promise<PasswordResetPreview> {
  const row = await liveReset(deps, token);
  return { email: row.email, name: row.name, expires_at: row.expires_at };
}

/**
 * POST /api/password-resets/complete: a new password (at least 12 characters, 400
 * `invalid_request` naming `password`) for the link's person. One batch, under a guard that the
 * link is still unused (of two racing uses one wins, the other gets the same 404), marks it used,
 * sets the password and deletes every session of the person, then writes the audit row. Returns
 * the person, for the session the caller starts.
 */
export async function completePasswordReset(deps: Deps, input: { token: string; password: string }): Promise<SignedInPerson> {
  const row = await liveReset(deps, input.token);
  if ([...input.password].length < NEW_PASSWORD_MIN_LENGTH) {
    throw new AppError("invalid_request", "The request is not valid.", { issues: [{ path: "password", message: `A new password needs at least ${NEW_PASSWORD_MIN_LENGTH} characters.` }] });
  }
  const site = await findSiteById(deps.db, row.site_id);
  if (!site) throw notFound();
  const hash = await hashPassword(input.password);
  const at = isoAt(deps.clock.now());
  const ctx: LifecycleContext = { db: deps.db, d1: deps.d1, scope: siteScope(site.id), site, actor: { kind: "person", id: row.person_id, permissions: { models: {}, system: [] } }, clock: deps.clock };
  try {
    await commitPlan(ctx, {
      statements: [
        guard(deps.db, "password_reset_not_found", "EXISTS (SELECT 1 FROM password_resets WHERE token_digest = ? AND used_at IS NULL AND voided_at IS NULL AND expires_at > ?)", [row.token_digest, at]),
        deps.db.updateTable("password_resets").set({ used_at: at }).where("token_digest", "=", row.token_digest).compile(),
        deps.db.updateTable("persons").set({ password_hash: hash.hash, password_salt: hash.salt, password_iterations: hash.iterations, updated_at: at }).where("id", "=", row.person_id).compile(),
        deps.db.deleteFrom("sessions").where("person_id", "=", row.person_id).compile(),
      ],
      answer: null,
      events: [],
      purgeTags: [],
      audit: { action: "password_reset.use", targetKind: "person", targetId: row.person_id, details: {} },
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "password_reset_not_found") throw notFound();
    throw error;
  }
  return { id: row.person_id, email: row.email, name: row.name, superadmin: row.is_superadmin === 1 };
}
