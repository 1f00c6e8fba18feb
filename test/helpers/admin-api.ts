import { env } from "cloudflare:test";
import { workerFetch } from "./worker";

/** Base URL of the admin host in tests (wrangler.jsonc ADMIN_HOST). */
export const ADMIN = "http://admin.localhost";

export interface AdminResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface AdminSession {
  cookie: string;
  secret: string;
  csrf: string;
  body: SessionBody;
}

export interface SessionBody {
  person: { id: string; email: string; name: string; superadmin: boolean };
  sites: { id: string; slug: string; name: string; role: string; suspended: boolean }[];
  csrf_token: string;
}

export interface ErrorBody {
  error: { code: string; message: string; request_id?: string };
}

async function result<T>(response: Response): Promise<AdminResult<T>> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** POST /api/session with a JSON body. */
export async function postSignIn<T = SessionBody>(email: string, password: string): Promise<AdminResult<T>> {
  return result<T>(
    await workerFetch(`${ADMIN}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) }),
  );
}

/** Signs in and keeps the cookie and CSRF token for later calls. */
export async function signIn(email: string, password = "correct horse"): Promise<AdminSession> {
  const res = await postSignIn(email, password);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookie = res.headers.get("set-cookie") ?? "";
  const secret = /dw_session=([^;]+)/.exec(setCookie)?.[1] ?? "";
  return { cookie: `dw_session=${secret}`, secret, csrf: res.body.csrf_token, body: res.body };
}

export interface CallOptions {
  siteId?: string;
  body?: unknown;
  /** A body sent as is (as application/json unless `headers` says otherwise), in place of `body`. */
  rawBody?: BodyInit;
  /** CSRF token to send; the session's by default, `null` to send none. */
  csrf?: string | null;
  headers?: Record<string, string>;
}

/** A call to an admin JSON route within a session. */
export async function adminCall<T = unknown>(session: AdminSession | undefined, method: string, path: string, options: CallOptions = {}): Promise<AdminResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (session) headers.cookie = session.cookie;
  const csrf = options.csrf === undefined ? session?.csrf : options.csrf;
  if (csrf !== null && csrf !== undefined) headers["x-csrf-token"] = csrf;
  if (options.siteId) headers["x-site-id"] = options.siteId;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined || options.rawBody !== undefined) {
    headers["content-type"] ??= "application/json";
    init.body = options.rawBody ?? JSON.stringify(options.body);
  }
  return result<T>(await workerFetch(`${ADMIN}${path}`, init));
}

/** An error body without its request id, for comparing refusals. */
export function withoutRequestId(body: unknown): unknown {
  const copy = structuredClone(body) as ErrorBody;
  if (copy?.error) delete copy.error.request_id;
  return copy;
}

/** The id of a seeded role of a site. */
export async function roleId(siteId: string, slug: string): Promise<string> {
  const row = await env.DB.prepare("SELECT id FROM roles WHERE site_id = ? AND slug = ?").bind(siteId, slug).first<{ id: string }>();
  if (!row) throw new Error(`no role ${slug}`);
  return row.id;
}

/** The email of a person (seedSite's `person()` returns only an actor). */
export async function emailOf(personId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(personId).first<{ email: string }>();
  if (!row) throw new Error(`no person ${personId}`);
  return row.email;
}
