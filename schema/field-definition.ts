/** A field definition: its stored type (written out to the depth components nest) and its schema with every cross-check. */
import * as v from "valibot";
import { FieldDefinitionEntries } from "./field-definition-entries";
import { dateBound, noneSet, VALIDATION_DATE_KEYS, VALIDATION_ITEM_KEYS, VALIDATION_LENGTH_KEYS, VALIDATION_NUMBER_KEYS } from "./field-settings";
import { DATE_TYPES, isToMany, LENGTH_TYPES, MULTIPLE_TYPES, NUMBER_TYPES, relationKind } from "./field-types";

type FieldDefinitionCore = v.InferOutput<typeof FieldDefinitionEntries>;

/**
 * A field definition as stored: a component's `fields` are field definitions too (nested ids
 * default to their keys). Written out to the depth components may nest (3 levels), not as a
 * recursive type: the Durable Object RPC types cannot map a recursive one.
 */
export interface FieldDefinition extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField1[];
}
interface NestedField1 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField2[];
}
interface NestedField2 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: NestedField3[];
}
interface NestedField3 extends Omit<FieldDefinitionCore, "fields"> {
  fields?: Omit<FieldDefinitionCore, "fields">[];
}

/** A component's fields, parsed with the field schema itself (recursion through v.lazy). */
const NestedFields: v.GenericSchema<unknown, FieldDefinition[]> = v.lazy(() =>
  v.pipe(
    v.array(FieldDefinition, "fields must be an array of field definitions."),
    v.minLength(1, "A component needs at least one field."),
    v.maxLength(50, "A component holds at most 50 fields."),
  ),
);

// Two pipes, one inside the other: valibot types a pipe of at most 19 items, and a field's checks are more.
const FieldDefinitionShape = v.pipe(
  v.strictObject({ ...FieldDefinitionEntries.entries, id: v.optional(FieldDefinitionEntries.entries.id), fields: v.optional(NestedFields) }),
  // fields: only and always for component.
  v.forward(
    v.partialCheck(
      [["type"], ["fields"]],
      (input) => input.type === "component" || input.fields === undefined,
      "fields are only allowed on component fields.",
    ),
    ["fields"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["fields"]],
      (input) => input.type !== "component" || input.fields !== undefined,
      "A component field needs fields.",
    ),
    ["fields"],
  ),
  // options: only and always for select.
  v.forward(
    v.partialCheck(
      [["type"], ["options"]],
      (input) => input.type === "select" || input.options === undefined,
      "options are only allowed on select fields.",
    ),
    ["options"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["options"]],
      (input) => input.type !== "select" || input.options !== undefined,
      "A select field needs options.",
    ),
    ["options"],
  ),
  // targets: only and always for relation.
  v.forward(
    v.partialCheck(
      [["type"], ["targets"]],
      (input) => input.type === "relation" || input.targets === undefined,
      "targets are only allowed on relation fields.",
    ),
    ["targets"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["targets"]],
      (input) => input.type !== "relation" || input.targets !== undefined,
      "A relation field needs targets: the models it may point to.",
    ),
    ["targets"],
  ),
  // relation kind, hierarchy and localized_membership: only for relation fields, and consistent.
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["hierarchy"], ["localized_membership"]],
      (input) => input.type === "relation" || (input.relation === undefined && input.hierarchy === undefined && input.localized_membership === undefined),
      "relation, hierarchy and localized_membership are only allowed on relation fields.",
    ),
    ["relation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["multiple"]],
      (input) => input.type !== "relation" || input.relation === undefined || isToMany(input.relation) === (input.multiple === true),
      "one_to_many and many_to_many relations hold lists (multiple: true); one_to_one and many_to_one hold one item.",
    ),
    ["multiple"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["relation"], ["multiple"], ["hierarchy"]],
      (input) => input.hierarchy !== true || !isToMany(relationKind(input)),
      "A hierarchy (parent) link is to-one: many_to_one or one_to_one.",
    ),
    ["hierarchy"],
  ),
);

export const FieldDefinition: v.GenericSchema<unknown, FieldDefinition> = v.pipe(
  FieldDefinitionShape,
  // multiple: only for select, media and relation.
  v.forward(
    v.partialCheck(
      [["type"], ["multiple"]],
      (input) => input.multiple !== true || MULTIPLE_TYPES.includes(input.type),
      "multiple is only allowed on select, media, relation and component fields.",
    ),
    ["multiple"],
  ),
  // title: the entry's label comes from a text field.
  v.forward(
    v.partialCheck(
      [["type"], ["title"]],
      (input) => input.title !== true || input.type === "text",
      "Only a text field can be the title.",
    ),
    ["title"],
  ),
  // validation settings per type.
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => LENGTH_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_LENGTH_KEYS),
      "min_length, max_length and pattern only apply to text, long_text, rich_text and slug fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => NUMBER_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_NUMBER_KEYS),
      "min, max and step only apply to integer and decimal fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => DATE_TYPES.includes(input.type) || noneSet(input.validation, VALIDATION_DATE_KEYS),
      "min_date and max_date only apply to date and datetime fields.",
    ),
    ["validation"],
  ),
  v.forward(
    v.partialCheck(
      [["multiple"], ["validation"]],
      (input) => input.multiple === true || noneSet(input.validation, VALIDATION_ITEM_KEYS),
      "min_items and max_items only apply to fields with multiple: true.",
    ),
    ["validation"],
  ),
  // date bounds: in the type's own format, and in order.
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => {
        const bound = input.validation?.min_date;
        return bound === undefined || !DATE_TYPES.includes(input.type) || dateBound(input.type, bound) !== undefined;
      },
      (issue) =>
        `min_date must be ${issue.input.type === "date" ? "a YYYY-MM-DD date" : "an ISO-8601 date-time with Z or an offset"}.`,
    ),
    ["validation", "min_date"],
  ),
  v.forward(
    v.partialCheck(
      [["type"], ["validation"]],
      (input) => {
        const bound = input.validation?.max_date;
        return bound === undefined || !DATE_TYPES.includes(input.type) || dateBound(input.type, bound) !== undefined;
      },
      (issue) =>
        `max_date must be ${issue.input.type === "date" ? "a YYYY-MM-DD date" : "an ISO-8601 date-time with Z or an offset"}.`,
    ),
    ["validation", "max_date"],
  ),
  // A nested field may leave its id out (values inside a component are stored by key); the
  // services give every top-level field an id before parsing.
  v.transform((field) => ({ ...field, id: field.id ?? field.key })),
  v.title("FieldDefinition"),
  v.description("One field of a content model."),
);
