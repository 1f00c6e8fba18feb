/**
 * The relation routes in `openapi.json` (docs/generated-backend.md, "Relations"): each present only
 * while the owner operation it inherits is enabled; `with-relations` marked `x-atomic-create`.
 */
import { joinTables } from "./join-tables.js";
import { overrideOf, type OperationOverrides } from "./overrides.js";
import type { RelationSchema } from "./relation-types.js";
import { operationSettings, type OperationsConfig, type SiteSchema } from "./schema-types.js";

type Json = Record<string, unknown>;

const errorRef = { $ref: "#/components/responses/Error" };
const errors = (...statuses: string[]): Json => Object.fromEntries(["400", "401", "403", ...statuses].map((s) => [s, errorRef]));
const ok = (status: string, schema: Json): Json => ({ [status]: { description: "OK", content: { "application/json": { schema } } } });
const query = (name: string, description: string, required = false): Json => ({ name, in: "query", required, description, schema: { type: "string" } });

function refSchema(rel: RelationSchema): Json {
  const models = rel.targets.map((t) => t.model);
  const object = { type: "object", properties: { model: { type: "string", enum: models }, id: { type: "string" } }, required: ["model", "id"], additionalProperties: false };
  return rel.targets.length > 1 ? object : { oneOf: [{ type: "string" }, object] };
}

function listPaths(schema: SiteSchema, operations: OperationsConfig, overrides: OperationOverrides | undefined): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const model of schema.models) {
    for (const rel of model.relations ?? []) {
      const item: Json = {};
      const answer = { type: "array", items: { type: "object", properties: { model: { type: "string" }, id: { type: "string" } }, required: ["model", "id"] } };
      if (operationSettings(operations, model.api, "findUnique").enabled) {
        item.get = {
          operationId: `${model.pascal}.${rel.field}.findList`,
          summary: `The ${rel.field} list of one ${model.api} row, in order (inherits ${model.pascal}.findUnique)`,
          parameters: [query("id", "The owner row's id", true), ...(rel.localized ? [query("locale", "The language of the list", true)] : [])],
          responses: { ...ok("200", answer), ...errors("404", "422") },
        };
      }
      if (operationSettings(operations, model.api, "update").enabled) {
        const refs = { type: "array", items: refSchema(rel) };
        item.put = {
          operationId: `${model.pascal}.${rel.field}.updateList`,
          summary: `Replace (set) or change (connect, disconnect) the ${rel.field} list (inherits ${model.pascal}.update)`,
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object", properties: { where: { type: "object" }, set: refs, connect: refs, disconnect: refs, ...(rel.localized ? { locale: { type: "string" } } : {}) }, required: ["where"], additionalProperties: false } } },
          },
          responses: { ...ok("200", answer), ...errors("404", "409", "422", "503") },
        };
      }
      if (Object.keys(item).length > 0) paths[`/api/${model.api}/relations/${rel.field}`] = item;
    }
    const lists = (model.relations ?? []).filter((rel) => rel.column === undefined);
    // An overridden create leaves with-relations answering 501 atomic_create_unavailable: not offered.
    if (lists.length > 0 && operationSettings(operations, model.api, "create").enabled && overrideOf(overrides, model, "create") === undefined) {
      const relations = Object.fromEntries(lists.map((rel) => [rel.field, rel.localized ? { type: "object", additionalProperties: { type: "array", items: refSchema(rel) } } : { type: "array", items: refSchema(rel) }]));
      paths[`/api/${model.api}/with-relations`] = {
        post: {
          operationId: `${model.pascal}.createWithRelations`,
          summary: `Create a ${model.api} row and its lists in one batch (inherits ${model.pascal}.create)`,
          "x-atomic-create": true,
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { data: { type: "object" }, relations: { type: "object", properties: relations, additionalProperties: false } }, required: ["data"], additionalProperties: false } } } },
          responses: { ...ok("201", { type: "object" }), ...errors("409", "422", "501", "503") },
        },
      };
    }
  }
  return paths;
}

function joinPaths(schema: SiteSchema, operations: OperationsConfig): Record<string, Json> {
  const paths: Record<string, Json> = {};
  const row = { type: "object", properties: { owner_id: { type: "string" }, target_id: { type: "string" }, position: { type: "integer" }, lang: { type: "string" } } };
  const readParams = ["where", "orderBy", "take", "skip", "select"].map((name) => query(name, `${name}, as on the row routes`));
  for (const join of joinTables(schema)) {
    const enabled = (op: "findMany" | "findManyPaginated" | "findUnique") => operationSettings(operations, join.owner.api, op).enabled;
    if (enabled("findMany")) paths[`/api/${join.table}`] = { get: { operationId: `${join.table}.findMany`, parameters: readParams, responses: { ...ok("200", { type: "array", items: row }), ...errors() } } };
    if (enabled("findManyPaginated")) {
      paths[`/api/${join.table}/paginated`] = {
        get: { operationId: `${join.table}.findManyPaginated`, parameters: readParams, responses: { ...ok("200", { type: "object", properties: { data: { type: "array", items: row }, total: { type: "integer" }, hasMore: { type: "boolean" } } }), ...errors() } },
      };
    }
    if (enabled("findUnique")) {
      paths[`/api/${join.table}/unique`] = {
        get: { operationId: `${join.table}.findUnique`, parameters: [query("where", `{ owner_id, ${join.rel.localized ? "lang, " : ""}target_id }, URL-encoded JSON`), query("select", "{ column: true }")], responses: { ...ok("200", { oneOf: [row, { type: "null" }] }), ...errors() } },
      };
    }
  }
  return paths;
}

/** The relation routes' path items, by path. */
export function relationPaths(schema: SiteSchema, operations: OperationsConfig, overrides?: OperationOverrides): Record<string, Json> {
  return { ...listPaths(schema, operations, overrides), ...joinPaths(schema, operations) };
}
