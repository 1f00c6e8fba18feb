import { AcceptInvitationBody, CreateInvitationBody, InvitationTokenBody, MemberRoleBody } from "../../schema/admin-bodies";
import { personSites } from "../../shared/auth/person-authority";
import { startSession } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import type { Env } from "../../shared/env";
import { clientAddressOf } from "../../shared/net/client-address";
import { acceptInvitation as accept, inspectInvitation as inspect } from "../../shared/services/people/accept";
import { createInvitation as create, listInvitations as listPending, revokeInvitation as revoke } from "../../shared/services/people/invitations";
import { changeMemberRole as changeRole, deactivateMember as deactivate, listMembers, reactivateMember as reactivate, removeMember as remove } from "../../shared/services/people/members";
import { json } from "../http/respond";
import { adminOrigin } from "../oauth/origin";
import type { SiteCall } from "./auth";
import { readBody } from "./body";
import { sessionCookie } from "./cookies";

/** People of a site (docs/people.md): thin handlers over shared/services/people/. */

const personOf = (call: SiteCall) => call.params[0] ?? "";

/** GET /api/people */
export async function listPeople(call: SiteCall): Promise<Response> {
  return json({ data: await listMembers(call.ctx) });
}

/** PUT /api/people/{person_id}/role */
export async function changeMemberRole(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, MemberRoleBody);
  return json(await changeRole(call.ctx, personOf(call), body.role_id));
}

/** POST /api/people/{person_id}/deactivate */
export async function deactivateMember(call: SiteCall): Promise<Response> {
  return json(await deactivate(call.ctx, personOf(call)));
}

/** POST /api/people/{person_id}/reactivate */
export async function reactivateMember(call: SiteCall): Promise<Response> {
  return json(await reactivate(call.ctx, personOf(call)));
}

/** DELETE /api/people/{person_id} */
export async function removeMember(call: SiteCall): Promise<Response> {
  return json(await remove(call.ctx, personOf(call)));
}

/** GET /api/invitations */
export async function listInvitations(call: SiteCall): Promise<Response> {
  return json({ data: await listPending(call.ctx) });
}

/** POST /api/invitations: 201 with the single-use link, shown this once. */
export async function createInvitation(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, CreateInvitationBody);
  return json(await create(call.ctx, body, adminOrigin(call.request, call.env)), 201);
}

/** DELETE /api/invitations/{id} */
export async function revokeInvitation(call: SiteCall): Promise<Response> {
  return json(await revoke(call.ctx, call.params[0] ?? ""));
}

function deps(env: Env) {
  return { db: createDb(env.DB), d1: env.DB, clock: systemClock };
}

/** POST /api/invitations/inspect (no session). */
export async function inspectInvitation(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, InvitationTokenBody);
  return json(await inspect(deps(env), body.token));
}

/** POST /api/invitations/accept (no session): accepts, then starts a session exactly as sign-in does. */
export async function acceptInvitation(request: Request, env: Env): Promise<Response> {
  const body = await readBody(request, AcceptInvitationBody);
  const d = deps(env);
  const person = await accept(d, body, clientAddressOf(request));
  const started = await startSession(d.db, env.DB, person.id, d.clock.now(), request.headers.get("user-agent"));
  const answer = { person, sites: await personSites(d.db, person.id), csrf_token: started.csrfToken };
  return json(answer, 200, { "set-cookie": sessionCookie(started.secret, env.ADMIN_HOST) });
}
