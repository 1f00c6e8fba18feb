/** A model's fields: the list schema, with unique keys and ids and at most one title field. */
import * as v from "valibot";
import { FieldDefinition } from "./field-definition";

/** Indexes of items whose `pick` value was already seen earlier in `items`. */
function repeats<T>(items: readonly T[], pick: (item: T) => unknown): number[] {
  const seen = new Set<unknown>();
  const found: number[] = [];
  items.forEach((item, index) => {
    const value = pick(item);
    if (seen.has(value)) found.push(index);
    seen.add(value);
  });
  return found;
}

export const ModelFields = v.pipe(
  v.array(FieldDefinition, "fields must be an array of field definitions."),
  v.maxLength(200, "A model holds at most 200 fields."),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const fields = dataset.value;
    const at = (index: number, key: "key" | "id" | "title"): [v.IssuePathItem, ...v.IssuePathItem[]] => {
      const field = fields[index];
      const item: v.IssuePathItem = { type: "array", origin: "value", input: fields, key: index, value: field };
      return field === undefined
        ? [item]
        : [item, { type: "object", origin: "value", input: field as unknown as Record<string, unknown>, key, value: field[key] }];
    };
    for (const index of repeats(fields, (field) => field.key)) {
      addIssue({ message: `Field key "${fields[index]?.key}" is used by more than one field.`, path: at(index, "key") });
    }
    for (const index of repeats(fields, (field) => field.id)) {
      addIssue({ message: `Field id "${fields[index]?.id}" is used by more than one field.`, path: at(index, "id") });
    }
    const titles = fields.flatMap((field, index) => (field.title === true ? [index] : []));
    for (const index of titles.slice(1)) {
      addIssue({ message: "Only one field can be the title.", path: at(index, "title") });
    }
  }),
  v.title("ModelFields"),
  v.description("The fields of a content model, in display order; keys and ids are unique."),
);
export type ModelFields = v.InferOutput<typeof ModelFields>;
