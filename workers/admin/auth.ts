import { personAuthority, type HeldRole } from "../../shared/auth/person-authority";
import { csrfMatches, findSession, type Session } from "../../shared/auth/sessions";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { findSiteById } from "../../shared/repositories/site-repository";
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

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const unauthorized = () => new AppError("unauthorized", "Sign in first.");

/** The live session of the request's cookie, or 401 unauthorized. */
export async function requireSession(request: Request, env: Env, params: string[]): Promise<SessionCall> {
  const secret = sessionSecretOf(request);
  if (!secret) throw unauthorized();
  const session = await findSession(createDb(env.DB), secret, systemClock.now());
  if (!session) throw unauthorized();
  if (WRITE_METHODS.has(request.method) && !(await csrfMatches(session, request.headers.get("x-csrf-token")))) {
    throw new AppError("csrf_failed", "The X-CSRF-Token header is missing or is not this session's token.");
  }
  return { request, env, session, secret, params };
}

/**
 * The site chosen by the X-Site-Id header, with the person's permissions re-read from their role
 * now. No header: 400. An unknown site and a site without an active membership get the same
 * 403 forbidden, so the answer does not tell whether a site id exists.
 */
export async function requireSite(call: SessionCall): Promise<SiteCall> {
  const siteId = call.request.headers.get("x-site-id")?.trim();
  if (!siteId) throw new AppError("invalid_request", "Name the site with the X-Site-Id header.");
  const refused = () => new AppError("forbidden", "You have no active membership on this site.");
  if (!/^site_[A-Za-z0-9_-]{1,64}$/.test(siteId)) throw refused();
  const db = createDb(call.env.DB);
  const authority = await personAuthority(db, call.session.person.id, siteId);
  if (!authority.ok) throw authority.reason === "person_inactive" ? unauthorized() : refused();
  const site = await findSiteById(db, siteId);
  if (!site) throw refused();
  // The site's handle: directory and content reads each on their own database (shared/db/site-databases.ts).
  const d1 = await siteScopedDatabase(call.env, site.id);
  const ctx: LifecycleContext = { db: createDb(d1), d1, scope: siteScope(site.id), site, actor: authority.actor, clock: systemClock };
  return { ...call, ctx, role: authority.role };
}
