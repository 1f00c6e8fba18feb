import * as v from "valibot";
import { manageSurface } from "../../schema/manage-api";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { siteScope } from "../../shared/db/site-scope";
import type { Env } from "../../shared/env";
import { AppError } from "../../shared/errors";
import { callerHasScope, callerKey } from "../../shared/auth/caller";
import { notePhase } from "../../shared/observability/write-phases";
import { authenticateManagement, type ManagementAuth } from "../../shared/auth/management-authority";
import type { RouteSpec } from "../../schema/contract";
import { isScope } from "../../schema/scopes";
import { parse } from "../../shared/services/validation/parse";
import { RETENTION_DEFAULT_MS, RETENTION_LIFECYCLE_MS } from "../../objects/site/idempotency";
import { siteObject } from "../forward";
import { MANAGE_BODY_MAX_BYTES, readJsonBody } from "../http/json-body";
import { readMultipartForm } from "../http/multipart-body";
import { sha256Hex } from "../../shared/crypto/digest";
import { malformedPath, methodNotAllowed, routeTable, type RouteMatch } from "../http/route-table";
import { queryIsUtf8 } from "../http/query-utf8";
import type { DeferredRate, ManageAuthority, ManageCall, ManageHandler } from "./context";
import { isCommandHandler } from "./respond";
import { isRetiredBulkPath, requireNotRetiredBulkPath } from "./retired-bulk-paths";
import { HANDLERS } from "./handlers";
import { idempotencyKey, requestFingerprint } from "./idempotency-key";
import { siteScopedDatabase } from "../../shared/db/site-databases";

export const MANAGE_BASE = manageSurface.basePath;

/** Requests per caller (credential, or a person's session) per window, counted in the site's Durable Object (docs/management-api.md). */
export const MANAGE_RATE_LIMIT = { requests: 600, windowMs: 60_000 } as const;

/** The per-credential limit; MANAGE_RATE_LIMIT (requests per minute) overrides the default. */
function rateLimit(env: Env): number {
  const n = Number(env.MANAGE_RATE_LIMIT ?? MANAGE_RATE_LIMIT.requests);
  return Number.isSafeInteger(n) && n > 0 ? n : MANAGE_RATE_LIMIT.requests;
}

/** Operations whose answers are kept 30 days; every other write keeps its answer 24 hours. */
const LIFECYCLE_OPERATIONS = new Set(["publishEntry", "unpublishEntry", "moveEntry", "bulkPublishEntries", "bulkUnpublishEntries", "bulkMoveEntries"]);

// HEAD answers like GET (RFC 9110 §9.3.2): the byte reads of exports and import artefacts above all.
const match = routeTable(MANAGE_BASE, manageSurface.routes, { headAsGet: true });
const emptyQuery = v.strictObject({});

/**
 * Query values: one string each, or arrays for repeated names. A query whose percent-decoded bytes
 * are not UTF-8 is 400 `invalid_request` (issue 22 item 6: never stored as U+FFFD).
 */
export function queryObject(url: URL): Record<string, string | string[]> {
  if (!queryIsUtf8(url.search)) throw new AppError("invalid_request", "The query is not valid UTF-8 once percent-decoded.");
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return out;
}

/**
 * The management API: credential → site and authority (re-read every request) → rate limit →
 * scope → Idempotency-Key on writes → closed-schema parsing → handler. The site comes from the
 * credential only: a request naming a site or database is refused.
 */
export async function handleManage(request: Request, env: Env): Promise<Response> {
  const matched = await match(request);
  // A retired generic bulk path no route matches (`/plugins/bulk`) still answers 410 once the caller is known.
  if (matched.kind === "none" && !isRetiredBulkPath(new URL(request.url).pathname.slice(MANAGE_BASE.length))) throw new AppError("not_found", "No such management route.");
  refuseNamedSite(request);
  // The credential comes before anything the path says: a caller without one learns nothing more.
  const auth = credentialAuthority(await authenticateManagement(env.DB, request));
  notePhase("authenticated");
  const handler = matched.kind === "matched" ? HANDLERS[matched.route.operationId] : undefined;
  if (!isCommandHandler(handler)) {
    await takeManageRate(env, auth);
    return dispatchManage(request, env, auth, matched);
  }
  // One request to the site object: a route that only runs a command spends its rate window in
  // the command's own call (past the limit: 429, nothing done). Whatever answers without reaching
  // the command (a refusal before it) spends the window here first, so 429 still comes first.
  const rate: DeferredRate = { bucket: manageBucket(auth), limit: rateLimit(env), windowMs: MANAGE_RATE_LIMIT.windowMs, message: RATE_MESSAGE, spent: false };
  let response: Response;
  try {
    response = await dispatchManage(request, env, auth, matched, rate);
  } catch (error) {
    if (!rate.spent) await takeManageRate(env, auth);
    throw error;
  }
  if (!rate.spent) await takeManageRate(env, auth);
  return response;
}

const RATE_MESSAGE = "Too many requests for this credential.";
const manageBucket = (auth: Pick<ManageAuthority, "caller">) => `manage:${callerKey(auth.caller)}`;

/** A credential's authentication as the dispatch takes it: the credential asks (shared/auth/caller.ts). */
export function credentialAuthority(auth: ManagementAuth): ManageAuthority {
  return { caller: { kind: "credential", credential: auth.credential }, site: auth.site, actor: auth.actor };
}

/**
 * The site comes from the credential only (spec 2, Authentication): a request naming a site
 * (`X-Site-Id`, `site_id`) or a database is refused — on the HTTP API and the MCP address alike.
 */
export function refuseNamedSite(request: Request): void {
  const url = new URL(request.url);
  if (request.headers.has("x-site-id") || url.searchParams.has("site_id") || url.searchParams.has("database")) {
    throw new AppError("invalid_request", "The site comes from the credential; do not name a site or database.");
  }
}

/**
 * Counts one request against the caller's rate limit (in the site's object); 429
 * rate_limited with `retry_after` past it. The HTTP API counts each request, the MCP server each
 * POST (a tool call it dispatches through {@link dispatchManage} is not counted again), the
 * session bridge each request of the person on the site.
 */
export async function takeManageRate(env: Env, auth: Pick<ManageAuthority, "caller" | "site">): Promise<void> {
  const rate = await siteObject(env, auth.site.id).takeRate(manageBucket(auth), rateLimit(env), MANAGE_RATE_LIMIT.windowMs);
  if (!rate.allowed) throw new AppError("rate_limited", RATE_MESSAGE, { retry_after: Math.ceil(rate.retryAfterMs / 1000) });
}

/**
 * The management API after authentication and rate limit: route → scope → Idempotency-Key on
 * writes → closed-schema parsing → handler. The MCP server's tool calls come in here with a
 * request built for the tool's route (workers/mcp/tools.ts), and the admin's session bridge with
 * the person as the caller (workers/admin/manage-bridge.ts), so they meet the same checks.
 */
export async function dispatchManage(request: Request, env: Env, auth: ManageAuthority, found?: RouteMatch<RouteSpec>, rate?: DeferredRate): Promise<Response> {
  const url = new URL(request.url);
  // Before matching: `/entries/bulk` would otherwise read as the entry "bulk" (spec 3: 410).
  if (url.pathname.startsWith(`${MANAGE_BASE}/`)) requireNotRetiredBulkPath(url.pathname.slice(MANAGE_BASE.length));
  const matched = found ?? (await match(request));
  if (matched.kind === "none") throw new AppError("not_found", "No such management route.");
  if (matched.kind === "method_not_allowed") throw methodNotAllowed(matched.allow);
  if (matched.kind === "malformed") throw malformedPath();
  const { route, params } = matched;
  if (route.scope && !(isScope(route.scope) && callerHasScope(auth.caller, route.scope))) {
    throw new AppError("insufficient_scope", `This operation needs the ${route.scope} scope.`, { scope: route.scope });
  }
  const write = route.method !== "get";
  const key = write && !route.noKey ? idempotencyKey(request) : undefined;
  const parsedParams = route.params ? (parse(route.params, params) as Record<string, string>) : params;
  const query = route.query ? (parse(route.query, queryObject(url)) as Record<string, unknown>) : (parse(emptyQuery, queryObject(url)) as Record<string, unknown>);
  // An upload route reads multipart/form-data with its own cap; every other write reads JSON.
  const form = write && route.multipart ? await readMultipartForm(request, route.multipart) : undefined;
  const upload = form ? { ...form.file, sha256: await sha256Hex(form.file.bytes) } : undefined;
  const rawBody = write ? (form ? { ...form.fields } : await readJsonBody(request, route.maxBodyBytes ?? MANAGE_BODY_MAX_BYTES)) : undefined;
  if (write) notePhase("body_read");
  const body = write && route.body ? parse(route.body, rawBody) : rawBody;
  // An upload is the same request when its fields and its file (name, type, bytes) are the same.
  const fingerprinted = upload ? { fields: rawBody, file: { name: upload.name, type: upload.type, sha256: upload.sha256 } } : rawBody;
  // Directory reads (roles, memberships) and content reads each reach their own database.
  const d1 = await siteScopedDatabase(env, auth.site.id);
  const db = createDb(d1);
  const call: ManageCall = {
    env,
    request,
    route,
    site: auth.site,
    actor: auth.actor,
    caller: auth.caller,
    ctx: { db, d1, scope: siteScope(auth.site.id), site: auth.site, actor: auth.actor, clock: systemClock },
    params: parsedParams,
    query,
    body,
    upload,
    idempotency: key
      ? {
          scope: callerKey(auth.caller),
          key,
          fingerprint: await requestFingerprint(request.method, url.pathname, fingerprinted),
          retentionMs: LIFECYCLE_OPERATIONS.has(route.operationId) ? RETENTION_LIFECYCLE_MS : RETENTION_DEFAULT_MS,
        }
      : undefined,
    ...(rate ? { rate } : {}),
  };
  const handler: ManageHandler | undefined = HANDLERS[route.operationId];
  if (!handler) throw new AppError("not_found", "No such management route.");
  return handler(call);
}
