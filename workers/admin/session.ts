import { SignInBody } from "../../schema/admin-bodies";
import { personSites, type PersonSite } from "../../shared/auth/person-authority";
import { checkPassword, csrfTokenFor, endSession, startSession } from "../../shared/auth/sessions";
import { recordSuccess, reserveAttempt, throttleKeys } from "../../shared/auth/sign-in-throttle";
import { clientAddressOf } from "../../shared/net/client-address";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { json } from "../http/respond";
import type { SessionCall } from "./auth";
import { readBody } from "./body";
import { clearedSessionCookie, sessionCookie } from "./cookies";

/** What sign-in and GET /api/session answer. */
export interface SessionAnswer {
  person: { id: string; email: string; name: string; superadmin: boolean };
  sites: PersonSite[];
  csrf_token: string;
}

async function answer(env: Env, person: SessionAnswer["person"], csrfToken: string): Promise<SessionAnswer> {
  return { person, sites: await personSites(createDb(env.DB), person.id), csrf_token: csrfToken };
}

/**
 * POST /api/session: sign in with email and password. Unknown email, wrong password and a
 * deactivated person are one answer: 401 unauthorized. Past the failure thresholds of the account
 * or the client address: 429 rate_limited with Retry-After, before any password work
 * (shared/auth/sign-in-throttle.ts).
 */
export async function signIn(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, SignInBody);
  const { person, started } = await startPersonSession(request, env, body.email, body.password);
  return json(await answer(env, person, started.csrfToken), 200, { "set-cookie": sessionCookie(started.secret, env.ADMIN_HOST) });
}

/**
 * The sign-in itself, shared by POST /api/session and the /connect page's sign-in form: the
 * throttle (429 `rate_limited` with `retry_after`, before any password work), the password check
 * (401 `unauthorized`), then a new session.
 */
export async function startPersonSession(request: Request, env: Env, email: string, password: string) {
  const db = createDb(env.DB);
  const keys = await throttleKeys(email, clientAddressOf(request));
  const reservation = await reserveAttempt(env.DB, keys, systemClock.now());
  if (!reservation.ok) throw new AppError("rate_limited", "Too many failed sign-ins; try again later.", { retry_after: reservation.retryAfterSeconds });
  const person = await checkPassword(db, email, password);
  if (!person) throw new AppError("unauthorized", "Wrong email or password.");
  await recordSuccess(env.DB, keys);
  const started = await startSession(db, env.DB, person.id, systemClock.now(), request.headers.get("user-agent"));
  return { person, started };
}

/** GET /api/session: who is signed in, their sites, and the session's CSRF token. */
export async function currentSession(call: SessionCall): Promise<Response> {
  return json(await answer(call.env, call.session.person, await csrfTokenFor(call.secret)));
}

/** DELETE /api/session: sign out (needs the CSRF token like every write). */
export async function signOut(call: SessionCall): Promise<Response> {
  await endSession(createDb(call.env.DB), call.session);
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(call.env.ADMIN_HOST), "cache-control": "no-store" } });
}
