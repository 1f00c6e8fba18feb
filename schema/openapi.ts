import { toJsonSchema } from "@valibot/to-json-schema";
import type { AnySchema, RouteSpec, Surface } from "./contract";
import { ErrorBody } from "./common";
import { ERROR_STATUS } from "../shared/errors";

type Json = Record<string, unknown>;

function schemaOf(schema: AnySchema, mode: "input" | "output"): Json {
  return toJsonSchema(schema, { target: "draft-2020-12", typeMode: mode, errorMode: "ignore" }) as Json;
}

/** Turns an object schema of path or query values into OpenAPI parameters. */
function parameters(schema: AnySchema | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, "input");
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { $schema: _drop, ...clean } = s;
    const param: Json = { name, in: where, required: where === "path" || required.has(name), schema: clean };
    if (clean.type === "array") {
      param.style = "form";
      param.explode = true;
    }
    return param;
  });
}

function strip(json: Json): Json {
  const { $schema: _drop, ...rest } = json;
  return rest;
}

/** A multipart body: its text fields from `body`, plus the required binary file part. */
function multipartSchema(route: RouteSpec): Json {
  const spec = route.multipart;
  const fields = route.body ? strip(schemaOf(route.body, "input")) : { type: "object", properties: {} };
  const properties = { ...((fields.properties ?? {}) as Json) };
  if (spec) {
    properties[spec.file] = { type: "string", format: "binary", contentMediaType: "application/octet-stream", description: `The file, at most ${spec.maxFileBytes} bytes` };
  }
  const required = [...((fields.required ?? []) as string[]), ...(spec ? [spec.file] : [])];
  return { ...fields, type: "object", properties, required };
}

function operation(route: RouteSpec, surface: Surface): Json {
  const status = route.status ?? 200;
  const responses: Json = {
    // A 204 has no body to describe.
    [String(status)]: status === 204 ? { description: "Success" } : { description: "Success", content: { [route.responseType ?? "application/json"]: { schema: strip(schemaOf(route.response, "output")) } } },
  };
  for (const other of route.otherStatuses ?? []) {
    responses[String(other.status)] = { description: other.description, content: { [route.responseType ?? "application/json"]: { schema: strip(schemaOf(route.response, "output")) } } };
  }
  const byStatus = new Map<number, string[]>();
  const bodyErrors = route.method === "get" ? [] : (surface.bodyErrors ?? []);
  for (const code of new Set([...route.errors, ...bodyErrors, ...(surface.callerErrors ?? [])])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = { description: codes.join(", "), content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } } };
  }
  const op: Json = {
    operationId: route.operationId,
    summary: route.summary,
    parameters: [...parameters(route.params, "path"), ...parameters(route.query, "query")],
    responses,
  };
  if (route.idempotent) {
    (op.parameters as Json[]).push({
      name: "Idempotency-Key",
      in: "header",
      required: true,
      schema: { type: "string", minLength: 1, maxLength: 128, pattern: "^[\\x21-\\x7E]+$" },
    });
  }
  if (route.multipart) op.requestBody = { required: true, content: { "multipart/form-data": { schema: multipartSchema(route) } } };
  else if (route.binaryBody) op.requestBody = { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary", description: route.binaryBody } } } };
  else if (route.body) op.requestBody = { required: true, content: { "application/json": { schema: strip(schemaOf(route.body, "input")) } } };
  if (route.scope) op["x-scope"] = route.scope;
  // A route any caller may use (the admin's sign-in) declares no security of its own.
  const anonymous = "access" in route && route.access === "public";
  if (surface.security) op.security = anonymous ? [] : [{ [surface.security.name]: [] }];
  return op;
}

/** An OpenAPI 3.1 document for one surface, deterministic for a given table. */
export function buildOpenApi(surface: Surface): Json {
  const paths: Record<string, Json> = {};
  for (const route of surface.routes) {
    const path = `${surface.basePath}${route.path}`;
    paths[path] = { ...(paths[path] ?? {}), [route.method]: operation(route, surface) };
  }
  const components: Json = { schemas: { ErrorBody: strip(schemaOf(surface.errorBody ?? ErrorBody, "output")) } };
  if (surface.security) components.securitySchemes = { [surface.security.name]: surface.security.scheme };
  return {
    openapi: "3.1.0",
    info: { title: surface.title, version: surface.version, description: surface.description },
    paths,
    components,
  };
}
