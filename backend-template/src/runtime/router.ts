/**
 * The row API's one request handler, shared by the worker and the local server (docs/generated-
 * backend.md): `/api/<model>[/paginated|/unique]` and `GET /api/openapi.json`.
 */
import { authorize, callerOf, type AccessConfig } from "./access.js";
import { errorResponse, HttpError, invalid, json } from "./errors.js";
import type { BatchRunner } from "./batch.js";
import { routeRelations } from "./relation-routes.js";
import { buildOpenApi } from "./openapi.js";
import { overrideOf, type OperationOverrides } from "./overrides.js";
import { isPointParam, pointQuery } from "./points.js";
import { filesRoute, filesRouteMatch, type PrivateFileStore } from "./private-files.js";
import type { RolesConfig, SessionHandler } from "./roles.js";
import { runOperation, type AnyDb } from "./rows.js";
import { translationOwner, translationRoute } from "./translations.js";
import { seesPrivate } from "./visibility.js";
import { OPERATION_ROUTES, OPERATIONS, operationSettings, READ_OPERATIONS, type Operation, type OperationsConfig, type SiteSchema } from "./schema-types.js";

export interface Backend {
  db: AnyDb;
  /** Runs writes that commit together (list relations); absent → 503 relation_writes_unavailable. */
  batch?: BatchRunner;
  schema: SiteSchema;
  operations: OperationsConfig;
  access: AccessConfig;
  serviceToken: string | undefined;
  /** PRIVATE_FILES (worker) or PRIVATE_FILES_DIRECTORY (local server); absent: 503 private_files_unavailable. */
  privateFiles?: PrivateFileStore | undefined;
  /** Sessions and roles (AUTH_SECRET set); without them `session` routes take the service caller only. */
  sessions?: { sessions: SessionHandler; roles: RolesConfig } | undefined;
  /** The owner's operation overrides (`src/overrides.ts`, runtime/overrides.ts). */
  overrides?: OperationOverrides | undefined;
  now?: () => string;
  newId?: () => string;
}

const READ_ARGS = ["where", "orderBy", "take", "skip", "select"];

/** Query parameters as arguments: structured values are URL-encoded JSON; take/skip also plain. */
function readArgs(url: URL, listing: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    if (listing && isPointParam(name)) continue; // points.ts reads these
    const values = url.searchParams.getAll(name);
    if (values.length > 1) throw invalid(`${name} is given more than once.`, name);
    if (!READ_ARGS.includes(name)) throw invalid(`${name} is not an argument (${READ_ARGS.join(", ")}).`, name);
    const raw = values[0] ?? "";
    try {
      args[name] = JSON.parse(raw) as unknown;
    } catch {
      throw invalid(`${name} must be URL-encoded JSON.`, name);
    }
  }
  return args;
}

export async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw invalid("The body must be application/json.");
  const text = await request.text();
  if (text.length > 1_048_576) throw new HttpError(413, "payload_too_large", "The body is larger than 1 MiB.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid("The body is not JSON.");
  }
}

export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function route(request: Request, backend: Backend): Promise<Response> {
  const url = new URL(request.url);
  let caller = await callerOf(request, backend.access, backend.serviceToken);
  if (url.pathname.startsWith("/api/auth/")) {
    if (backend.sessions === undefined) throw new HttpError(404, "not_found", "Sessions are off: set AUTH_SECRET to enable them.");
    return backend.sessions.sessions.handle(request, caller.kind === "service");
  }
  if (caller.kind === "anonymous" && backend.sessions !== undefined) {
    const user = await backend.sessions.sessions.userOf(request);
    if (user !== null) caller = { kind: "session", userId: user.id, role: user.role, roles: backend.sessions.roles };
  }
  const relationAnswer = await routeRelations(request, url, backend, caller);
  if (relationAnswer !== undefined) return relationAnswer;
  if (url.pathname === "/api/openapi.json") {
    if (request.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET.", {}, { allow: "GET" });
    authorize(caller, "openapi", null, "service", backend.serviceToken);
    return json(buildOpenApi(backend.schema, backend.operations, backend.overrides));
  }
  const files = filesRouteMatch(url.pathname);
  if (files) return filesRoute({ ...backend, match: files, url, method: request.method, caller, models: backend.schema.models, store: backend.privateFiles });
  const match = /^\/api\/([a-z0-9]+)(\/paginated|\/unique)?\/?$/.exec(url.pathname);
  const model = match ? backend.schema.models.find((m) => m.api === match[1]) : undefined;
  const owner = match && model === undefined ? translationOwner(backend.schema, match[1] ?? "") : undefined;
  if (match && owner !== undefined) {
    const answer = await translationRoute({ ...backend, request, path: match[2] ?? "", owner, caller, readArgs: () => readArgs(url, false), readBody: () => readBody(request), now: backend.now ?? (() => new Date().toISOString()), newId: backend.newId ?? randomId });
    return json(answer.body, answer.status);
  }
  if (!match || model === undefined) throw new HttpError(404, "not_found", "No such route.");
  const path = match[2] ?? "";
  const atPath = OPERATIONS.filter((op) => OPERATION_ROUTES[op].path === path);
  const enabled = atPath.filter((op) => operationSettings(backend.operations, model.api, op).enabled);
  // A disabled operation keeps its path reserved: 405 with what is left, or 404 when nothing is.
  if (enabled.length === 0) throw new HttpError(404, "not_found", "No operation is enabled on this route.");
  const operation: Operation | undefined = enabled.find((op) => OPERATION_ROUTES[op].method === request.method);
  if (operation === undefined) {
    const allow = enabled.map((op) => OPERATION_ROUTES[op].method).join(", ");
    throw new HttpError(405, "method_not_allowed", `Use ${allow}.`, {}, { allow });
  }
  const settings = operationSettings(backend.operations, model.api, operation);
  authorize(caller, operation, model.api, settings.access, backend.serviceToken);
  const isRead = READ_OPERATIONS.includes(operation);
  const listing = operation === "findMany" || operation === "findManyPaginated";
  if (!isRead && url.search !== "") throw invalid("Writes take no query parameters.");
  const builtIn = async (given: Request): Promise<Response> => {
    const result = await runOperation(operation, {
      db: backend.db,
      model,
      args: isRead ? readArgs(url, listing) : {},
      points: listing ? pointQuery(url, model, seesPrivate(caller, model.api)) : undefined,
      body: isRead ? undefined : await readBody(given),
      withPrivate: seesPrivate(caller, model.api),
      now: backend.now ?? (() => new Date().toISOString()),
      newId: backend.newId ?? randomId,
    });
    return json(result, operation === "create" ? 201 : 200);
  };
  const override = overrideOf(backend.overrides, model, operation);
  if (override === undefined) return builtIn(request);
  // The owner's handler answers in the operation's place; its refusals (HttpError) answer as ours do.
  return override({ request, caller, model, operation, db: backend.db, next: (given) => builtIn(given ?? request) });
}

/** Answers one request; every refusal is `{ error: { code, message } }`. */
export async function handle(request: Request, backend: Backend): Promise<Response> {
  try {
    return await route(request, backend);
  } catch (error) {
    if (error instanceof HttpError) return errorResponse(error);
    console.error(error);
    return errorResponse(new HttpError(500, "internal_error", "Something went wrong."));
  }
}
