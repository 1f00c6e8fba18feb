import { isToMany, relationKind, type FieldDefinition } from "../../../schema/model-definition";
import type { Model } from "../../repositories/model-repository";
import { comment, literal as str } from "./names";

/** The TypeScript type of a served field value. */
function valueType(field: FieldDefinition): string {
  switch (field.type) {
    case "integer":
    case "decimal":
      return "number | null";
    case "boolean":
      return "boolean | null";
    case "location":
      return "{ lat: number; lon: number } | null";
    case "select": {
      const options = (field.options ?? []).map((o) => str(o.value)).join(" | ") || "string";
      return field.multiple ? `Array<${options}> | null` : `${options} | null`;
    }
    // Only inside a component: top-level relations and media are served in `relations` / `media`.
    // Inside, each is served in place as its top-level form is: a list of references.
    case "relation":
      return "RelationRef[]";
    case "media":
      return "MediaRef[]";
    case "component": {
      // Private nested fields are never served, so never named (the snapshot drops them).
      const inner = (field.fields ?? [])
        .filter((f) => !f.private)
        .map((f) => `${str(f.key)}: ${valueType(f)}`)
        .join("; ");
      const shape = `{ ${inner} }`;
      return field.multiple ? `Array<${shape}> | null` : `${shape} | null`;
    }
    default:
      return "string | null";
  }
}

/** The types of one public model: its fields, relations and media, and the item type. */
export function modelTypes(model: Model, name: string): string {
  const visible = model.fields.filter((f) => !f.private);
  const line = (f: FieldDefinition, type: string) => `  /** ${comment(f.label)} */\n  ${str(f.key)}: ${type};`;
  const fields = visible.filter((f) => f.type !== "relation" && f.type !== "media").map((f) => line(f, valueType(f)));
  // Every relation is served as a list, in its stored order; a to-one kind holds at most one item.
  const relations = visible
    .filter((f) => f.type === "relation")
    .map((f) => `  /** ${comment(f.label)} (${relationKind(f)}${isToMany(relationKind(f)) ? ", ordered" : ", at most one"}${f.hierarchy ? ", parent link" : ""}) */\n  ${str(f.key)}: RelationRef[];`);
  const media = visible.filter((f) => f.type === "media").map((f) => line(f, "MediaRef[]"));
  const relationKeys = visible.filter((f) => f.type === "relation").map((f) => str(f.key)).join(" | ") || "never";
  return [
    `/** Fields of ${comment(model.name)} (${model.slug}). */`,
    `export interface ${name}Fields {\n${fields.join("\n")}\n}`,
    `export interface ${name}Relations {\n${relations.join("\n")}\n}`,
    `export interface ${name}Media {\n${media.join("\n")}\n}`,
    `export type ${name} = Item<${str(model.slug)}, ${name}Fields, ${name}Relations, ${name}Media>;`,
    `export type ${name}RelationField = ${relationKeys};`,
    `export type ${name}FieldKey = keyof ${name}Fields | keyof ${name}Relations | keyof ${name}Media;`,
  ].join("\n");
}
