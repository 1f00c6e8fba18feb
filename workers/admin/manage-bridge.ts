import { ALL_SCOPES } from "../../schema/scopes";
import type { Env } from "../../shared/env";
import type { ManagementAuth } from "../../shared/auth/management-authority";
import { dispatchManage, MANAGE_BASE, takeManageRate } from "../manage/router";
import { requireSessionOnSite } from "./auth";

/**
 * The management API under an admin session (docs/admin-ui.md, "One API"): the admin UI calls
 * `/api/v1/…` on the admin host and meets exactly the management API's routes, closed schemas,
 * Idempotency-Key rule, handlers and lifecycle services — no second business logic for the browser.
 *
 * What differs is only who asks: the session cookie (CSRF token on writes) and `X-Site-Id` choose
 * the person and the site, and the person's role re-read now is the authority. A session holds
 * every scope: scopes narrow credentials a person hands to scripts, never the person themself.
 * Idempotency keys and the rate limit are the person's own on that site.
 */
export const SESSION_MANAGE_BASE = "/api/v1";

export function isSessionManagePath(pathname: string): boolean {
  return pathname.startsWith(`${SESSION_MANAGE_BASE}/`);
}

export async function handleSessionManage(request: Request, env: Env): Promise<Response> {
  const call = await requireSessionOnSite(request, env, []);
  const person = call.session.person;
  const auth: ManagementAuth = {
    credential: { kind: "admin_session", id: `person:${person.id}`, name: person.name, scopes: [...ALL_SCOPES], model_ids: null },
    site: call.ctx.site,
    actor: call.ctx.actor,
  };
  await takeManageRate(env, auth);
  const url = new URL(request.url);
  url.pathname = MANAGE_BASE + url.pathname.slice(SESSION_MANAGE_BASE.length);
  return dispatchManage(new Request(url, request), env, auth);
}
