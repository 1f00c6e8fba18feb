import { env } from "cloudflare:test";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { grantMembership, provisionPerson } from "../../shared/services/sites/provision";
import { adminCall, roleId, signIn, type AdminResult, type AdminSession, type SessionBody } from "./admin-api";
import { fixturePasswordHash, type SeededSite } from "./fixtures";

/** Calls of the people routes (docs/people.md) and the people a test needs. */

export interface MemberBody {
  person_id: string;
  name: string;
  email: string;
  role: { id: string; slug: string; name: string };
  state: "active" | "deactivated";
  account_active: boolean;
  joined_at: string;
}

export interface InvitationBody {
  id: string;
  email: string;
  role: { id: string; slug: string; name: string };
  invited_by: string;
  created_at: string;
  expires_at: string;
  link?: string;
}

let counter = 0;

/** A fresh email address no person holds. */
export const freshEmail = (base = "invitee") => `${base}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.test`;

/** The session of a site's seeded admin. */
export function adminSession(s: SeededSite): Promise<AdminSession> {
  return signIn(`${s.site.slug}@example.test`);
}

/** A new person holding `role` (a seeded slug or a role id) on the site, signed in. */
export async function member(s: SeededSite, role: string): Promise<{ id: string; email: string; session: AdminSession }> {
  const db = createDb(env.DB);
  const at = new Date().toISOString();
  const email = freshEmail("member");
  const p = await provisionPerson(db, { email, name: "Member", password: "pw" }, at, fixturePasswordHash("pw"));
  const id = role.startsWith("role_") ? role : await roleId(s.site.id, role);
  await commit(env.DB, [...p.statements, grantMembership(db, s.site.id, p.personId, id, at)]);
  return { id: p.personId, email, session: await signIn(email, "pw") };
}

/** A custom role on the site with the given permission set (written directly, as a fixture). */
export async function customRole(s: SeededSite, slug: string, permissions: unknown): Promise<string> {
  const id = `role_${slug}_${(counter++).toString(36)}`;
  const at = new Date().toISOString();
  await env.DB.prepare("INSERT INTO roles (id, site_id, slug, name, description, permissions, seeded, revision, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, 0, 0, ?, ?)")
    .bind(id, s.site.id, slug, slug, JSON.stringify(permissions), at, at)
    .run();
  return id;
}

/** POST /api/invitations */
export function invite(session: AdminSession, siteId: string, email: string, role: string): Promise<AdminResult<InvitationBody>> {
  return adminCall<InvitationBody>(session, "POST", "/api/invitations", { siteId, body: { email, role_id: role } });
}

/** The token of an invitation link (`…/invite#dwi_…`). */
export function tokenOf(link: string | undefined): string {
  return link?.split("#")[1] ?? "";
}

/** An invitation of `email` with the seeded role `slug`, answered with its token. */
export async function invited(session: AdminSession, s: SeededSite, email: string, slug: string): Promise<{ invitation: InvitationBody; token: string }> {
  const res = await invite(session, s.site.id, email, await roleId(s.site.id, slug));
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { invitation: res.body, token: tokenOf(res.body.link) };
}

/** POST /api/invitations/inspect without a session. */
export function inspect<T = unknown>(token: string): Promise<AdminResult<T>> {
  return adminCall<T>(undefined, "POST", "/api/invitations/inspect", { body: { token } });
}

/** POST /api/invitations/accept without a session. */
export function accept<T = SessionBody>(body: Record<string, unknown>, headers?: Record<string, string>): Promise<AdminResult<T>> {
  return adminCall<T>(undefined, "POST", "/api/invitations/accept", { body, ...(headers ? { headers } : {}) });
}

/** The admin session an accept answer started (its cookie and CSRF token). */
export function sessionOf(res: AdminResult<SessionBody>): AdminSession {
  const secret = /dw_session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";
  return { cookie: `dw_session=${secret}`, secret, csrf: res.body.csrf_token, body: res.body };
}

/** Audit rows of the site with this action. */
export async function auditRows(siteId: string, action: string): Promise<{ actor_id: string; target_id: string }[]> {
  const rows = await env.DB.prepare("SELECT actor_id, target_id FROM audit_log WHERE site_id = ? AND action = ? ORDER BY at").bind(siteId, action).all<{ actor_id: string; target_id: string }>();
  return rows.results;
}

/**
 * The real D1 binding, except that the next `batch` first runs `meanwhile` (a whole other request)
 * and only then commits: a concurrent writer landing between a write's checks and its batch, made
 * deterministic, to prove the batch's own guards.
 */
export function interleaved(meanwhile: () => Promise<unknown>): D1Database {
  let pending: (() => Promise<unknown>) | undefined = meanwhile;
  return {
    prepare: (query: string) => env.DB.prepare(query),
    batch: async (statements: D1PreparedStatement[]) => {
      const run = pending;
      pending = undefined;
      if (run) await run();
      return env.DB.batch(statements);
    },
  } as unknown as D1Database;
}
