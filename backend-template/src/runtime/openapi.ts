/**
 * OpenAPI 3.1 of the enabled operations (docs/generated-backend.md, "Access"): served at
 * `GET /api/openapi.json` and written by the generator as `openapi.json` (same function).
 */
import type { OperationOverrides } from "./overrides.js";
import { pointParameters } from "./points.js";
import { inheritedOperation, translationUpdateModel } from "./translation-schema.js";
import { relationPaths } from "./relation-openapi.js";
import { OPERATION_ROUTES, OPERATIONS, operationSettings, type ColumnSchema, type ModelSchema, type Operation, type OperationsConfig, type SiteSchema } from "./schema-types.js";

type Json = Record<string, unknown>;

function columnSchema(column: ColumnSchema): Json {
  const base: Json =
    column.type === "integer" ? { type: "integer" } : column.type === "real" ? { type: "number" } : column.type === "boolean" ? { type: "boolean" } : column.type === "json" ? {} : { type: "string" };
  if (column.format === "date") base.format = "date";
  if (column.format === "datetime") base.format = "date-time";
  if (column.options !== undefined) base.enum = column.options;
  if (column.nullable && column.type !== "json") base.type = [base.type as string, "null"];
  return base;
}

function rowSchema(model: ModelSchema, withPrivate: boolean): Json {
  const columns = model.columns.filter((c) => withPrivate || !c.private);
  return { type: "object", properties: Object.fromEntries(columns.map((c) => [c.name, columnSchema(c)])), additionalProperties: false };
}

function dataSchema(model: ModelSchema, creating: boolean): Json {
  const columns = model.columns.filter((c) => !c.system && (creating || c.name !== "id"));
  return {
    type: "object",
    properties: Object.fromEntries(columns.map((c) => [c.name, columnSchema(c)])),
    ...(creating ? { required: columns.filter((c) => !c.nullable && c.name !== "id").map((c) => c.name) } : {}),
    additionalProperties: false,
  };
}

const errorRef = { $ref: "#/components/responses/Error" };
const jsonParam = (name: string, description: string): Json => ({ name, in: "query", required: false, description, schema: { type: "string" } });

function operationObject(model: ModelSchema, operation: Operation): Json {
  const row = { $ref: `#/components/schemas/${model.pascal}` };
  const uniqueWhere = { type: "object", description: "One unique column: id, slug or a unique field", minProperties: 1, maxProperties: 1 };
  const readParams = [
    jsonParam("where", "Prisma-style filter, URL-encoded JSON"),
    jsonParam("orderBy", "{ column: asc|desc } or an array of them, URL-encoded JSON"),
    jsonParam("take", "How many rows (0-1000)"),
    jsonParam("skip", "How many rows to skip"),
    jsonParam("select", "{ column: true }, URL-encoded JSON"),
  ];
  const responses = (status: string, schema: Json): Json => ({ [status]: { description: "OK", content: { "application/json": { schema } } }, "400": errorRef, "401": errorRef, "403": errorRef });
  const body = (schema: Json): Json => ({ required: true, content: { "application/json": { schema } } });
  const id = `${model.pascal}.${operation}`;
  switch (operation) {
    case "findMany":
      return { operationId: id, parameters: [...readParams, ...pointParameters(model)], responses: responses("200", { type: "array", items: row }) };
    case "findManyPaginated":
      return { operationId: id, parameters: [...readParams, ...pointParameters(model)], responses: responses("200", { type: "object", properties: { data: { type: "array", items: row }, total: { type: "integer" }, hasMore: { type: "boolean" } }, required: ["data", "total", "hasMore"] }) };
    case "findUnique":
      return { operationId: id, parameters: [jsonParam("where", "One unique column and its value, URL-encoded JSON"), jsonParam("select", "{ column: true }")], responses: responses("200", { oneOf: [row, { type: "null" }] }) };
    case "create":
      return { operationId: id, requestBody: body({ type: "object", properties: { data: dataSchema(model, true) }, required: ["data"], additionalProperties: false }), responses: { ...responses("201", row), "409": errorRef, "503": errorRef } };
    case "update":
      return { operationId: id, requestBody: body({ type: "object", properties: { where: uniqueWhere, data: dataSchema(model, false) }, required: ["where", "data"], additionalProperties: false }), responses: { ...responses("200", row), "404": errorRef, "409": errorRef, "503": errorRef } };
    case "delete":
      return { operationId: id, requestBody: body({ type: "object", properties: { where: uniqueWhere }, required: ["where"], additionalProperties: false }), responses: { ...responses("200", row), "404": errorRef, "409": errorRef, "503": errorRef } };
  }
}

/** `GET /api/<model>/files/{field}/{id}`: a private file (docs/generated-backend.md, "Private files"). */
function fileOperation(model: ModelSchema): Json {
  const query = (name: string, description: string, schema: Json): Json => ({ name, in: "query", required: false, description, schema });
  return {
    operationId: `${model.pascal}.file`,
    summary: "A private file of a row (private-file: marker), with the row's read access",
    parameters: [
      { name: "field", in: "path", required: true, schema: { type: "string", enum: (model.files ?? []).map((file) => file.field) } },
      { name: "id", in: "path", required: true, description: "The row's id", schema: { type: "string" } },
      query("media", "A media id the row's field holds (a multiple media field, a rich text's library image)", { type: "string" }),
      query("variant", "thumb or preview (a missing preview falls back to the original)", { type: "string", enum: ["thumb", "preview"] }),
    ],
    responses: {
      "200": { description: "The file; Cache-Control: private, no-store", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
      "400": errorRef,
      "401": errorRef,
      "403": errorRef,
      "404": errorRef,
      "503": errorRef,
    },
  };
}

/** The OpenAPI document of the enabled operations. */
export function buildOpenApi(schema: SiteSchema, operations: OperationsConfig, overrides?: OperationOverrides): Json {
  const paths: Record<string, Json> = {};
  for (const model of schema.models) {
    for (const operation of OPERATIONS) {
      if (!operationSettings(operations, model.api, operation).enabled) continue;
      const route = OPERATION_ROUTES[operation];
      const path = `/api/${model.api}${route.path}`;
      paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operationObject(model, operation) };
    }
  }
  // Private files: one route per model with media or rich text fields, available with findUnique.
  for (const model of schema.models) {
    if ((model.files ?? []).length === 0 || !operationSettings(operations, model.api, "findUnique").enabled) continue;
    paths[`/api/${model.api}/files/{field}/{id}`] = { get: fileOperation(model) };
  }
  // Translation tables: the reads, and create/update/delete for editors, each as the model's operation it inherits.
  for (const model of schema.models) {
    const table = model.translation;
    if (table === undefined) continue;
    for (const operation of OPERATIONS) {
      if (!operationSettings(operations, model.api, inheritedOperation(operation)).enabled) continue;
      const route = OPERATION_ROUTES[operation];
      const path = `/api/${table.api}${route.path}`;
      paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operationObject(operation === "update" ? translationUpdateModel(model, table) : table, operation) };
    }
  }
  const tables = schema.models.flatMap((model) => (model.translation !== undefined ? [model, model.translation] : [model]));
  return {
    openapi: "3.1.0",
    info: { title: `${schema.site.name} backend`, version: "1", description: "Generated by Driftwood: the site's models as ORM-style routes." },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths: { ...paths, ...relationPaths(schema, operations, overrides) },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "API_BEARER_TOKEN (service) or a read token" } },
      schemas: Object.fromEntries(tables.map((model) => [model.pascal, rowSchema(model, true)])),
      responses: {
        Error: {
          description: "A refusal",
          content: { "application/json": { schema: { type: "object", properties: { error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } }, required: ["code", "message"] } }, required: ["error"] } } },
        },
      },
    },
  };
}
