import { ManageOperationsRoutes, type ManageOperations, type ManageOperationsId } from "../../../openapi/manage-v1";
import { AdminOperationsRoutes, type AdminOperations, type AdminOperationsId } from "../../../openapi/admin-v1";
import { OpsOperationsRoutes, type OpsOperations, type OpsOperationsId } from "../../../openapi/ops-v1";

/**
 * The admin UI's one door to the service. Operations are called by the operationId of the
 * contract (openapi/manage-v1.ts, openapi/admin-v1.ts, generated from schema/), so a request and
 * its answer are typed from the same source the server parses with.
 *
 * Management operations go to `/api/v1/…` on the admin host: the management API under the
 * session (workers/admin/manage-bridge.ts). Every write carries the session's CSRF token; writes
 * that need it carry an Idempotency-Key the caller made per user action (`newActionKey()`), so a
 * double click or a retry of the same action never writes twice.
 */

/** A refusal of the service: the HTTP status and the error envelope's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

const headers = { csrf: "", site: "" };

/** The session's CSRF token (from the session answer) and the chosen site. */
export function setRequestContext(next: { csrf?: string; site?: string }): void {
  if (next.csrf !== undefined) headers.csrf = next.csrf;
  if (next.site !== undefined) headers.site = next.site;
}

/** A fresh Idempotency-Key for one user action (one click); reuse it when retrying that action. */
export function newActionKey(): string {
  return `ui-${crypto.randomUUID()}`;
}

type Query = Record<string, string | number | boolean | undefined | null>;
type Known<T> = [T] extends [never] ? undefined : T;

/** What a call passes: path parameters, query and body as the contract types them. */
export interface CallInput<P, Q, B> {
  params?: Known<P>;
  query?: Known<Q> & Query;
  body?: Known<B>;
  /** Idempotency-Key of the user action (writes); a new one is made when absent. */
  key?: string;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `X-Editing-Token`, the editing lease a write is made under). */
  headers?: Record<string, string>;
  /** Lets the request outlive the page (a lease released on `pagehide`). */
  keepalive?: boolean;
}

/** The path with its `{name}` parameters filled in (camelCase names too: `{installationId}` of the media sources). */
function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The headers every request to the service carries: the chosen site, and for writes the session's
 * CSRF token and the action's Idempotency-Key (a new one when absent). Also for requests made
 * without `send` (the media upload's XMLHttpRequest, which reports progress).
 */
export function requestHeaders(method: string, key?: string): Record<string, string> {
  const h: Record<string, string> = { accept: "application/json" };
  if (headers.site) h["x-site-id"] = headers.site;
  if (method !== "GET" && method !== "HEAD") {
    if (headers.csrf) h["x-csrf-token"] = headers.csrf;
    h["idempotency-key"] = key ?? newActionKey();
  }
  return h;
}

/** A refusal's body (the error envelope) as an ApiError. */
export function apiErrorOf(status: number, statusText: string, parsed: unknown): ApiError {
  const envelope = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
  const { code, message, ...details } = (envelope ?? {}) as { code?: string; message?: string; [k: string]: unknown };
  return new ApiError(status, code ?? `http_${status}`, message ?? statusText, details);
}

/** Sends one request and turns a refusal into an ApiError; 204 answers are null. */
export async function send<T>(method: string, path: string, init: { body?: unknown; raw?: BodyInit; contentType?: string; key?: string; signal?: AbortSignal; headers?: Record<string, string>; keepalive?: boolean } = {}): Promise<T> {
  // The caller's headers (e.g. the editing token) may not replace the site, CSRF or key.
  const { accept, ...context } = requestHeaders(method, init.key);
  const h: Record<string, string> = { accept: accept ?? "application/json", ...init.headers, ...context };
  let body: BodyInit | undefined;
  if (init.raw !== undefined) {
    body = init.raw;
    if (init.contentType) h["content-type"] = init.contentType;
  } else if (init.body instanceof FormData) {
    // multipart/form-data (media uploads and replaces): the browser writes the boundary.
    body = init.body;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    h["content-type"] = "application/json";
  }
  const response = await fetch(path, { method, headers: h, body, credentials: "same-origin", signal: init.signal, keepalive: init.keepalive });
  if (response.status === 204) return null as T;
  const text = await response.text();
  if (!response.ok) {
    // A refusal without the JSON envelope (the runtime's own text, e.g. a worker restarted
    // mid-request) is still a refusal with its status, not "the service could not be reached".
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      throw new ApiError(response.status, `http_${response.status}`, text.slice(0, 300) || response.statusText, {});
    }
    throw apiErrorOf(response.status, response.statusText, parsed);
  }
  return (text ? JSON.parse(text) : null) as T;
}

const MANAGE_PREFIX = "/api/manage/v1";
/** Where the admin host serves the management API under a session. */
export const SESSION_MANAGE_PREFIX = "/api/v1";

/** Calls a management API operation as the signed-in person on the chosen site. */
export function manage<K extends ManageOperationsId>(
  operation: K,
  input: CallInput<ManageOperations[K]["params"], ManageOperations[K]["query"], ManageOperations[K]["body"]> = {},
): Promise<ManageOperations[K]["response"]> {
  const route = ManageOperationsRoutes[operation];
  const path = SESSION_MANAGE_PREFIX + fillPath(route.path, input.params as Record<string, string> | undefined).slice(MANAGE_PREFIX.length);
  return send(route.method, withQuery(path, input.query as Query | undefined), { body: input.body, key: input.key, signal: input.signal, headers: input.headers, keepalive: input.keepalive });
}

/** Calls an admin route (session, site tokens, proposals, plugins, people…). */
export function admin<K extends AdminOperationsId>(
  operation: K,
  input: CallInput<AdminOperations[K]["params"], AdminOperations[K]["query"], AdminOperations[K]["body"]> = {},
): Promise<AdminOperations[K]["response"]> {
  const route = AdminOperationsRoutes[operation];
  const path = fillPath(route.path, input.params as Record<string, string> | undefined);
  return send(route.method, withQuery(path, input.query as Query | undefined), { body: input.body, key: input.key, signal: input.signal });
}

/**
 * Calls an operators' route (`/api/ops/…`, docs/operations-api.md) as the signed-in superadmin:
 * the session cookie and CSRF token stand for the operators' token (a chosen site's X-Site-Id is ignored there).
 */
export function ops<K extends OpsOperationsId>(
  operation: K,
  input: CallInput<OpsOperations[K]["params"], OpsOperations[K]["query"], OpsOperations[K]["body"]> = {},
): Promise<OpsOperations[K]["response"]> {
  const route = OpsOperationsRoutes[operation];
  const path = fillPath(route.path, input.params as Record<string, string> | undefined);
  return send(route.method, withQuery(path, input.query as Query | undefined), { body: input.body, key: input.key, signal: input.signal });
}

export type { ManageOperations, AdminOperations, OpsOperations };
export type OpsAnswer<K extends OpsOperationsId> = OpsOperations[K]["response"];
export type ManageAnswer<K extends ManageOperationsId> = ManageOperations[K]["response"];
export type AdminAnswer<K extends AdminOperationsId> = AdminOperations[K]["response"];
