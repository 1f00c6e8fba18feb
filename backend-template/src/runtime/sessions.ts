/**
 * Sessions of the app's own accounts (docs/generated-backend.md, "Sessions and roles"), on both
 * runtimes through Better Auth (email and password, cookie sessions) over the same kysely
 * database as the rows: tables `auth_user`, `auth_session`, `auth_account`, `auth_verification`
 * (migrations/0002_sessions.sql). Optional: enabled when `AUTH_SECRET` is set.
 *
 * Better Auth answers sign-up, sign-in, sign-out and get-session under `/api/auth/`. This module
 * adds what the spec's "Roles (generated app)" row asks and the library does not do atomically:
 * a role per account (`auth_user.role`, never writable by the account itself), the administrator
 * routes `admin/set-role` and `admin/remove-user` (service bearer or an admin session), and the
 * account's own `delete-user` — each delete one guarded statement that never removes the last
 * administrator, its sessions going with it (ON DELETE CASCADE).
 */
import { betterAuth } from "better-auth";
import { HttpError, json } from "./errors.js";
import { ADMIN_ROLE, type RolesConfig, type SessionHandler } from "./roles.js";
import type { AnyDb } from "./rows.js";

export interface SessionUser {
  id: string;
  email: string;
  role: string;
}

export interface SessionsOptions {
  db: AnyDb;
  /** AUTH_SECRET: signs the session cookies (at least 32 characters). */
  secret: string;
  /** AUTH_URL: the public origin; unset → each request's own origin. */
  baseURL?: string | undefined;
  roles: RolesConfig;
  /** Better Auth's limits on sign-in and sign-up attempts (per process or isolate); AUTH_RATE_LIMIT=off turns them off (tests). */
  rateLimit?: boolean | undefined;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
const MIN_SECRET = 32;

function authOptions(options: SessionsOptions, baseURL: string) {
  return {
    secret: options.secret,
    baseURL,
    basePath: "/api/auth",
    telemetry: { enabled: false },
    database: { db: options.db, type: "sqlite" as const },
    emailAndPassword: { enabled: true, minPasswordLength: 10 },
    user: {
      modelName: "auth_user",
      // input: false — a sign-up or a profile update can never choose its role.
      additionalFields: { role: { type: "string" as const, required: false, input: false, defaultValue: options.roles.defaultRole } },
    },
    session: { modelName: "auth_session" },
    account: { modelName: "auth_account" },
    verification: { modelName: "auth_verification" },
    // On by default: the library would enable it only under NODE_ENV=production, which a worker never sets.
    rateLimit: { enabled: options.rateLimit !== false },
    advanced: { database: { validateSchema: false } },
  };
}

type Auth = ReturnType<typeof betterAuth<ReturnType<typeof authOptions>>>;

export class Sessions implements SessionHandler {
  private readonly instances = new Map<string, Auth>();

  constructor(private readonly options: SessionsOptions) {
    if (options.secret.length < MIN_SECRET) throw new Error(`AUTH_SECRET must be at least ${MIN_SECRET} characters (a long random secret).`);
  }

  /** One Better Auth instance per public origin (AUTH_URL pins it to one). */
  private auth(request: Request): Auth {
    const origin = this.options.baseURL ?? new URL(request.url).origin;
    let auth = this.instances.get(origin);
    if (auth === undefined) {
      if (this.instances.size >= 8) this.instances.clear();
      auth = betterAuth(authOptions(this.options, origin));
      this.instances.set(origin, auth);
    }
    return auth;
  }

  /** The signed-in account of a request, or null (no cookie, an expired or revoked session). */
  async userOf(request: Request): Promise<SessionUser | null> {
    if (!SESSION_COOKIE.test(request.headers.get("cookie") ?? "")) return null;
    const found = await this.auth(request).api.getSession({ headers: request.headers });
    if (found === null) return null;
    const user = found.user as { id: string; email: string; role?: string | null };
    return { id: user.id, email: user.email, role: user.role ?? this.options.roles.defaultRole };
  }

  /** `/api/auth/*`: the administrator routes and delete-user here, everything else Better Auth's. */
  async handle(request: Request, service: boolean): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/api/auth/admin/set-role" || path === "/api/auth/admin/remove-user") {
      if (request.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST.", {}, { allow: "POST" });
      if (!service) {
        const user = await this.userOf(request);
        if (user === null) throw new HttpError(401, "unauthorized", "Sign in as an administrator, or use the service token.", {}, { "www-authenticate": "Bearer" });
        if (user.role !== ADMIN_ROLE) throw new HttpError(403, "forbidden", "Only an administrator manages accounts.");
      }
      const body = await jsonBody(request, path.endsWith("set-role") ? ["userId", "role"] : ["userId"]);
      const userId = stringField(body, "userId");
      if (path === "/api/auth/admin/remove-user") {
        await this.removeAccount(userId);
        return json({ success: true });
      }
      const role = stringField(body, "role");
      if (!Object.hasOwn(this.options.roles.roles, role)) throw new HttpError(422, "unknown_role", `"${role}" is not a role of access/roles.json.`, { role });
      return json({ user: await this.setRole(userId, role) });
    }
    if (path === "/api/auth/delete-user") {
      if (request.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST.", {}, { allow: "POST" });
      const user = await this.userOf(request);
      if (user === null) throw new HttpError(401, "unauthorized", "Sign in first.");
      await this.removeAccount(user.id);
      return json({ success: true }, 200, { "set-cookie": "better-auth.session_token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax" });
    }
    return this.auth(request).handler(request);
  }

  /**
   * Deletes an account and, through ON DELETE CASCADE, its sessions and password — one statement
   * whose condition keeps at least one administrator even against a racing delete.
   */
  private async removeAccount(userId: string): Promise<void> {
    const { db } = this.options;
    // RETURNING rather than a changes count: kysely-d1 does not report D1's count of deleted rows.
    const deleted = await db
      .deleteFrom("auth_user")
      .where("id", "=", userId)
      .where((eb) => eb.or([eb("role", "is", null), eb("role", "!=", ADMIN_ROLE), eb(eb.selectFrom("auth_user").select(eb.fn.countAll().as("n")).where("role", "=", ADMIN_ROLE), ">", 1)]))
      .returning("id")
      .executeTakeFirst();
    if (deleted !== undefined) {
      // D1 enforces the cascade; the embedded database too (PRAGMA foreign_keys); this is the belt.
      await db.deleteFrom("auth_session").where("userId", "=", userId).execute();
      return;
    }
    await this.refuseMissingOrLastAdmin(userId);
  }

  /** Sets an account's role; demoting the last administrator is refused. */
  private async setRole(userId: string, role: string): Promise<SessionUser> {
    const { db } = this.options;
    const row = (await db
      .updateTable("auth_user")
      .set({ role, updatedAt: new Date().toISOString() })
      .where("id", "=", userId)
      // Making someone admin never lowers the count; any other role must leave one administrator.
      .$if(role !== ADMIN_ROLE, (query) => query.where((eb) => eb.or([eb("role", "is", null), eb("role", "!=", ADMIN_ROLE), eb(eb.selectFrom("auth_user").select(eb.fn.countAll().as("n")).where("role", "=", ADMIN_ROLE), ">", 1)])))
      .returning(["id", "email", "role"])
      .executeTakeFirst()) as SessionUser | undefined;
    if (row !== undefined) return row;
    return this.refuseMissingOrLastAdmin(userId);
  }

  private async refuseMissingOrLastAdmin(userId: string): Promise<never> {
    const exists = await this.options.db.selectFrom("auth_user").select("id").where("id", "=", userId).executeTakeFirst();
    if (exists === undefined) throw new HttpError(404, "not_found", "No account has this id.");
    throw new HttpError(409, "last_administrator", "This is the last administrator: make another account admin first.");
  }
}

/** A closed JSON object body: a key outside `allowed` is 400 invalid_request. */
async function jsonBody(request: Request, allowed: readonly string[]): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) throw new HttpError(400, "invalid_request", "The body must be application/json.");
  let body: unknown;
  try {
    body = JSON.parse(await request.text()) as unknown;
  } catch {
    throw new HttpError(400, "invalid_request", "The body is not JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new HttpError(400, "invalid_request", "The body must be an object.");
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw new HttpError(400, "invalid_request", `${key} is not allowed here (${allowed.join(", ")}).`, { path: key });
  return body as Record<string, unknown>;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "" || value.length > 256) throw new HttpError(400, "invalid_request", `${name} must be a non-empty string.`, { path: name });
  return value;
}
