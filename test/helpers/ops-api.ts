import { ADMIN } from "./admin-api";
import { workerFetch } from "./worker";

/** The operators' token the workerd tests run with (vitest.config.ts). */
export const OPS_TOKEN = "test-ops-token";

let keys = 0;
export const opsKey = () => `ops-key-${Date.now()}-${keys++}`;
let names = 0;
export const uniqueSlug = (base: string) => `${base}-${Date.now().toString(36)}-${(names++).toString(36)}`;

export interface OpsResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One call of the operators' API on the admin host; a write gets a fresh Idempotency-Key unless `key` is given (null: none). */
export async function ops<T = Record<string, unknown>>(method: string, path: string, options: { body?: unknown; key?: string | null; token?: string | null } = {}): Promise<OpsResult<T>> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? OPS_TOKEN : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const key = options.key === undefined ? (method === "GET" ? null : opsKey()) : options.key;
  if (key !== null) headers["idempotency-key"] = key;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  const response = await workerFetch(`${ADMIN}/api/ops${path}`, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/**
 * Calls a resumable operators' write (copy, delete) with one key until it is no longer 202;
 * answers the last result and how many calls it took.
 */
export async function untilDone<T>(path: string, body: unknown, key = opsKey(), limit = 30): Promise<OpsResult<T> & { calls: number }> {
  for (let calls = 1; ; calls++) {
    const res = await ops<T>("POST", path, { body, key });
    if (res.status !== 202 || calls >= limit) return { ...res, calls };
  }
}
