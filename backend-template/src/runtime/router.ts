/**
 * The row API's one request handler, shared by the worker and the local server (docs/generated-
 * backend.md): `/api/<model>[/paginated|/unique]` and `GET /api/openapi.json`.
 */
import { authorize, callerOf, seesPrivate, type AccessConfig } from "./access.js";
import { errorResponse, HttpError, invalid, json } from "./errors.js";
import { buildOpenApi } from "./openapi.js";
import type { RolesConfig } from "./roles.js";
import { runOperation, type AnyDb } from "./rows.js";
import type { Sessions } from "./sessions.js";
import { OPERATION_ROUTES, OPERATIONS, operationSettings, READ_OPERATIONS, type Operation, type OperationsConfig, type SiteSchema } from "./schema-types.js";

export interface Backend {
  db: AnyDb;
  schema: SiteSchema;
  operations: OperationsConfig;
  access: AccessConfig;
  serviceToken: string | undefined;
  /** Sessions and roles (AUTH_SECRET set); without them `session` routes take the service caller only. */
  sessions?: { sessions: Sessions; roles: RolesConfig } | undefined;
  now?: () => string;
  newId?: () => string;
}

const READ_ARGS = ["where", "orderBy", "take", "skip", "select"];

/** Query parameters as arguments: structured values are URL-encoded JSON; take/skip also plain. */
function readArgs(url: URL): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
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

async function readBody(request: Request): Promise<unknown> {
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

function randomId(): string {
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
  if (url.pathname === "/api/openapi.json") {
    if (request.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET.", {}, { allow: "GET" });
    authorize(caller, "openapi", null, "service", backend.serviceToken);
    return json(buildOpenApi(backend.schema, backend.operations));
  }
  const match = /^\/api\/([a-z0-9]+)(\/paginated|\/unique)?\/?$/.exec(url.pathname);
  const model = match ? backend.schema.models.find((m) => m.api === match[1]) : undefined;
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
  if (!isRead && url.search !== "") throw invalid("Writes take no query parameters.");
  const result = await runOperation(operation, {
    db: backend.db,
    model,
    args: isRead ? readArgs(url) : {},
    body: isRead ? undefined : await readBody(request),
    withPrivate: seesPrivate(caller, model.api),
    now: backend.now ?? (() => new Date().toISOString()),
    newId: backend.newId ?? randomId,
  });
  return json(result, operation === "create" ? 201 : 200);
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
