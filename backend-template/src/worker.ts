/**
 * The worker entry (`npm run dev:worker`, `npm run deploy`): the row API over D1 through kysely-d1.
 * ACCESS_CONFIG is checked on the first request of an isolate; an invalid one answers 500 to every
 * request (a worker cannot refuse to start otherwise).
 */
import { Kysely } from "kysely";
import { D1Dialect } from "kysely-d1";
import operations from "../access/operations.json";
import rolesFile from "../access/roles.json";
import type { BatchRunner } from "./runtime/batch.js";
import { loadAccessConfig, type AccessConfig } from "./runtime/access.js";
import { errorResponse, HttpError } from "./runtime/errors.js";
import { r2Store } from "./runtime/private-files.js";
import { loadRoles, type RolesConfig } from "./runtime/roles.js";
import { checkOverrides } from "./runtime/overrides.js";
import { handle } from "./runtime/router.js";
import { Sessions } from "./runtime/sessions.js";
import type { OperationsConfig } from "./runtime/schema-types.js";
import { overrides } from "./overrides.js";
import { SCHEMA } from "./schema.js";

interface Env {
  DB: D1Database;
  ACCESS_CONFIG?: string;
  API_BEARER_TOKEN?: string;
  /** Private files (`private-file:` markers); without it the file route answers 503 private_files_unavailable. */
  PRIVATE_FILES?: R2Bucket;
  /** Sessions and roles are on when set (a long random secret); AUTH_URL pins the public origin. */
  AUTH_SECRET?: string;
  AUTH_URL?: string;
  AUTH_RATE_LIMIT?: string;
}

/** Per isolate: the database handle and the sessions built on it (Better Auth keeps its context). */
let bound: { db: Kysely<Record<string, never>>; sessions: { sessions: Sessions; roles: RolesConfig } | undefined } | undefined;

let access: AccessConfig | Error | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (access === undefined) {
      try {
        access = loadAccessConfig(env.ACCESS_CONFIG, SCHEMA);
      } catch (error) {
        access = error instanceof Error ? error : new Error(String(error));
      }
    }
    if (access instanceof Error) {
      console.error(access.message);
      return errorResponse(new HttpError(500, "access_config_invalid", "The backend's ACCESS_CONFIG is missing or invalid; see the worker's log."));
    }
    if (bound === undefined) {
      const db = new Kysely<Record<string, never>>({ dialect: new D1Dialect({ database: env.DB }) });
      try {
        checkOverrides(overrides, SCHEMA);
        const roles = loadRoles(rolesFile, SCHEMA);
        const sessions = env.AUTH_SECRET ? { sessions: new Sessions({ db, secret: env.AUTH_SECRET, baseURL: env.AUTH_URL, roles, rateLimit: env.AUTH_RATE_LIMIT !== "off" }), roles } : undefined;
        bound = { db, sessions };
      } catch (error) {
        access = error instanceof Error ? error : new Error(String(error));
        console.error(access.message);
        return errorResponse(new HttpError(500, "access_config_invalid", "The backend's access/roles.json, src/overrides.ts or AUTH_SECRET is invalid; see the worker's log."));
      }
    }
    // List relations commit as one D1 batch (one implicit transaction: all statements or none).
    const batch: BatchRunner = async (statements) => void (await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql).bind(...s.parameters))));
    return handle(request, { db: bound.db, batch, schema: SCHEMA, operations: operations as OperationsConfig, access, serviceToken: env.API_BEARER_TOKEN, privateFiles: env.PRIVATE_FILES ? r2Store(env.PRIVATE_FILES) : undefined, sessions: bound.sessions, overrides });
  },
};
