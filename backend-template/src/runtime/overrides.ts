/**
 * Operation overrides (docs/generated-backend.md, "Operation overrides"): the owner's own handler
 * for a row operation, keyed by operation id (`Article.create`), written in `src/overrides.ts`.
 * The route's guard runs first (availability, access mode, the caller's rights); the override then
 * answers in the operation's place and may call `next()` for the built-in operation. Because an
 * override of `<Model>.create` may do anything (call another service, write elsewhere), it cannot
 * be folded into one database batch: `POST /api/<model>/with-relations` then answers 501
 * `atomic_create_unavailable` (spec 3, "Rules of with-relations", rule 7).
 */
import type { Caller } from "./access.js";
import type { AnyDb } from "./rows.js";
import { OPERATIONS, type ModelSchema, type Operation, type SiteSchema } from "./schema-types.js";

export interface OverrideContext {
  /** The request as the route received it (its body not read yet). */
  request: Request;
  /** Who calls, as the guard saw it (service, read token, session or anonymous). */
  caller: Caller;
  model: ModelSchema;
  operation: Operation;
  /** The backend's database (kysely), for an override that reads or writes itself. */
  db: AnyDb;
  /** The built-in operation, on this request or on one the override made (a rewritten body). */
  next: (request?: Request) => Promise<Response>;
}

export type OperationOverride = (context: OverrideContext) => Promise<Response>;

/** `src/overrides.ts`: operation id → handler. */
export type OperationOverrides = Readonly<Record<string, OperationOverride>>;

/** The operation id of a row operation (`Article.create`), the key of its override. */
export const operationId = (model: ModelSchema, operation: Operation): string => `${model.pascal}.${operation}`;

/** The override of an operation, if the owner wrote one. */
export function overrideOf(overrides: OperationOverrides | undefined, model: ModelSchema, operation: Operation): OperationOverride | undefined {
  const id = operationId(model, operation);
  return overrides !== undefined && Object.hasOwn(overrides, id) ? overrides[id] : undefined;
}

/**
 * Refuses (throws) an override keyed by no row operation of this site, or one that is not a
 * function: a misspelt key would otherwise leave the built-in operation running unnoticed.
 */
export function checkOverrides(overrides: OperationOverrides, schema: SiteSchema): void {
  const known = new Set(schema.models.flatMap((model) => OPERATIONS.map((operation) => operationId(model, operation))));
  for (const [id, handler] of Object.entries(overrides)) {
    if (!known.has(id)) throw new Error(`src/overrides.ts: ${id} is no operation of this backend (<Model>.<findMany|findManyPaginated|findUnique|create|update|delete>).`);
    if (typeof handler !== "function") throw new Error(`src/overrides.ts: ${id} must be a function.`);
  }
}
