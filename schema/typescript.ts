import { toJsonSchema } from "@valibot/to-json-schema";
import type { AnySchema, Surface } from "./contract";

type Json = { [key: string]: unknown };

/** TypeScript text for a JSON Schema (the subset valibot emits: objects, arrays, unions, enums, records). */
function tsType(schema: Json | undefined, indent: string): string {
  if (!schema || Object.keys(schema).length === 0) return "unknown";
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Json[]).map((s) => tsType(s, indent)).join(" | ");
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Json[]).map((s) => tsType(s, indent)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((e) => JSON.stringify(e)).join(" | ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => tsType({ ...schema, type: t }, indent)).join(" | ");
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${tsType(schema.items as Json | undefined, indent)}>`;
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      const inner = `${indent}  `;
      const lines = Object.entries(props).map(([key, value]) => `${inner}${JSON.stringify(key)}${required.has(key) ? "" : "?"}: ${tsType(value, inner)};`);
      const extra = schema.additionalProperties;
      if (extra && typeof extra === "object") lines.push(`${inner}[key: string]: ${tsType(extra as Json, inner)};`);
      else if (extra !== false && Object.keys(props).length === 0) lines.push(`${inner}[key: string]: unknown;`);
      return lines.length === 0 ? "Record<string, never>" : `{\n${lines.join("\n")}\n${indent}}`;
    }
    default:
      return "unknown";
  }
}

function convert(schema: AnySchema | undefined, mode: "input" | "output", indent: string): string {
  if (!schema) return "never";
  return tsType(toJsonSchema(schema, { target: "draft-2020-12", typeMode: mode, errorMode: "ignore" }) as Json, indent);
}

/**
 * Types of every operation of a surface: path parameters, query, body and answer, by operationId.
 * Generated; consumers import them instead of writing the shapes by hand.
 */
export function buildTypes(surface: Surface, name: string): string {
  const ops = surface.routes.map((r) => {
    const i = "    ";
    return [
      `  /** ${r.method.toUpperCase()} ${surface.basePath}${r.path}${r.scope ? ` — scope ${r.scope}` : ""}${r.idempotent ? " — needs Idempotency-Key" : ""} */`,
      `  ${r.operationId}: {`,
      `    method: ${JSON.stringify(r.method.toUpperCase())};`,
      `    path: ${JSON.stringify(`${surface.basePath}${r.path}`)};`,
      `    params: ${convert(r.params, "input", i)};`,
      `    query: ${convert(r.query, "input", i)};`,
      `    body: ${r.binaryBody ? `/* the file's raw bytes */ ReadableStream<Uint8Array> | Blob | ArrayBuffer | Uint8Array` : r.multipart ? `FormData; /** multipart/form-data: file part ${JSON.stringify(r.multipart.file)} and the text fields */\n    formFields: ${convert(r.body, "input", i)}` : convert(r.body, "input", i)};`,
      `    response: ${convert(r.response, "output", i)};`,
      `  };`,
    ].join("\n");
  });
  return `// ${surface.title} v${surface.version}: operation types generated from schema/ by \`npm run contract\`. Do not edit.

export interface ${name} {
${ops.join("\n")}
}

export type ${name}Id = keyof ${name};
export type Body<K extends ${name}Id> = ${name}[K]["body"];

/** Method and path of every operation, for clients that call by operationId (the admin UI). */
export const ${name}Routes: { readonly [K in ${name}Id]: { readonly method: ${name}[K]["method"]; readonly path: ${name}[K]["path"] } } = {
${surface.routes.map((r) => `  ${r.operationId}: { method: ${JSON.stringify(r.method.toUpperCase())}, path: ${JSON.stringify(`${surface.basePath}${r.path}`)} },`).join("\n")}
};
export type Answer<K extends ${name}Id> = ${name}[K]["response"];

/** The error envelope of every refusal. */
export interface ErrorBody {
  error: { code: string; message: string; [detail: string]: unknown };
}
`;
}
