/** The field that gives an entry its label. */
import type { FieldDefinition } from "../../schema/model-definition";

/**
 * The field that gives an entry its label: the one marked `title: true`; else the first text
 * field keyed `title` or `name`; else the first text field; else none.
 */
export function titleField(fields: readonly FieldDefinition[]): FieldDefinition | undefined {
  return (
    fields.find((field) => field.title === true) ??
    fields.find((field) => field.type === "text" && (field.key === "title" || field.key === "name")) ??
    fields.find((field) => field.type === "text")
  );
}
