import type { CompiledQuery, Kysely } from "kysely";
import { hasSystemPermission, isWithin } from "../../auth/permissions";
import { personAuthority } from "../../auth/person-authority";
import { hashPassword } from "../../auth/passwords";
import { checkPassword, type SignedInPerson } from "../../auth/sessions";
import { recordSuccess, reserveAttempt, throttleKeys } from "../../auth/sign-in-throttle";
import { isoAt, type Clock } from "../../clock";
import { sha256Hex } from "../../crypto/digest";
import type { Database } from "../../db/database";
import { siteScope } from "../../db/site-scope";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { invitationByDigest, peopleRepository, personByEmail } from "../../repositories/people-repository";
import { assertNotSuspended, findSiteById } from "../../repositories/site-repository";
import { OPERATOR_INVITER } from "./invitations";
import { grantMembership } from "../sites/provision";
import { commitPlan } from "../lifecycle/commit-plan";
import type { LifecycleContext } from "../lifecycle/context";
import { storedSet } from "./rules";

/**
 * Invitations, the invitee's side (docs/people.md): inspect a token and accept it. Neither needs a
 * session. An unknown, malformed, accepted, revoked or expired token, and one whose inviter can no
 * longer grant its role, get one refusal with one body: 404 `invitation_not_found`.
 */

/** The shortest password a new account may set (the sign-in rules name none; decided here). */
export const NEW_PASSWORD_MIN_LENGTH = 12;

const TOKEN = /^dwi_[A-Za-z0-9_-]{43}$/;

/** What the invitee sees before accepting: no ids. */
export interface InvitationPreview {
  site: { name: string };
  email: string;
  role: { name: string };
  expires_at: string;
  /** Whether an account with this email exists: accepting then takes its password, not a new one. */
  account_exists: boolean;
}

interface Deps {
  db: Kysely<Database>;
  d1: D1Database;
  clock: Clock;
}

const notFound = () => new AppError("invitation_not_found", "This invitation does not exist, was used or revoked, or has expired.");

/**
 * The pending invitation of a token, or the one refusal. The inviter must still hold `role:manage`
 * on the site and a set the role is within: an invitation carries only what its inviter could
 * grant now, as every other grant does (docs/permissions.md, "Grants beyond the granter").
 */
async function pendingInvitation(deps: Deps, token: string) {
  if (!TOKEN.test(token)) throw notFound();
  const row = await invitationByDigest(deps.db, await sha256Hex(token));
  if (!row || row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= isoAt(deps.clock.now())) throw notFound();
  const role = storedSet(row.role_permissions);
  // An operator's invitation (docs/operations-api.md) has no inviting person to re-check.
  if (row.invited_by === OPERATOR_INVITER) return { row, role };
  const inviter = await personAuthority(deps.db, row.invited_by, row.site_id);
  if (!inviter.ok || !hasSystemPermission(inviter.actor.permissions, "role:manage") || !isWithin(role, inviter.actor.permissions).within) throw notFound();
  return { row, role };
}

/** POST /api/invitations/inspect */
export async function inspectInvitation(deps: Deps, token: string): Promise<InvitationPreview> {
  const { row } = await pendingInvitation(deps, token);
  const person = await personByEmail(deps.db, row.email);
  return { site: { name: row.site_name }, email: row.email, role: { name: row.role_name }, expires_at: row.expires_at, account_exists: person !== undefined };
}

/** A guard that stopped the batch, with the message the same refusal has before the batch. */
function guardRefusal(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === "invitation_not_found") return notFound();
  if (error.code === "already_member") return new AppError("already_member", "You are already a member of this site.");
  if (error.code === "account_exists") return new AppError("account_exists", "An account with this email was created meanwhile; accept again with its password.");
  return error;
}

function invalid(path: string, message: string): AppError {
  return new AppError("invalid_request", "The request is not valid.", { issues: [{ path, message }] });
}

/**
 * POST /api/invitations/accept. Without an account for the invited email: `name` (1–200
 * characters after trimming) and a password of at least 12 characters create one. With an
 * account: its password, checked as sign-in checks it (the sign-in throttle counts the attempt
 * first: 429 `rate_limited`; a wrong password or a deactivated account: 401 `unauthorized`), and
 * `name` is ignored; a person already holding a membership of the site (active or deactivated) gets
 * 409 `already_member`. One batch then marks the invitation accepted under a guard on its pending
 * state (a second accept, however close, gets `invitation_not_found`), creates the person when new
 * and the membership with the invited role, and writes the audit row. Returns the person, for the
 * session the caller starts.
 */
export async function acceptInvitation(
  deps: Deps,
  input: { token: string; name?: string | undefined; password: string },
  clientAddress: string | null,
): Promise<SignedInPerson> {
  const { row, role } = await pendingInvitation(deps, input.token);
  const site = await findSiteById(deps.db, row.site_id);
  if (!site) throw notFound();
  // A suspended site takes no new member until it is resumed (docs/operations-api.md).
  assertNotSuspended(site);
  const scope = siteScope(site.id);
  const people = peopleRepository(deps.db, scope);
  const at = isoAt(deps.clock.now());
  const existing = await personByEmail(deps.db, row.email);
  const statements: CompiledQuery[] = [
    people.invitationPending(row.id, at),
    deps.db.updateTable("invitations").set({ accepted_at: at }).where("site_id", "=", site.id).where("id", "=", row.id).compile(),
  ];
  let person: SignedInPerson;
  if (existing) {
    const keys = await throttleKeys(row.email, clientAddress);
    const reservation = await reserveAttempt(deps.d1, keys, deps.clock.now());
    if (!reservation.ok) throw new AppError("rate_limited", "Too many failed sign-ins; try again later.", { retry_after: reservation.retryAfterSeconds });
    const checked = await checkPassword(deps.db, row.email, input.password);
    if (!checked) throw new AppError("unauthorized", "Wrong password for the account of this email.");
    await recordSuccess(deps.d1, keys);
    person = checked;
    if (await people.findMember(person.id)) throw new AppError("already_member", "You are already a member of this site.");
    statements.push(people.notAMember(person.id));
  } else {
    const name = (input.name ?? "").trim();
    if (name.length === 0 || name.length > 200) throw invalid("name", "A new account needs a name of 1 to 200 characters.");
    if ([...input.password].length < NEW_PASSWORD_MIN_LENGTH) throw invalid("password", `A new password needs at least ${NEW_PASSWORD_MIN_LENGTH} characters.`);
    const hash = await hashPassword(input.password);
    person = { id: newId("per"), email: row.email, name, superadmin: false };
    statements.push(
      people.noPersonWithEmail(row.email),
      deps.db
        .insertInto("persons")
        .values({
          id: person.id,
          email: row.email,
          name,
          password_hash: hash.hash,
          password_salt: hash.salt,
          password_iterations: hash.iterations,
          is_superadmin: 0,
          active: 1,
          created_at: at,
          updated_at: at,
        })
        .compile(),
    );
  }
  statements.push(
    deps.db.updateTable("invitations").set({ accepted_by: person.id }).where("site_id", "=", site.id).where("id", "=", row.id).compile(),
    grantMembership(deps.db, site.id, person.id, row.role_id, at),
  );
  const ctx: LifecycleContext = { db: deps.db, d1: deps.d1, scope, site, actor: { kind: "person", id: person.id, permissions: role }, clock: deps.clock };
  try {
    await commitPlan(ctx, {
      statements,
      answer: null,
      events: [],
      purgeTags: [],
      audit: { action: "invitation.accept", targetKind: "invitation", targetId: row.id, details: { person_id: person.id, role_id: row.role_id, new_account: existing === undefined } },
    });
  } catch (error) {
    throw guardRefusal(error);
  }
  return person;
}
