import type { SessionCaller } from "../../shared/auth/caller";
import { authorityFrom, personAuthority, type HeldRole, type PersonAuthority } from "../../shared/auth/person-authority";
import { readSessionOnSite } from "../../shared/auth/session-site";
import { csrfMatches, findSession, type Session } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { assertNotSuspended, findSiteById, type Site } from "../../shared/repositories/site-repository";
import type { LifecycleContext } from "../../shared/services/lifecycle/context";
import { sessionSecretOf } from "./cookies";
import { siteScopedDatabase } from "../../shared/db/site-databases";

/** A request made within a live session. */
export interface SessionCall {
  request: Request;
  env: Env;
  session: Session;
  /** The cookie's session secret (the CSRF token is derived from it). */
  secret: string;
  /** Path captures of the route. */
  params: string[];
}

/** A session request on the site named by X-Site-Id, with the person's authority there. */
export interface SiteCall extends SessionCall {
  ctx: LifecycleContext;
  role: HeldRole;
}

/** The session's person as who asks, for the management handlers and the services that decide from it (shared/auth/caller.ts). */
export function sessionCaller(call: SessionCall): SessionCaller {
  return { kind: "session", person: { id: call.session.person.id, name: call.session.person.name } };
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const unauthorized = () => new AppError("unauthorized", "Sign in first.");

/** The live session of the request's cookie, or 401 unauthorized. */
export async function requireSession(request: Request, env: Env, params: string[]): Promise<SessionCall> {
  const secret = sessionSecretOf(request);
  if (!secret) throw unauthorized();
  return sessionCall(request, env, params, secret, await findSession(createDb(env.DB), secret, systemClock.now()));
}

/** The refusals of a session found (or not) for the cookie's secret: 401, then the CSRF token on writes. */
async function sessionCall(request: Request, env: Env, params: string[], secret: string, session: Session | undefined): Promise<SessionCall> {
  if (!session) throw unauthorized();
  await requireCsrfOnWrite(request, session);
  return { request, env, session, secret, params };
}

/** A write within a session carries the session's CSRF token (403 `csrf_failed`); reads need none. */
export async function requireCsrfOnWrite(request: Request, session: Session): Promise<void> {
  if (WRITE_METHODS.has(request.method) && !(await csrfMatches(session, request.headers.get("x-csrf-token")))) {
    throw new AppError("csrf_failed", "The X-CSRF-Token header is missing or is not this session's token.");
  }
}

const SITE_ID = /^site_[A-Za-z0-9_-]{1,64}$/;
const siteRefused = () => new AppError("forbidden", "You have no active membership on this site.");

/**
 * The site chosen by the X-Site-Id header, with the person's permissions re-read from their role
 * now. No header: 400. An unknown site and a site without an active membership get the same
 * 403 forbidden, so the answer does not tell whether a site id exists.
 */
export async function requireSite(call: SessionCall): Promise<SiteCall> {
  const siteId = call.request.headers.get("x-site-id")?.trim();
  if (!siteId) throw new AppError("invalid_request", "Name the site with the X-Site-Id header.");
  if (!SITE_ID.test(siteId)) throw siteRefused();
  const db = createDb(call.env.DB);
  const authority = await personAuthority(db, call.session.person.id, siteId);
  if (!authority.ok) throw authority.reason === "person_inactive" ? unauthorized() : siteRefused();
  return siteCall(call, authority, await findSiteById(db, siteId));
}

async function siteCall(call: SessionCall, authority: Extract<PersonAuthority, { ok: true }>, site: Site | undefined): Promise<SiteCall> {
  if (!site) throw siteRefused();
  // A suspended site is read-only in the admin (docs/operations-api.md): reads answer, writes 403.
  if (WRITE_METHODS.has(call.request.method)) assertNotSuspended(site);
  // The site's handle: directory and content reads each on their own database (shared/db/site-databases.ts).
  const d1 = await siteScopedDatabase(call.env, site.id);
  const ctx: LifecycleContext = { db: createDb(d1), d1, scope: siteScope(site.id), site, actor: authority.actor, clock: systemClock };
  return { ...call, ctx, role: authority.role };
}

/**
 * `requireSite(await requireSession(…))` with the same answers in the same order, reading the
 * session, the person's membership on the named site and the site in one D1 batch
 * (shared/auth/session-site.ts). Without a well-formed X-Site-Id there is nothing to read
 * together: the two steps run as they are.
 */
export async function requireSessionOnSite(request: Request, env: Env, params: string[]): Promise<SiteCall> {
  const siteId = request.headers.get("x-site-id")?.trim();
  if (!siteId || !SITE_ID.test(siteId)) return requireSite(await requireSession(request, env, params));
  const secret = sessionSecretOf(request);
  if (!secret) throw unauthorized();
  const read = await readSessionOnSite(env.DB, secret, siteId, systemClock.now());
  const call = await sessionCall(request, env, params, secret, read.session);
  // The session was read live in the same snapshot, so its person is active there: without a
  // membership row the answer is the site's refusal (personAuthority would read the person's
  // flag to tell, and find it set).
  if (!read.authority) throw siteRefused();
  const authority = await authorityFrom(createDb(env.DB), call.session.person.id, read.authority);
  if (!authority.ok) throw authority.reason === "person_inactive" ? unauthorized() : siteRefused();
  return siteCall(call, authority, read.site);
}
