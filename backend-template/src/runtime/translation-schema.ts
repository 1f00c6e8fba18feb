/**
 * Which operations a translation table (`<model>translation`) has and what they inherit (spec 3,
 * "Rules of locale rows"): pure, shared by the routes (translations.ts) and the OpenAPI description.
 */
import { READ_OPERATIONS, type ModelSchema, type Operation, type SiteSchema } from "./schema-types.js";

/** The model operation a translation-table operation inherits its availability and access from. */
export function inheritedOperation(operation: Operation): Operation {
  if (READ_OPERATIONS.includes(operation)) return operation;
  return operation === "delete" ? "delete" : "update";
}

/** The model whose translation table is `table`, if any. */
export function translationOwner(schema: SiteSchema, table: string): ModelSchema | undefined {
  return schema.models.find((model) => model.translation?.api === table);
}

/** The columns a translation update may set: the translated values (never the base id or the language). */
export function translationUpdateModel(owner: ModelSchema, table: ModelSchema): ModelSchema {
  const fixed = new Set([`${owner.api}_id`, "lang"]);
  return { ...table, columns: table.columns.filter((column) => !fixed.has(column.name)) };
}

