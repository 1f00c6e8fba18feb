import type { Env } from "../../shared/env";
import type { ManageAuthority } from "../manage/context";
import { dispatchManage, MANAGE_BASE, takeManageRate } from "../manage/router";
import { requireSessionOnSite, sessionCaller } from "./auth";

/**
 * The management API under an admin session (docs/admin-ui.md, "One API"): the admin UI calls
 * `/api/v1/…` on the admin host and meets exactly the management API's routes, closed schemas,
 * Idempotency-Key rule, handlers and lifecycle services — no second business logic for the browser.
 *
 * What differs is only who asks: the session cookie (CSRF token on writes) and `X-Site-Id` choose
 * the person and the site, and the person's role re-read now is the authority. The handlers are
 * told so plainly — the caller is the person's session (shared/auth/caller.ts), never a credential —
 * and each decides from that: a session holds every scope (scopes narrow credentials a person
 * hands to scripts, never the person themself), launches plugins as the person, and proposes as
 * the person. Idempotency keys and the rate limit are the person's own on that site.
 */
export const SESSION_MANAGE_BASE = "/api/v1";

export function isSessionManagePath(pathname: string): boolean {
  return pathname.startsWith(`${SESSION_MANAGE_BASE}/`);
}

export async function handleSessionManage(request: Request, env: Env): Promise<Response> {
  const call = await requireSessionOnSite(request, env, []);
  const authority: ManageAuthority = { caller: sessionCaller(call), site: call.ctx.site, actor: call.ctx.actor };
  await takeManageRate(env, authority);
  const url = new URL(request.url);
  url.pathname = MANAGE_BASE + url.pathname.slice(SESSION_MANAGE_BASE.length);
  return dispatchManage(new Request(url, request), env, authority);
}
