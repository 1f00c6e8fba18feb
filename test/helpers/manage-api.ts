import { env } from "cloudflare:test";
import { ALL_SCOPES, type Scope } from "../../schema/scopes";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import type { SeededSite } from "./fixtures";
import { workerFetch } from "./worker";

export interface ManageResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** A management credential of the site's admin (every scope unless narrowed). */
export async function credential(s: SeededSite, scopes: readonly Scope[] = ALL_SCOPES, modelIds?: string[]): Promise<string> {
  const created = await createManagementCredential(s.ctx(), { name: "test", scopes: [...scopes], ...(modelIds ? { model_ids: modelIds } : {}) });
  return created.token;
}

let keys = 0;
/** A fresh Idempotency-Key. */
export const newKey = () => `test-key-${Date.now()}-${keys++}`;

/** A call to the management API (any host: the site comes from the credential). */
export async function manage<T = unknown>(
  token: string | null,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: BodyInit; key?: string | null; headers?: Record<string, string> } = {},
): Promise<ManageResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  const key = options.key === undefined ? (method === "GET" ? null : newKey()) : options.key;
  if (key !== null) headers["idempotency-key"] = key;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined || options.rawBody !== undefined) {
    headers["content-type"] ??= "application/json";
    init.body = options.rawBody ?? JSON.stringify(options.body);
  }
  const response = await workerFetch(`http://api.example.test/api/manage/v1${path}`, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Changes the admin role (the credentials' creator) in D1, bumping its revision. */
export async function changeAdminRole(s: SeededSite, change: (permissions: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const role = await env.DB.prepare("SELECT r.id, r.permissions FROM roles r JOIN memberships m ON m.role_id = r.id WHERE m.person_id = ? AND m.site_id = ?").bind(s.adminId, s.site.id).first<{ id: string; permissions: string }>();
  const permissions = change(JSON.parse(role?.permissions ?? "{}") as Record<string, unknown>);
  await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(permissions), role?.id).run();
}
