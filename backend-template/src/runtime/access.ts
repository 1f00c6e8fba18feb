/**
 * Who calls and what they may do (docs/generated-backend.md, "Access"): the service bearer
 * (`API_BEARER_TOKEN`), read tokens of `ACCESS_CONFIG` (by SHA-256 digest), or nobody; each
 * operation's access mode from `access/operations.json`.
 */
import { accessConfigProblems } from "../access-config-rules.js";
import { HttpError } from "./errors.js";
import { roleAllows, type RolesConfig } from "./roles.js";
import { READ_OPERATIONS, type AccessMode, type Operation, type SiteSchema } from "./schema-types.js";

export interface AccessConfig {
  version: 1;
  site: string;
  tokens: { id: string; digest: string; models: string[] }[];
}

export type Caller =
  | { kind: "anonymous" }
  | { kind: "service" }
  | { kind: "reader"; token: string; models: readonly string[] }
  /** A signed-in account of the app (runtime/sessions.ts) and its role's rights. */
  | { kind: "session"; userId: string; role: string; roles: RolesConfig };

/** ACCESS_CONFIG parsed, or an Error listing its problems (the runtimes refuse to start with it). */
export function loadAccessConfig(raw: string | undefined, schema: SiteSchema): AccessConfig {
  if (raw === undefined || raw.trim() === "") throw new Error("ACCESS_CONFIG is not set: give it { \"version\": 1, \"site\": \"" + schema.site.id + "\", \"tokens\": [] } at least.");
  const problems = accessConfigProblems(raw, { site: schema.site.id, models: schema.models.map((m) => m.api) });
  if (problems.length > 0) throw new Error(`ACCESS_CONFIG is invalid:\n  ${problems.join("\n  ")}`);
  return JSON.parse(raw) as AccessConfig;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Equal strings in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** The caller of a request: 401 for a bearer that is neither the service token nor a read token. */
export async function callerOf(request: Request, config: AccessConfig, serviceToken: string | undefined): Promise<Caller> {
  const header = request.headers.get("authorization");
  if (header === null) return { kind: "anonymous" };
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header);
  if (!match?.[1]) throw new HttpError(401, "unauthorized", "Authorization must be `Bearer <token>`.", {}, { "www-authenticate": "Bearer" });
  const secret = match[1];
  if (serviceToken !== undefined && serviceToken !== "" && sameSecret(secret, serviceToken)) return { kind: "service" };
  const digest = await sha256Hex(secret);
  const token = config.tokens.find((t) => t.digest === digest);
  if (token === undefined) throw new HttpError(401, "unauthorized", "Unknown token.", {}, { "www-authenticate": "Bearer" });
  return { kind: "reader", token: token.id, models: token.models };
}

/**
 * Whether `caller` may run `operation` on `model` under `mode`; throws 503 writes_unavailable,
 * 401 unauthorized or 403 forbidden. `model` null: a route reading no model (wildcard tokens only).
 */
export function authorize(caller: Caller, operation: Operation | "openapi", model: string | null, mode: AccessMode, serviceToken: string | undefined): void {
  const isRead = operation === "openapi" || READ_OPERATIONS.includes(operation);
  if (!isRead && mode === "service" && (serviceToken === undefined || serviceToken === "")) {
    throw new HttpError(503, "writes_unavailable", "Writes need a writer authenticator: set API_BEARER_TOKEN.");
  }
  if (caller.kind === "service") return;
  if (mode === "anonymous") return;
  if (caller.kind === "reader") {
    const allowed = isRead && (caller.models.includes("*") || (model !== null && caller.models.includes(model)));
    if (allowed) return;
    throw new HttpError(403, "forbidden", isRead ? "This read token does not cover this model." : "A read token cannot write.");
  }
  if (caller.kind === "session") {
    // A signed-in account passes `session` routes its role allows; `service` routes stay the service's.
    if (mode === "session" && operation !== "openapi" && model !== null && roleAllows(caller.roles, caller.role, model, operation)) return;
    throw new HttpError(403, "forbidden", mode === "session" ? `The role "${caller.role}" may not run ${operation} on ${model ?? "this route"}.` : "This operation is for the service caller.");
  }
  throw new HttpError(401, "unauthorized", mode === "session" ? "This operation needs a session or the service token." : "This operation needs the service token or a read token.", {}, { "www-authenticate": "Bearer" });
}
