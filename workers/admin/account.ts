import { CompletePasswordResetBody, PasswordResetTokenBody } from "../../schema/admin-account";
import { personSites } from "../../shared/auth/person-authority";
import { listSessions as sessionsOf, revokeOwnSession, startSession } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { completePasswordReset as complete, createPasswordReset as create, inspectPasswordReset as inspect } from "../../shared/services/people/password-resets";
import { json } from "../http/respond";
import { adminOrigin } from "../oauth/origin";
import type { SessionCall, SiteCall } from "./auth";
import { readBody } from "./body";
import { sessionCookie } from "./cookies";

/** A person's account (docs/people.md, "Password reset", "Sessions"): thin handlers over the services. */

/** POST /api/people/{person_id}/password-reset: 201 with the one-time link, shown this once. */
export async function createPasswordReset(call: SiteCall): Promise<Response> {
  return json(await create(call.ctx, call.params[0] ?? "", adminOrigin(call.request, call.env)), 201);
}

function deps(env: Env) {
  return { db: createDb(env.DB), d1: env.DB, clock: systemClock };
}

/** POST /api/password-resets/inspect (no session). */
export async function inspectPasswordReset(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, PasswordResetTokenBody);
  return json(await inspect(deps(env), body.token));
}

/** POST /api/password-resets/complete (no session): sets the password, ends every session, then signs in as sign-in does. */
export async function completePasswordReset(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, CompletePasswordResetBody);
  const d = deps(env);
  const person = await complete(d, body);
  const started = await startSession(d.db, env.DB, person.id, d.clock.now(), request.headers.get("user-agent"));
  const answer = { person, sites: await personSites(d.db, person.id), csrf_token: started.csrfToken };
  return json(answer, 200, { "set-cookie": sessionCookie(started.secret, env.ADMIN_HOST) });
}

/** GET /api/sessions: the signed-in person's own sessions. */
export async function listSessions(call: SessionCall): Promise<Response> {
  return json({ data: await sessionsOf(createDb(call.env.DB), call.session, systemClock.now()) });
}

/** DELETE /api/sessions/{id}: ends one of the person's own sessions; any other id is 404. */
export async function revokeSession(call: SessionCall): Promise<Response> {
  const id = call.params[0] ?? "";
  if (!(await revokeOwnSession(createDb(call.env.DB), call.session, id))) throw new AppError("not_found", "No such session of yours.");
  return json({ id, revoked: true });
}
